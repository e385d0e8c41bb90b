package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The dump link reader on bytes (its word-at-a-time shortcuts for NCCL's own lines, and its byte-by-byte reading of the
 * rest) against the reader on strings, on random lines placed at every offset within a block's words: the same lines
 * accepted, with the same link and node codes and the same keys for the bandwidth and the node id.
 */
class DumpLinkBytesTest {

    /** A block holding {@code text}, its words as the block scanner gets them (zero past the end). */
    static ByteWords block(byte[] text) {
        ByteWords b = new ByteWords() {
        };
        b.buf = ByteBuffer.wrap(text).order(ByteOrder.LITTLE_ENDIAN);
        b.len = text.length;
        b.words = new long[(text.length + 7) / 8 + 3];
        for (int i = 0; i < text.length; i++) {
            b.words[i >>> 3] |= (text[i] & 0xFFL) << ((i & 7) << 3);
        }
        return b;
    }

    @Test
    void bytesAndStringsReadTheSameLinks() {
        String[] pieces = {"+ ", " ", "\t", "PCI", "NVL", "NET", "C2C", "SYS", "PCIe", "NV", "XGMI", "[", "48.0", "0.2", "5000.0", "370.8", "12345678.5",
            "]", "] - ", " - ", "-", "GPU", "NIC", "NVS", "CPU", "PCI", "/", "0-68000", "0-1", "1000c0101000a000", " (8)", "x", "é", "_", ".",
            "\u0001", "\r"};
        Random random = new Random(17);
        int accepted = 0;
        DumpLinkBytes d = new DumpLinkBytes();
        for (int round = 0; round < 100_000; round++) {
            StringBuilder s = new StringBuilder();
            String[] shape = {"+ ", "PCI", "[", "48.0", "]", " - ", "GPU", "/", "0-68000", " (8)"};
            for (String part : shape) {
                s.append(random.nextInt(5) == 0 ? pieces[random.nextInt(pieces.length)] : part);
            }
            String message = s.toString();
            int lead = random.nextInt(16);
            boolean newline = random.nextBoolean();
            byte[] msgBytes = message.getBytes(StandardCharsets.UTF_8);
            byte[] text = new byte[lead + msgBytes.length + (newline ? 1 + random.nextInt(12) : 0)];
            Arrays.fill(text, (byte) 'z');
            System.arraycopy(msgBytes, 0, text, lead, msgBytes.length);
            if (newline) {
                text[lead + msgBytes.length] = '\n';
            }
            ByteWords b = block(text);
            String view = new String(msgBytes, StandardCharsets.ISO_8859_1); // the block path's strings are Latin-1 views
            SystemDumps.Line l = SystemDumps.link(view);
            boolean read = d.read(b, lead, lead + msgBytes.length);
            if (l == null || message.startsWith(" ") || message.startsWith("\t")) {
                if (!message.startsWith(" ") && !message.startsWith("\t")) {
                    assertThat(read).as("[%s]", message).isFalse();
                }
                continue;
            }
            accepted++;
            assertThat(read).as("[%s]", message).isTrue();
            assertThat(new long[] {d.link, d.typeKey, d.node, d.bw, d.id}).as("[%s]", message)
                    .containsExactly(l.link(), l.typeKey(), l.node(), l.bw(), l.id());
            assertThat(ByteWords.line(b.buf, d.bwFrom, d.bwTo)).isEqualTo(l.b());
        }
        assertThat(accepted).as("enough links to mean something").isGreaterThan(10_000);
    }

    /**
     * A text read again (at another offset in another block, after other texts that share its slot or not) gives what a
     * reader that never saw it gives, positions included: the remembered texts are the only shortcut.
     */
    @Test
    void aTextReadAgainGivesWhatReadingItGives() {
        String[] texts = {"+ PCI[48.0] - GPU/0-18000 (0)", "+ NVL[370.8] - NVS/0-0", "+ XGMI[64.0] - GPU/0-2a000 (1)",
            "+ NET[50.0] - NET/0-0 (0/a87cb10003e1a258/1/50.000000)", "+ PCI[0.2] - PCI/0-1000", "+ PCI[48.0] - GPU/0-18000 (1)",
            "+ SYS[16.0] - CPU/0-1", "+ PCI[48.0] - GPU/0-18000", "+ C2C[40.0] - CPU/0-0 " + "x".repeat(40), "+ LOC[5000.0] - GPU/0-18000"};
        Random random = new Random(3);
        DumpLinkBytes remembering = new DumpLinkBytes();
        int hits = 0;
        for (int round = 0; round < 5_000; round++) {
            String message = texts[random.nextInt(texts.length)];
            int lead = random.nextInt(24);
            byte[] text = (" ".repeat(lead) + message + "\n" + "y".repeat(random.nextInt(9))).getBytes(StandardCharsets.ISO_8859_1);
            ByteWords b = block(text);
            DumpLinkBytes fresh = new DumpLinkBytes();
            assertThat(fresh.read(b, lead, lead + message.length())).as(message).isTrue();
            assertThat(remembering.read(b, lead, lead + message.length())).as(message).isTrue();
            assertThat(new long[] {remembering.link, remembering.typeKey, remembering.node, remembering.bw, remembering.id,
                remembering.bwFrom, remembering.bwTo, remembering.typeFrom, remembering.typeTo}).as("[%s] at %d", message, lead)
                    .containsExactly(fresh.link, fresh.typeKey, fresh.node, fresh.bw, fresh.id, fresh.bwFrom, fresh.bwTo, fresh.typeFrom,
                            fresh.typeTo);
            hits += round >= texts.length ? 1 : 0;
        }
        assertThat(hits).isPositive();
    }
}
