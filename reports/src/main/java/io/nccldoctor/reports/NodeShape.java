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
 * @param origin  where the expectation came from, for evidence lines ("--expect", "profile dgx-h100")
 * @param require what a profile requires beyond counts ({@link #REQUIRE_KEYS}), checked by PROFILE_MISMATCH
 */
public record NodeShape(Map<String, Integer> counts, String origin, Map<String, String> require) {

    public static final List<String> KEYS = List.of("gpus", "nics", "rdma");
    /**
     * gpuLink and nicLink ("Gen5 x16": every GPU's / RDMA NIC's current link), mtu (the least netdev MTU of every RoCE
     * port), ncclMin and ncclMax (the NCCL version range), nicFirmware (every HCA's firmware).
     */
    public static final List<String> REQUIRE_KEYS = List.of("gpuLink", "nicLink", "mtu", "ncclMin", "ncclMax", "nicFirmware");

    public NodeShape {
        counts = Collections.unmodifiableMap(new LinkedHashMap<>(counts));
        require = require == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(require));
    }

    public NodeShape(Map<String, Integer> counts, String origin) {
        this(counts, origin, Map.of());
    }

    public static NodeShape none() {
        return new NodeShape(Map.of(), "none");
    }

    /** This shape with requirements (a profile's {@code require:} map), each key checked. */
    public NodeShape requiring(Map<String, String> req, String where) {
        for (String k : req.keySet()) {
            if (!REQUIRE_KEYS.contains(k)) {
                throw new InputException(where + ": require." + k + " is not one of " + String.join(", ", REQUIRE_KEYS));
            }
        }
        if (req.containsKey("mtu") && !req.get("mtu").matches("\\d+")) {
            throw new InputException(where + ": require.mtu " + req.get("mtu") + " is not a number");
        }
        for (String k : List.of("gpuLink", "nicLink")) {
            if (req.containsKey(k) && !req.get(k).matches("Gen[1-7] x\\d+")) {
                throw new InputException(where + ": require." + k + " '" + req.get(k) + "': write it as lspci users say it, e.g. Gen5 x16");
            }
        }
        return new NodeShape(counts, origin, req);
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
        return new NodeShape(merged, isEmpty() ? other.origin : origin + " + " + other.origin, require);
    }
}
