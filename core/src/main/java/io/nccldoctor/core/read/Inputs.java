package io.nccldoctor.core.read;

import io.nccldoctor.core.InputException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The one reader of text inputs, for every verb: a file or standard input ("-"), at most {@link #MAX_BYTES}, decoded as
 * UTF-8 with undecodable bytes replaced and counted ({@link Decoded}). Every problem is an {@link InputException} of one
 * line naming the input. NCCL debug logs, which reach gigabytes, are streamed by their own parser instead.
 */
public final class Inputs {

    /**
     * The most a text input may hold: 64 MiB. An NCCL topology dump of a 72-GPU rack, an `lspci -vvv` of a full node, a
     * 1,000-node cluster's snapshot (about 400 KB) or a sweep of thousands of points are all far smaller; a larger
     * input is the wrong file (or /dev/zero), which would otherwise fill the heap.
     */
    public static final int MAX_BYTES = 64 << 20;

    /** The file name that means standard input. */
    public static final String STDIN = "-";

    private Inputs() {
    }

    /** A positional input: messages start with the file name. */
    public static Decoded text(Path file) {
        return text(file, null);
    }

    /** @param flag the option that named the file ("--lspci-tree"), put before it in messages; null for none */
    public static Decoded text(Path file, String flag) {
        return decode(bytes(file, flag), isStdin(file) ? "standard input" : file.toString());
    }

    /** The bytes of a file or of standard input, at most {@link #MAX_BYTES}. */
    public static byte[] bytes(Path file, String flag) {
        String name = (flag == null ? "" : flag + " ") + (isStdin(file) ? "(standard input)" : file.toString());
        if (isStdin(file)) {
            try {
                return bounded(nonClosing(System.in), name);
            } catch (IOException e) {
                throw new InputException(name + ": cannot read (" + e.getMessage() + ")", e);
            }
        }
        if (Files.isDirectory(file)) {
            throw new InputException(name + ": is a folder; give a file");
        }
        try {
            if (Files.isRegularFile(file) && Files.size(file) > MAX_BYTES) {
                throw tooLarge(name);
            }
            try (InputStream in = Files.newInputStream(file)) {
                return bounded(in, name);
            }
        } catch (NoSuchFileException e) {
            throw new InputException(name + ": cannot read (no such file)", e);
        } catch (AccessDeniedException e) {
            throw new InputException(name + ": cannot read (permission denied)", e);
        } catch (IOException e) {
            throw new InputException(name + ": cannot read (" + e.getMessage() + ")", e);
        }
    }

    /** UTF-8, each malformed sequence one U+FFFD and its bytes counted. */
    public static Decoded decode(byte[] bytes, String source) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length); // UTF-8 never decodes to more chars than bytes
        int replaced = 0;
        while (true) {
            CoderResult r = decoder.decode(in, out, true);
            if (r.isUnderflow()) {
                decoder.flush(out);
                break;
            }
            if (!r.isError()) {
                throw new IllegalStateException("UTF-8 decoding overflowed a buffer of one char per byte: " + r);
            }
            replaced += r.length();
            in.position(in.position() + r.length());
            out.put('\uFFFD');
        }
        out.flip();
        return new Decoded(out.toString(), source, replaced);
    }

    /**
     * The longest line a YAML file of this tool may hold: 64 KiB. The YAML scanner copies its buffer again for every 1,024
     * characters of one token (SnakeYAML's StreamReader), so a 10 MB line costs minutes; the lines of a plan, a bundle or
     * rules are under a few hundred characters.
     */
    public static final int MAX_YAML_LINE = 64 << 10;

    /** A YAML file: as {@link #text(Path)}, and a line longer than {@link #MAX_YAML_LINE} is one line naming it. */
    public static Decoded yaml(Path file) {
        Decoded d = text(file);
        String t = d.text();
        int line = 1;
        for (int start = 0; start < t.length(); line++) {
            int end = t.indexOf('\n', start);
            end = end < 0 ? t.length() : end;
            if (end - start > MAX_YAML_LINE) {
                throw new InputException(d.source() + ":" + line + ": a line of " + (end - start) + " characters; a YAML file of this "
                        + "tool has short lines (at most " + (MAX_YAML_LINE >> 10) + " KiB): give the right file, or fix that line");
            }
            start = end + 1;
        }
        return d;
    }

    /** Whether the name means standard input. */
    public static boolean isStdin(Path file) {
        return STDIN.equals(file.toString());
    }

    private static byte[] bounded(InputStream in, String name) throws IOException {
        byte[] bytes = in.readNBytes(MAX_BYTES + 1);
        if (bytes.length > MAX_BYTES) {
            throw tooLarge(name);
        }
        return bytes;
    }

    private static InputException tooLarge(String name) {
        return new InputException(name + ": more than " + (MAX_BYTES >> 20) + " MiB; the outputs and files this tool reads are "
                + "far smaller (only an NCCL log may be larger, and `parse nccl-log` streams it): give the right file, or cut it "
                + "to the part that matters");
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
