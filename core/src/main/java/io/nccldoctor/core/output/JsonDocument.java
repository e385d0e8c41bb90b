package io.nccldoctor.core.output;

import io.nccldoctor.core.Json;
import java.io.FilterWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * The JSON a verb prints with --json or writes with -o FILE.json: one object whose first member is
 * {@code "generator" : "nccl-doctor"} (the marker of {@link Marker}), then {@code schemaVersion} and {@code kind}, then
 * the result's own members. Readers of these documents ignore {@code generator}.
 */
public final class JsonDocument {

    private static final Pattern KIND = Pattern.compile("[a-z][a-z0-9-]*");

    private JsonDocument() {
    }

    /** A result that carries its own {@code schemaVersion} and {@code kind} (a report, a comparison, a snapshot). */
    public static String write(Object value) {
        return withGenerator(Json.write(value));
    }

    /** A result without them (an alignment, a plan): they are added after the generator. */
    public static String write(String kind, int schemaVersion, Object value) {
        if (!KIND.matcher(kind).matches()) {
            throw new IllegalArgumentException("a kind is lower-case words joined by '-': " + kind);
        }
        return insert(Json.write(value), "\"generator\" : \"" + Marker.GENERATOR + "\",\n  \"schemaVersion\" : " + schemaVersion
                + ",\n  \"kind\" : \"" + kind + "\"");
    }

    /** A document streamed into {@code out} (too large to hold): the generator goes in after its first '{'. */
    public static Writer streaming(Writer out) {
        return new FilterWriter(out) {
            private boolean done;

            @Override
            public void write(int c) throws IOException {
                out.write(c);
                if (!done && c == '{') {
                    done = true;
                    out.write("\n  \"generator\" : \"" + Marker.GENERATOR + "\",");
                }
            }

            @Override
            public void write(char[] buf, int off, int len) throws IOException {
                for (int i = off; i < off + len; i++) {
                    if (!done) {
                        write(buf[i]);
                    } else {
                        out.write(buf, i, off + len - i);
                        return;
                    }
                }
            }

            @Override
            public void write(String s, int off, int len) throws IOException {
                write(s.toCharArray(), off, len);
            }
        };
    }

    /** The document with the generator first (unchanged when it is there already). */
    static String withGenerator(String json) {
        if (Marker.in(json.substring(0, Math.min(json.length(), 4096)).getBytes(StandardCharsets.UTF_8))) {
            return json;
        }
        return insert(json, "\"generator\" : \"" + Marker.GENERATOR + "\"");
    }

    private static String insert(String json, String members) {
        int open = json.indexOf('{');
        if (open < 0 || !json.substring(0, open).isBlank()) {
            throw new IllegalArgumentException("a JSON document of this tool is an object");
        }
        String rest = json.substring(open + 1);
        if (rest.stripLeading().startsWith("}")) {
            return json.substring(0, open) + "{\n  " + members + "\n" + rest.stripLeading();
        }
        return json.substring(0, open) + "{\n  " + members + "," + rest;
    }
}
