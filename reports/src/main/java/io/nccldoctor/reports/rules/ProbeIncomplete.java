package io.nccldoctor.reports.rules;

import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.core.Json;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A probe tried to read something and failed (permission denied, a command that timed out): the snapshot has
 * a hole, and every rule that needs that fact is blind. Absent facts are normal and not reported here.
 */
public final class ProbeIncomplete implements Rule {

    static final RuleInfo INFO = new RuleInfo("PROBE_INCOMPLETE", Severity.WARN,
            "some facts could not be read",
            "A probe tried to read a file, run a command or ask a library and got an error rather than an answer. "
                    + "The checks that need those facts could not judge them, so a clean result is less than it seems. "
                    + "Typical causes: running unprivileged where root is needed (PCI config space, some sysfs "
                    + "attributes), a hung command killed at its time limit, a library that fails to load.",
            "every fact in the snapshot whose state is error, with its place in the JSON document",
            "Read each cause; rerun as root where permission was denied, or fix what the cause names. "
                    + "`nccl-doctor preflight --json` shows the same places.");

    private static final int MAX_LINES = 12;

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        List<String> errors = new ArrayList<>();
        for (Map.Entry<String, Object> section : s.sections().entrySet()) {
            collect(Json.mapper().valueToTree(section.getValue()), section.getKey(), errors);
        }
        if (errors.isEmpty()) {
            return Outcome.pass();
        }
        List<String> evidence = new ArrayList<>(errors.subList(0, Math.min(errors.size(), MAX_LINES)));
        if (errors.size() > MAX_LINES) {
            evidence.add("… and " + (errors.size() - MAX_LINES) + " more (see --json)");
        }
        return Outcome.flag(finding("node", errors.size() + (errors.size() == 1 ? " fact" : " facts") + " could not be read", evidence));
    }

    private static void collect(JsonNode node, String path, List<String> out) {
        if (node.isObject()) {
            if (node.size() == 1 && node.has("error") && node.get("error").isTextual()) {
                out.add(path + ": " + node.get("error").asText());
                return;
            }
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                collect(e.getValue(), path + "." + e.getKey(), out);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                collect(node.get(i), path + "[" + i + "]", out);
            }
        }
    }
}
