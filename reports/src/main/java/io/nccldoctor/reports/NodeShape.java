package io.nccldoctor.reports;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.nccldoctor.core.InputException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * What the user says this node should have, from {@code --expect gpus=8,nics=8,rdma=8} or a profile.
 * Keys: {@code gpus} (NVIDIA GPUs), {@code nics} (PCI network and InfiniBand functions, as lspci counts them:
 * a dual-port card is two), {@code rdma} (devices in /sys/class/infiniband).
 *
 * @param origin where the expectation came from, for evidence lines ("--expect", "profile dgx-h100")
 */
public record NodeShape(Map<String, Integer> counts, String origin) {

    public static final List<String> KEYS = List.of("gpus", "nics", "rdma");

    public NodeShape {
        counts = Collections.unmodifiableMap(new LinkedHashMap<>(counts));
    }

    public static NodeShape none() {
        return new NodeShape(Map.of(), "none");
    }

    @JsonIgnore
    public boolean isEmpty() {
        return counts.isEmpty();
    }

    public OptionalInt expected(String key) {
        Integer v = counts.get(key);
        return v == null ? OptionalInt.empty() : OptionalInt.of(v);
    }

    /** Parses "gpus=8,nics=8"; anything else is an {@link InputException} that names the bad part. */
    public static NodeShape parse(String spec, String origin) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (String part : spec.split(",")) {
            String p = part.strip();
            if (p.isEmpty()) {
                continue;
            }
            int eq = p.indexOf('=');
            String key = eq < 0 ? p : p.substring(0, eq).strip();
            if (eq < 0 || !KEYS.contains(key)) {
                throw new InputException(origin + ": '" + p + "' is not KEY=COUNT with KEY one of " + String.join(", ", KEYS)
                        + " (example: --expect gpus=8,nics=8)");
            }
            counts.put(key, count(p.substring(eq + 1).strip(), origin, key));
        }
        return new NodeShape(counts, origin);
    }

    private static int count(String value, String origin, String key) {
        try {
            int n = Integer.parseInt(value);
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new InputException(origin + ": " + key + "=" + value + " is not a count (a whole number, 0 or more)");
        }
    }

    /** This shape with {@code other}'s keys replacing its own (flags over profiles). */
    public NodeShape overriddenBy(NodeShape other) {
        if (other.isEmpty()) {
            return this;
        }
        Map<String, Integer> merged = new LinkedHashMap<>(counts);
        merged.putAll(other.counts);
        return new NodeShape(merged, isEmpty() ? other.origin : origin + " + " + other.origin);
    }
}
