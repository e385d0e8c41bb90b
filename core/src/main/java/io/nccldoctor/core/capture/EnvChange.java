package io.nccldoctor.core.capture;

import io.nccldoctor.core.Host;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Snapshot;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A what-if on the environment a host is judged with: {@code --env NCCL_NET_GDR_LEVEL=PHB} sets a variable,
 * {@code --env NCCL_IB_HCA} (no '=') removes it, on a capture being replayed (or the live node). Only what the probes
 * and rules read from the environment changes; files, command outputs and native answers are those recorded, so a
 * change that would need a new reading (a library folder added to LD_LIBRARY_PATH is searched, but what the loader of
 * the captured node would have found there is not known) is said in the snapshot's source.
 *
 * @param changes in the order given: a value, or null to remove the variable
 */
public record EnvChange(Map<String, String> changes) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    public EnvChange {
        changes = Collections.unmodifiableMap(new LinkedHashMap<>(changes));
    }

    /** From {@code --env} values: "VAR=VALUE" or "VAR"; a malformed name is refused in one line. */
    public static EnvChange parse(List<String> specs) {
        Map<String, String> changes = new LinkedHashMap<>();
        for (String s : specs) {
            int eq = s.indexOf('=');
            String name = eq < 0 ? s : s.substring(0, eq);
            if (!NAME.matcher(name).matches()) {
                throw new InputException("--env " + s + ": give VAR=VALUE to set a variable, or VAR to remove it "
                        + "(e.g. --env NCCL_NET_GDR_LEVEL=PHB)");
            }
            changes.put(name, eq < 0 ? null : s.substring(eq + 1));
        }
        return new EnvChange(changes);
    }

    public boolean isEmpty() {
        return changes.isEmpty();
    }

    /** {@code host} with the changed environment; its source names the changes, so a report never hides them. */
    public Host applyTo(Host host) {
        if (changes.isEmpty()) {
            return host;
        }
        return new Host(host.files(), host.commands(), host.natives(), changed(host.env()), host.source() + said());
    }

    /**
     * A snapshot read from text (lspci output, an NCCL topology file: no environment of its own) judged with the changed
     * environment; its source names the changes too.
     */
    public Snapshot applyTo(Snapshot s) {
        if (changes.isEmpty()) {
            return s;
        }
        return new Snapshot(s.schemaVersion(), s.toolVersion(), s.hostName(), s.createdAt(), s.source() + said(), s.argv(),
                changed(s.env()), s.sections());
    }

    private Map<String, String> changed(Map<String, String> before) {
        Map<String, String> env = new TreeMap<>(before);
        changes.forEach((k, v) -> {
            if (v == null) {
                env.remove(k);
            } else {
                env.put(k, v);
            }
        });
        return env;
    }

    /** " with --env A=1, unset B": what a changed source adds to its name. */
    private String said() {
        List<String> said = new ArrayList<>();
        changes.forEach((k, v) -> said.add(v == null ? "unset " + k : k + "=" + v));
        return " with --env " + String.join(", ", said);
    }
}
