package io.nccldoctor.core.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One damage done to a real input, as tickets, editors, cut transfers and hostile files do it. SYNTHETIC by design:
 * the mutated bytes exist only for the robustness properties; the inputs they start from are the real fixtures.
 *
 * @param kind  what is done
 * @param where where in the input (0 ≤ where < 1 of its length, lines or matches)
 * @param pick  which variant (a replacement value, a byte, a count)
 */
public record Mutation(Kind kind, double where, int pick) {

    public enum Kind {
        TRUNCATE, FLIP_BYTE, DUPLICATE_LINE, REMOVE_LINE, NUMBER, NUL, INVALID_UTF8, CRLF, LONG_LINE, DEEP_NESTING, JSON_TYPE,
        SCHEMA_VERSION
    }

    /** Numbers a parser meets in the wild and in attacks: beyond every range, not finite, signed zero. */
    static final List<String> NUMBERS = List.of("1e999", "-1e999", "NaN", "-0", "99999999999999999999999999", "-9223372036854775809",
            "9223372036854775808", "2147483648", "-2147483649", "-1", "0", "Infinity", "-Infinity", "1.7976931348623157e309", "0x7fffffff",
            "4.9e-325", "1" + "0".repeat(400));
    /** Bytes that are not UTF-8: a lone continuation byte, a cut two-, three- and four-byte sequence, a surrogate, 0xFF. */
    static final List<byte[]> NOT_UTF8 = List.of(new byte[] {(byte) 0xFF}, new byte[] {(byte) 0xC3, 0x28}, new byte[] {(byte) 0xE2, (byte) 0x82},
            new byte[] {(byte) 0xF0, (byte) 0x9F, (byte) 0x98}, new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, new byte[] {(byte) 0x80},
            new byte[] {(byte) 0xC0, (byte) 0xAF}, new byte[] {(byte) 0xFE, (byte) 0xFF});
    /** The ten megabytes of one line: a real line repeated, the way a log without newlines or a minified dump arrives. */
    static final int LONG_LINE_BYTES = 10 << 20;
    private static final Pattern NUMBER = Pattern.compile("-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?");
    private static final Pattern VERSION = Pattern.compile("\"(schemaVersion|formatVersion)\"\\s*:\\s*[^,}\\s]+");
    private static final List<String> VERSIONS = List.of("99999999999999999999", "2147483648", "-1", "1e999", "\"1\"", "null", "1.5",
            "-2147483649", "{}");
    private static final Pattern TAG = Pattern.compile("<[A-Za-z]");
    private static final ObjectMapper PLAIN = new ObjectMapper();

    public byte[] apply(byte[] in) {
        String s = new String(in, StandardCharsets.ISO_8859_1); // one char per byte: every byte survives the edit
        return switch (kind) {
            case TRUNCATE -> latin1(s.substring(0, at(s.length())));
            case FLIP_BYTE -> flip(in);
            case DUPLICATE_LINE, REMOVE_LINE -> lines(s);
            case NUMBER -> latin1(replaceNth(s, NUMBER, NUMBERS.get(pick % NUMBERS.size())));
            case NUL -> insert(in, at(in.length), new byte[1 + pick % 8]);
            case INVALID_UTF8 -> insert(in, at(in.length), NOT_UTF8.get(pick % NOT_UTF8.size()));
            case CRLF -> latin1(pick % 3 == 0 ? s.replace("\n", "\r") : s.replace("\n", "\r\n"));
            case LONG_LINE -> longLine(s);
            case DEEP_NESTING -> latin1(deep(s));
            case JSON_TYPE -> jsonType(in);
            case SCHEMA_VERSION -> latin1(replaceNth(s, VERSION, null));
        };
    }

    /** The mutations applied in order. */
    public static byte[] applyAll(byte[] in, List<Mutation> ms) {
        byte[] out = in;
        for (Mutation m : ms) {
            out = m.apply(out);
        }
        return out;
    }

    private int at(int length) {
        return Math.min(length, (int) (where * (length + 1)));
    }

    private byte[] flip(byte[] in) {
        if (in.length == 0) {
            return new byte[] {(byte) pick};
        }
        byte[] out = in.clone();
        int i = Math.min(in.length - 1, at(in.length));
        out[i] ^= (byte) (1 + pick % 255);
        return out;
    }

    private byte[] lines(String s) {
        List<String> lines = new ArrayList<>(List.of(s.split("\n", -1)));
        int i = Math.min(lines.size() - 1, at(lines.size()));
        if (kind == Kind.REMOVE_LINE) {
            lines.remove(i);
        } else {
            for (int k = 0; k <= pick % 3; k++) {
                lines.add(i, lines.get(i));
            }
        }
        return latin1(String.join("\n", lines));
    }

    private String replaceNth(String s, Pattern p, String with) {
        List<int[]> found = new ArrayList<>();
        Matcher m = p.matcher(s);
        while (m.find()) {
            found.add(new int[] {m.start(), m.end()});
        }
        if (found.isEmpty()) {
            return s;
        }
        int[] hit = found.get(Math.min(found.size() - 1, at(found.size())));
        String replacement = with;
        if (with == null) { // a version field: keep its name, change its value
            String field = s.substring(hit[0], hit[1]);
            replacement = field.substring(0, field.indexOf(':') + 1) + " " + VERSIONS.get(pick % VERSIONS.size());
        }
        return s.substring(0, hit[0]) + replacement + s.substring(hit[1]);
    }

    private byte[] longLine(String s) {
        String[] lines = s.split("\n", -1);
        String unit = lines.length == 0 || lines[Math.min(lines.length - 1, pick % lines.length)].isEmpty() ? "x"
                : lines[Math.min(lines.length - 1, pick % lines.length)].replace("\r", "");
        StringBuilder line = new StringBuilder(LONG_LINE_BYTES + unit.length());
        while (line.length() < LONG_LINE_BYTES) {
            line.append(unit).append(' ');
        }
        int cut = s.lastIndexOf('\n', Math.max(0, at(s.length()) - 1)) + 1;
        return latin1(s.substring(0, cut) + line + "\n" + s.substring(cut));
    }

    /** 900 (under Jackson's 1,000) to 5,000 levels: around a number in JSON, as elements in XML, brackets elsewhere. */
    private String deep(String s) {
        int depth = List.of(900, 1001, 2000, 5000).get(pick % 4);
        String head = s.stripLeading();
        if (head.startsWith("{") || head.startsWith("[")) {
            List<int[]> numbers = new ArrayList<>();
            Matcher m = NUMBER.matcher(s);
            while (m.find()) {
                numbers.add(new int[] {m.start(), m.end()});
            }
            if (numbers.isEmpty()) {
                return "[".repeat(depth) + s + "]".repeat(depth);
            }
            int[] n = numbers.get(Math.min(numbers.size() - 1, at(numbers.size())));
            return s.substring(0, n[0]) + "[".repeat(depth) + s.substring(n[0], n[1]) + "]".repeat(depth) + s.substring(n[1]);
        }
        List<Integer> tags = new ArrayList<>();
        Matcher m = TAG.matcher(s);
        while (m.find()) {
            tags.add(m.start());
        }
        if (!tags.isEmpty()) {
            int t = tags.get(Math.min(tags.size() - 1, at(tags.size())));
            String open = "<pci busid=\"0000:00:00.0\" class=\"0x060400\">";
            return s.substring(0, t) + open.repeat(depth) + "</pci>".repeat(depth) + s.substring(t);
        }
        int cut = s.lastIndexOf('\n', Math.max(0, at(s.length()) - 1)) + 1;
        return s.substring(0, cut) + "(".repeat(depth) + "[".repeat(depth) + "\n" + s.substring(cut);
    }

    /** A value of the document replaced by one of another JSON type; text that is no JSON gets a byte flipped instead. */
    private byte[] jsonType(byte[] in) {
        JsonNode root;
        try {
            root = PLAIN.readTree(in);
        } catch (IOException e) {
            return flip(in);
        }
        if (root == null || !root.isContainerNode()) {
            return flip(in);
        }
        List<JsonNode> parents = new ArrayList<>();
        collect(root, parents);
        if (parents.isEmpty()) { // "{}" or "[]": no value to replace
            return flip(in);
        }
        JsonNode parent = parents.get(Math.min(parents.size() - 1, at(parents.size())));
        JsonNode with = replacement();
        if (parent instanceof ObjectNode o && o.size() > 0) {
            List<String> names = new ArrayList<>();
            o.fieldNames().forEachRemaining(names::add);
            o.set(names.get(pick % names.size()), with);
        } else if (parent instanceof ArrayNode a && a.size() > 0) {
            a.set(pick % a.size(), with);
        } else {
            return flip(in);
        }
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            PLAIN.writerWithDefaultPrettyPrinter().writeValue(out, root);
            return out.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private JsonNode replacement() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        return switch ((pick / 7) % 9) {
            case 0 -> f.textNode("x16");
            case 1 -> f.objectNode();
            case 2 -> f.arrayNode();
            case 3 -> f.nullNode();
            case 4 -> f.numberNode(new BigDecimal("1e999"));
            case 5 -> f.numberNode(new BigInteger("1" + "0".repeat(30)));
            case 6 -> f.numberNode(-1);
            case 7 -> f.textNode("");
            default -> f.booleanNode(true);
        };
    }

    private static void collect(JsonNode n, List<JsonNode> out) {
        if (n.isContainerNode() && n.size() > 0) {
            out.add(n);
            n.elements().forEachRemaining(c -> collect(c, out));
        }
    }

    private static byte[] insert(byte[] in, int at, byte[] what) {
        byte[] out = new byte[in.length + what.length];
        System.arraycopy(in, 0, out, 0, at);
        System.arraycopy(what, 0, out, at, what.length);
        System.arraycopy(in, at, out, at + what.length, in.length - at);
        return out;
    }

    private static byte[] latin1(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }
}
