package io.nccldoctor.core;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One node, one run: provenance plus one section per probe, keyed by the probe's key. Documented in
 * docs/snapshot.md; {@link #SCHEMA_VERSION} changes whenever a field changes meaning or disappears.
 */
public record Snapshot(int schemaVersion, String toolVersion, String hostName, String createdAt, String source,
                       List<String> argv, Map<String, String> env, Map<String, Object> sections) {

    public static final int SCHEMA_VERSION = 1;

    public Snapshot {
        argv = List.copyOf(argv);
        env = Collections.unmodifiableMap(new TreeMap<>(env));
        sections = Collections.unmodifiableMap(new LinkedHashMap<>(sections));
    }

    /** The section a probe filled, as its own type (also after a snapshot was read back from JSON). */
    public <T> T section(String key, Class<T> type) {
        Object s = sections.get(key);
        if (s == null) {
            return null;
        }
        if (type.isInstance(s)) {
            return type.cast(s);
        }
        if (s instanceof JsonNode n) {
            return Json.convert(n, type, "snapshot of " + hostName + ": sections." + key);
        }
        if (s instanceof Map) {
            return Json.convert(Json.mapper().valueToTree(s), type, "snapshot of " + hostName + ": sections." + key);
        }
        throw new IllegalStateException("section " + key + " is a " + s.getClass().getSimpleName() + ", not " + type.getSimpleName());
    }
}
