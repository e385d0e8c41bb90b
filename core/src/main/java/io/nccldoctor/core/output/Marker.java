package io.nccldoctor.core.output;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.nccldoctor.core.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32;

/**
 * How a file says that this tool wrote it, so that a later run may replace it and nothing else. The marker sits in the
 * file's first line; where a format must open with a prologue (the XML declaration of .xml and .svg, the doctype of
 * .html), in the first line after it:
 * <ul>
 * <li>{@link Style#HASH} (Prometheus textfile, text, configuration): {@code # nccl-doctor generated this file (…)}</li>
 * <li>{@link Style#MARKUP} (Markdown, HTML, XML, SVG): {@code <!-- nccl-doctor generated this file (…) -->}</li>
 * <li>{@link Style#JSON}: the document's first member is {@code "generator" : "nccl-doctor"}</li>
 * <li>{@link Style#PNG}: the first chunk after the header is {@code tEXt} {@code Software} = {@code nccl-doctor …}</li>
 * </ul>
 * Only these exact forms count: a Markdown heading "# nccl-doctor runbook" or a page that merely mentions the tool is
 * a user's file.
 */
public final class Marker {

    /** The words every text marker starts with: no user's file opens with them. */
    public static final String WORDS = "nccl-doctor generated this file";

    /** The value of the JSON marker member {@code generator}. */
    public static final String GENERATOR = "nccl-doctor";

    /** How much of a file is read to find its marker: the first line is never longer in our own files. */
    static final int HEAD_BYTES = 64 * 1024;

    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    private static final int PNG_IHDR_END = 8 + 4 + 4 + 13 + 4; // signature, then IHDR: length, type, 13 bytes of data, CRC

    /** The comment syntax a format carries the marker in. */
    public enum Style {
        HASH, MARKUP, JSON, PNG
    }

    private Marker() {
    }

    /** The marker line's text: who wrote it, e.g. "report -o" or "tune --verify-plan". */
    static String words(String what) {
        return WORDS + " (" + what + "); its next run replaces it";
    }

    /** {@code doc} with the marker put where {@code style} carries it. */
    public static byte[] add(Style style, byte[] doc, String what) {
        return switch (style) {
            case HASH -> prepend("# " + words(what) + "\n", doc);
            case MARKUP -> afterPrologue("<!-- " + words(what).replace("--", "-") + " -->\n", doc); // XML 1.0 2.5: no "--" in a comment
            case JSON -> JsonDocument.withGenerator(new String(doc, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
            case PNG -> png(doc, what);
        };
    }

    /** Whether {@code file} carries the marker (a file that cannot be read does not). */
    public static boolean in(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return in(in.readNBytes(HEAD_BYTES));
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether the head of a file carries the marker. */
    public static boolean in(byte[] head) {
        if (head.length >= PNG_SIGNATURE.length && Arrays.equals(head, 0, PNG_SIGNATURE.length, PNG_SIGNATURE, 0, PNG_SIGNATURE.length)) {
            return pngMarked(head);
        }
        String text = new String(head, StandardCharsets.UTF_8);
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        if (text.stripLeading().startsWith("{")) {
            return jsonMarked(head);
        }
        String line = firstLineAfterPrologue(text);
        return line.startsWith("# " + WORDS) || line.startsWith("<!-- " + WORDS) || legacy(line);
    }

    /**
     * Files that jobs rewrite, as versions before this marker wrote them: the two that node-level jobs (the Slurm
     * prolog, the Kubernetes daemonset) rewrite every few minutes, a Prometheus textfile opening with one of our own
     * metric families and JUnit XML whose root is our test-suite set; and the tuner configuration and verification plan
     * of {@code tune}, whose first line was the exact title below. Each names this tool in a form no user's file does,
     * so an upgrade does not make the next run refuse its own file.
     */
    private static boolean legacy(String line) {
        return line.startsWith("# HELP nccl_doctor_") || line.startsWith("<testsuites name=\"nccl-doctor\"")
                || line.startsWith("# nccl-doctor tune: rows for NCCL's example tuner plugin") || line.startsWith("# nccl-doctor tune --verify-plan: ");
    }

    /** The first line; when the text opens with an XML declaration or an HTML doctype, the first line after it. */
    static String firstLineAfterPrologue(String text) {
        int end = prologueEnd(text);
        String rest = text.substring(end);
        if (end > 0 && rest.startsWith("\r\n")) {
            rest = rest.substring(2);
        } else if (end > 0 && rest.startsWith("\n")) {
            rest = rest.substring(1);
        }
        int nl = rest.indexOf('\n');
        return (nl < 0 ? rest : rest.substring(0, nl)).stripTrailing();
    }

    /** Where the prologue ends: after "<?xml …?>" or "<!DOCTYPE …>" at the very start, else 0. */
    private static int prologueEnd(String text) {
        if (text.startsWith("<?xml")) {
            int e = text.indexOf("?>");
            return e < 0 ? 0 : e + 2;
        }
        if (text.regionMatches(true, 0, "<!DOCTYPE", 0, 9)) {
            int e = text.indexOf('>');
            return e < 0 ? 0 : e + 1;
        }
        return 0;
    }

    private static byte[] prepend(String line, byte[] doc) {
        byte[] head = line.getBytes(StandardCharsets.UTF_8);
        byte[] out = Arrays.copyOf(head, head.length + doc.length);
        System.arraycopy(doc, 0, out, head.length, doc.length);
        return out;
    }

    private static byte[] afterPrologue(String line, byte[] doc) {
        String text = new String(doc, StandardCharsets.UTF_8);
        int end = prologueEnd(text);
        if (end == 0) {
            return prepend(line, doc);
        }
        int nl = text.indexOf('\n', end);
        boolean ownLine = nl >= 0 && text.substring(end, nl).isBlank();
        String out = ownLine ? text.substring(0, nl + 1) + line + text.substring(nl + 1) : text.substring(0, end) + "\n" + line + text.substring(end);
        return out.getBytes(StandardCharsets.UTF_8);
    }

    private static boolean jsonMarked(byte[] head) {
        try (JsonParser p = Json.mapper().getFactory().createParser(head)) {
            return p.nextToken() == JsonToken.START_OBJECT && p.nextToken() == JsonToken.FIELD_NAME
                    && p.currentName().equals("generator") && p.nextToken() == JsonToken.VALUE_STRING
                    && p.getText().startsWith(GENERATOR);
        } catch (IOException e) { // cut off inside the first member, or not JSON at all
            return false;
        }
    }

    /** A tEXt chunk (PNG 1.2, section 11.3.4.3: keyword, NUL, Latin-1 text) right after IHDR. */
    private static byte[] png(byte[] doc, String what) {
        if (doc.length < PNG_IHDR_END || !Arrays.equals(doc, 0, 8, PNG_SIGNATURE, 0, 8)) {
            throw new IllegalArgumentException("not a PNG image");
        }
        byte[] data = ("Software\0" + words(what)).getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer chunk = ByteBuffer.allocate(12 + data.length);
        chunk.putInt(data.length).put("tEXt".getBytes(StandardCharsets.US_ASCII)).put(data);
        CRC32 crc = new CRC32();
        crc.update(chunk.array(), 4, 4 + data.length); // the CRC covers type and data, not the length
        chunk.putInt((int) crc.getValue());
        ByteArrayOutputStream out = new ByteArrayOutputStream(doc.length + chunk.capacity());
        out.write(doc, 0, PNG_IHDR_END);
        out.write(chunk.array(), 0, chunk.capacity());
        out.write(doc, PNG_IHDR_END, doc.length - PNG_IHDR_END);
        return out.toByteArray();
    }

    private static boolean pngMarked(byte[] head) {
        int at = PNG_IHDR_END;
        if (head.length < at + 8) {
            return false;
        }
        int length = ByteBuffer.wrap(head, at, 4).getInt();
        String type = new String(head, at + 4, 4, StandardCharsets.US_ASCII);
        if (!type.equals("tEXt") || length < 0 || head.length < at + 8 + length) {
            return false;
        }
        String text = new String(head, at + 8, length, StandardCharsets.ISO_8859_1);
        return text.startsWith("Software\0" + WORDS);
    }
}
