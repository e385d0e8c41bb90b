package io.nccldoctor.reports.inputs;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.read.Decoded;
import io.nccldoctor.core.read.Inputs;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.zip.GZIPInputStream;

/**
 * One input as its kind is told: the first {@link #HEAD_BYTES} of a file or of standard input, and the rest only when
 * the kind's parser needs it. An NCCL log is streamed by its parser from the file (gigabytes never sit in memory,
 * and only the head is read twice); every other kind is read whole, up to {@link #MAX_TEXT_BYTES}. Bytes that are not
 * UTF-8 (a log cut in the middle of a character, terminal escapes) become U+FFFD instead of failing the read.
 */
public final class InputText {

    /** The name that means standard input. */
    public static final String STDIN = "-";

    /**
     * The bytes the kind is told from: 256 KiB, the same head NCCL's log reader looks at for its line prefix. Every
     * pasted output of the corpus is smaller; a longer one shows its kind in its first lines.
     */
    static final int HEAD_BYTES = 256 << 10;

    /**
     * The most a text other than an NCCL log may hold: 64 MiB. An NCCL topology dump of a 72-GPU rack or an `lspci
     * -vvv` of a full node is well under 1 MiB; a larger input is the wrong file (or /dev/zero).
     */
    static final int MAX_TEXT_BYTES = Inputs.MAX_BYTES;

    private final Path file;
    private final String source;
    private final byte[] head;
    private final boolean whole;
    private final InputStream rest;
    private String text;
    private int replacedBytes;

    private InputText(Path file, String source, byte[] head, boolean whole, InputStream rest) {
        this.file = file;
        this.source = source;
        this.head = head;
        this.whole = whole;
        this.rest = rest;
    }

    /** A file (a .gz file decompressed), or standard input for "-": its head only. */
    public static InputText open(Path file) {
        if (STDIN.equals(file.toString())) {
            InputStream in = nonClosing(System.in);
            byte[] head = readHead(in, "standard input");
            return new InputText(null, "standard input", head, head.length <= HEAD_BYTES, in);
        }
        if (Files.isDirectory(file)) {
            throw new InputException(file + ": is a folder; give a file (a folder is read as NCCL logs by `parse nccl-log`)");
        }
        try (InputStream in = stream(file)) {
            byte[] head = readHead(in, file.toString());
            return new InputText(file, file.toString(), head, head.length <= HEAD_BYTES, null);
        } catch (IOException e) {
            throw unreadable(file.toString(), e);
        }
    }

    /** Text already in memory (a test, a string handed over): whole. */
    public static InputText of(String text, String source) {
        InputText t = new InputText(null, source, text.getBytes(StandardCharsets.UTF_8), true, null);
        t.text = text;
        return t;
    }

    public String source() {
        return source;
    }

    /** The file, or null for standard input and text in memory. */
    Path file() {
        return file;
    }

    /** True when the head is the whole input. */
    boolean whole() {
        return whole;
    }

    /** The head's whole lines: a line the head cuts off is left out unless the input ends there. */
    List<String> headLines() {
        int n = Math.min(head.length, HEAD_BYTES);
        if (!whole) {
            while (n > 0 && head[n - 1] != '\n') {
                n--;
            }
        }
        Decoded d = Inputs.decode(n == head.length ? head : Arrays.copyOf(head, n), source);
        if (whole) { // the head is the text a kind told from it is read from: its count is the input's
            replacedBytes = d.replacedBytes();
        }
        return d.text().lines().toList();
    }

    /** The whole text, at most {@link #MAX_TEXT_BYTES}. */
    String text() {
        if (text != null) {
            return text;
        }
        if (whole) {
            return decoded(head);
        }
        try (InputStream in = file == null ? new SequenceInputStream(new ByteArrayInputStream(head), rest) : stream(file)) {
            byte[] bytes = in.readNBytes(MAX_TEXT_BYTES + 1);
            if (bytes.length > MAX_TEXT_BYTES) {
                throw new InputException(source + ": more than " + (MAX_TEXT_BYTES >> 20) + " MiB; topology files and pasted "
                        + "outputs are far smaller (only an NCCL log may be larger): give the right file, or cut it to the part that matters");
            }
            return decoded(bytes);
        } catch (IOException e) {
            throw unreadable(source, e);
        }
    }

    /** Through the one decoder of every verb ({@link Inputs#decode}): bytes that are not UTF-8 become U+FFFD, counted. */
    private String decoded(byte[] bytes) {
        Decoded d = Inputs.decode(bytes, source);
        replacedBytes = d.replacedBytes();
        text = d.text();
        return text;
    }

    /** "FILE: 3 bytes that are not UTF-8 read as U+FFFD (…)", once the whole text was read and held any. */
    Optional<String> replacedNote() {
        return new Decoded("", source, replacedBytes).note();
    }

    /** The input as an NCCL log, streamed from the file or from standard input (the head, then the rest). */
    NcclLog ncclLog() {
        if (file != null) {
            return NcclLog.parse(file);
        }
        InputStream in = new ByteArrayInputStream(text != null ? text.getBytes(StandardCharsets.UTF_8) : head);
        try {
            return NcclLog.parse(rest == null || text != null ? in : new SequenceInputStream(in, rest), source);
        } catch (IOException e) {
            throw unreadable(source, e);
        }
    }

    private static InputStream stream(Path file) throws IOException {
        InputStream in = Files.newInputStream(file);
        return file.getFileName().toString().endsWith(".gz") ? new GZIPInputStream(in, 64 << 10) : in;
    }

    private static byte[] readHead(InputStream in, String source) {
        try {
            return in.readNBytes(HEAD_BYTES + 1);
        } catch (IOException e) {
            throw unreadable(source, e);
        }
    }

    private static InputException unreadable(String source, IOException e) {
        return new InputException(source + ": cannot read (" + (e instanceof NoSuchFileException ? "no such file" : e.getMessage()) + ")", e);
    }

    /** Standard input stays open for whoever reads after us. */
    private static InputStream nonClosing(InputStream in) {
        return new FilterInputStream(in) {
            @Override
            public void close() {
                // not ours to close
            }
        };
    }
}
