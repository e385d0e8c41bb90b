package io.nccldoctor.core;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One line for what is wrong with a JSON document: where (the field path, or the line and column) and what, in words
 * rather than Java types ("sections.pci.devices[3].link.width: expected a whole number, got a string \"x16\"").
 */
final class JsonProblems {

    private JsonProblems() {
    }

    /** ":LINE:COL" of a syntax error, or "" when Jackson does not know. */
    static String at(JsonProcessingException e) {
        JsonLocation l = e.getLocation();
        return l == null || l.getLineNr() < 1 ? "" : ":" + l.getLineNr() + ":" + l.getColumnNr();
    }

    /** What a binding failure means: the field, what was expected there, what the document holds. */
    static String binding(Throwable failure, JsonNode root) {
        JsonMappingException mapping = find(failure, JsonMappingException.class);
        if (mapping == null) {
            return firstLine(deepest(failure).getMessage());
        }
        String path = path(mapping.getPath());
        String field = path.isEmpty() ? "" : path + ": ";
        if (mapping instanceof UnrecognizedPropertyException u) {
            String parent = path.contains(".") ? path.substring(0, path.lastIndexOf('.')) : "";
            return (parent.isEmpty() ? "" : parent + ": ") + "unknown field '" + u.getPropertyName() + "'"
                    + known(u.getKnownPropertyIds());
        }
        JsonNode got = at(root, mapping.getPath());
        if (got != null && got.isObject() && got.size() == 1 && got.has("value")) {
            got = got.get("value"); // a fact: what it holds is what did not fit
        }
        InputCoercionException range = find(failure, InputCoercionException.class);
        if (range != null) {
            return field + "expected " + expected(range.getTargetType()) + ", got " + got(got);
        }
        MismatchedInputException mismatch = find(failure, MismatchedInputException.class);
        // Jackson's own mismatches ("Cannot deserialize value of type `int` from String") said in words; a reader's own
        // message ("a fact is an object with exactly one of value, absent, error") as it is
        if (mismatch != null && mismatch.getTargetType() != null && firstLine(mismatch.getOriginalMessage()).startsWith("Cannot ")) {
            return field + "expected " + expected(mismatch.getTargetType()) + ", got " + got(got);
        }
        return field + firstLine(deepest(failure).getMessage());
    }

    private static String known(Collection<Object> ids) {
        if (ids == null || ids.isEmpty()) {
            return "";
        }
        return " (known: " + ids.stream().map(String::valueOf).sorted().collect(Collectors.joining(", ")) + ")";
    }

    static String path(List<JsonMappingException.Reference> refs) {
        StringBuilder s = new StringBuilder();
        for (JsonMappingException.Reference r : refs) {
            if (r.getFieldName() != null) {
                s.append(s.length() == 0 ? "" : ".").append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                s.append('[').append(r.getIndex()).append(']');
            }
        }
        return s.toString();
    }

    private static JsonNode at(JsonNode root, List<JsonMappingException.Reference> refs) {
        JsonNode n = root;
        for (JsonMappingException.Reference r : refs) {
            if (n == null) {
                return null;
            }
            n = r.getFieldName() != null ? n.get(r.getFieldName()) : r.getIndex() >= 0 ? n.get(r.getIndex()) : n;
        }
        return n;
    }

    static String expected(Class<?> type) {
        if (type == int.class || type == Integer.class || type == short.class || type == Short.class) {
            return "a whole number from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE;
        }
        if (type == long.class || type == Long.class) {
            return "a whole number from " + Long.MIN_VALUE + " to " + Long.MAX_VALUE;
        }
        if (type == double.class || type == Double.class || type == float.class || type == Float.class) {
            return "a number";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type == String.class || CharSequence.class.isAssignableFrom(type)) {
            return "a string";
        }
        if (type.isEnum()) {
            return "one of " + Arrays.stream(type.getEnumConstants()).map(String::valueOf).collect(Collectors.joining(", "));
        }
        if (type.isArray() || Collection.class.isAssignableFrom(type)) {
            return "a list";
        }
        return Map.class.isAssignableFrom(type) || type != Object.class ? "an object" : "a value";
    }

    static String got(JsonNode n) {
        if (n == null || n.isMissingNode()) {
            return "nothing";
        }
        if (n.isNull()) {
            return "null";
        }
        if (n.isTextual()) {
            String t = n.asText();
            return "a string \"" + (t.length() > 40 ? t.substring(0, 40) + "…" : t) + "\"";
        }
        if (n.isNumber()) {
            String t = n.asText();
            return "the number " + (t.length() > 40 ? t.substring(0, 40) + "…" : t);
        }
        if (n.isBoolean()) {
            return n.asText();
        }
        return n.isArray() ? "a list" : "an object";
    }

    static String firstLine(String s) {
        String line = s == null ? "" : s.lines().findFirst().orElse("").strip();
        return line.isEmpty() ? "a value this version cannot hold" : line;
    }

    private static <T extends Throwable> T find(Throwable t, Class<T> type) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (type.isInstance(c)) {
                return type.cast(c);
            }
        }
        return null;
    }

    private static Throwable deepest(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null && c.getCause() != c) {
            c = c.getCause();
        }
        return c instanceof JsonProcessingException j && j.getOriginalMessage() != null ? new RuntimeException(j.getOriginalMessage()) : c;
    }
}
