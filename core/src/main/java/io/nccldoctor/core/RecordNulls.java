package io.nccldoctor.core;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * Where a document read back into records holds a null that the records never hold: a fact, a list, a map or a nested
 * record. Every probe writes an absent fact with its reason rather than a null, and the JSON writer leaves nulls out,
 * so a null (or a missing field) in one of these places was put there by hand or by damage; it is said as one line with
 * its path instead of failing later, far from the file.
 */
public final class RecordNulls {

    private static final int MAX_DEPTH = 64;

    private RecordNulls() {
    }

    /** The path of the first such null under {@code value} ("sections.pci.devices"), or empty. */
    public static Optional<String> find(Object value, String path) {
        return find(value, path, 0);
    }

    private static Optional<String> find(Object value, String path, int depth) {
        if (value == null || depth > MAX_DEPTH) {
            return Optional.empty();
        }
        if (value instanceof Fact.Value<?> v) {
            return v.value() == null ? Optional.of(path + ".value") : find(v.value(), path, depth + 1);
        }
        if (value instanceof Collection<?> c) {
            int i = 0;
            for (Object e : c) {
                Optional<String> in = e == null ? Optional.of(path + "[" + i + "]") : find(e, path + "[" + i + "]", depth + 1);
                if (in.isPresent()) {
                    return in;
                }
                i++;
            }
            return Optional.empty();
        }
        if (value instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                Optional<String> in = find(e.getValue(), path + "." + e.getKey(), depth + 1);
                if (in.isPresent()) {
                    return in;
                }
            }
            return Optional.empty();
        }
        return value.getClass().isRecord() ? components(value, path, depth) : Optional.empty();
    }

    private static Optional<String> components(Object record, String path, int depth) {
        for (RecordComponent c : record.getClass().getRecordComponents()) {
            Object v;
            try {
                v = c.getAccessor().invoke(record);
            } catch (IllegalAccessException | InvocationTargetException e) {
                continue; // an accessor that cannot be called here is not one a rule calls either
            }
            String at = path + "." + c.getName();
            Class<?> t = c.getType();
            if (v == null && (Fact.class.isAssignableFrom(t) || Collection.class.isAssignableFrom(t) || Map.class.isAssignableFrom(t)
                    || t.isRecord())) {
                return Optional.of(at);
            }
            Optional<String> in = find(v, at, depth + 1);
            if (in.isPresent()) {
                return in;
            }
        }
        return Optional.empty();
    }
}
