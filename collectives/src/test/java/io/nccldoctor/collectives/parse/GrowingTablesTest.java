package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scanner's two hash tables start small and double as they fill: what was stored before a table grew is found
 * after it, under its own text, and what the scan reads equals what the line reader reads. Synthetic texts: enough
 * distinct ones to make each table grow several times.
 */
class GrowingTablesTest {

    @Test
    void everyTextRememberedBeforeTheMemoGrewIsFoundAfter() {
        int texts = 5000; // past several doublings of 256 slots, below the memo's limit of 49152
        StringBuilder all = new StringBuilder();
        int[] from = new int[texts];
        int[] to = new int[texts];
        for (int k = 0; k < texts; k++) {
            from[k] = all.length();
            all.append("GPU Direct RDMA Enabled for GPU ").append(k).append(" / HCA ").append(k % 8).append(" (distance 5 <= 5)");
            to[k] = all.length();
            all.append('\n');
        }
        ByteWords block = block(all.toString());
        MessageMemo memo = new MessageMemo();
        for (int k = 0; k < texts; k++) {
            assertThat(memo.get(block, from[k], to[k])).as("text %d before it was stored", k).isNull();
            memo.put(block, from[k], to[k], k);
        }
        for (int k = 0; k < texts; k++) {
            assertThat(memo.get(block, from[k], to[k])).as("text %d", k).isEqualTo(k);
        }
    }

    @Test
    void thousandsOfProcessesReadFromBytesAsTheLineReaderReadsThem(@TempDir Path dir) throws IOException {
        StringBuilder log = new StringBuilder();
        for (int round = 0; round < 2; round++) { // the second round finds each prefix in the grown table
            for (int p = 0; p < 3000; p++) {
                int pid = 40000 + p;
                log.append("node").append(p / 8).append(':').append(pid).append(':').append(pid + 93).append(" [").append(p % 8)
                        .append("] NCCL INFO ").append(round == 0 ? "NCCL version 2.27.5+cuda12.9" : "Using network IB").append('\n');
            }
        }
        Path file = dir.resolve("processes.log");
        Files.writeString(file, log);
        NcclLog scanned = NcclLog.parse(file, 1, 1);
        assertThat(scanned.processes()).hasSize(3000);
        assertThat(scanned.processes().get("node374:42999").versions()).containsExactly("2.27.5");
        assertThat(scanned).isEqualTo(NcclLog.parse(new BufferedReader(new StringReader(log.toString())), file.toString()));
    }

    /** A block as the reader gives it to the scanner: its bytes, and the same bytes as little-endian words, two zero words after. */
    private static ByteWords block(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
        ByteWords b = new ByteWords() {
        };
        b.buf = ByteBuffer.wrap(bytes);
        b.len = bytes.length;
        b.words = new long[(bytes.length + 7) / 8 + 2];
        ByteBuffer padded = ByteBuffer.allocate(b.words.length * 8).order(ByteOrder.LITTLE_ENDIAN).put(bytes);
        padded.flip().limit(padded.capacity());
        padded.asLongBuffer().get(b.words);
        return b;
    }
}
