package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process that initialises several GPUs (nccl-tests -g 2, ncclCommInitAll) prints one topology dump per thread, and
 * their lines interleave: each is assembled by its thread, not merged into one per process. The dump is the real one of
 * NVIDIA/nccl#1053 (reports' judgement fixtures); its copy for a second thread of the same process (tid and device
 * changed) and the line-by-line interleaving are synthetic, no such public log having been found.
 */
class ThreadDumpsTest {

    private static final Path DUMP = Path.of("../reports/src/test/resources/fixtures/judgement/nccl-log-socket-lo-system-dump-nccl1053.txt");

    @Test
    void twoThreadsOfOneProcessInterleavingTheirDumpsGiveTwoDumps(@TempDir Path dir) throws IOException {
        List<String> dump = Files.readAllLines(DUMP).stream().filter(l -> l.matches(".*NCCL INFO (=== System|CPU/|\\s*\\+ |=====).*")).toList();
        assertThat(dump).hasSize(9);
        StringBuilder text = new StringBuilder();
        for (String line : dump) {
            text.append(line).append('\n').append(line.replace("axa:3048391:3048566 [0]", "axa:3048391:3048567 [1]")).append('\n');
        }
        Path file = dir.resolve("two-threads.log");
        Files.writeString(file, text);
        List<NcclLog> reads = new ArrayList<>(List.of(NcclLog.parse(file)));
        reads.add(NcclLog.parse(new BufferedReader(new StringReader(text.toString())), "two-threads.log"));
        for (NcclLog log : reads) {
            assertThat(log.systemDumps()).as("one dump per thread").isEqualTo(2);
            assertThat(log.systems()).as("alike, so one distinct dump").hasSize(1);
            NcclLog.SystemDump d = log.systems().get(0);
            assertThat(List.of(d.cpus(), d.gpus(), d.nics(), d.nvlinks())).containsExactly(1, 1, 1, 1);
            assertThat(d.pciLinks()).isEqualTo(Map.of("5000.0", 1, "24.0", 3));
            assertThat(d.complete()).isTrue();
        }
    }
}
