package io.nccldoctor.gdr;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Published perftest outputs the reader once cut or dropped: every WARNING line, the side, DMA-BUF against peer memory,
 * the GPU's PCI address, latency rows (fixtures/public/README.md states each source and the values asserted here).
 */
class PerftestFieldTest {

    private static PerftestOutput parse(String file) throws IOException {
        return PerftestOutput.parse(Files.readAllLines(Path.of("src/test/resources/fixtures/public", file)), file);
    }

    /** The header was read as a key → value map, so the second "WARNING:" line replaced the first. */
    @Test
    void everyWarningLineIsKeptInOrder() throws IOException {
        PerftestOutput p = parse("perftest-write-bw-cuda-t4-pcie-ro-warning-server.txt");
        assertThat(p.warnings()).containsExactly("WARNING: CPU is not PCIe relaxed ordering compliant.",
                "WARNING: You should disable PCIe RO with `--disable_pcie_relaxed` for both server and client.");
        assertThat(p.header()).doesNotContainKey("WARNING").containsEntry("PCIe relax order", "ON");
        assertThat(p.role().get()).isEqualTo("server");
        assertThat(p.gpu().get()).isEqualTo("Tesla T4");
        assertThat(p.gpuPciAddress().get()).isEqualTo("82:00");
        assertThat(p.gpuMemoryRegistration().get()).isEqualTo("peer memory");
        assertThat(p.notUnderstood()).isEmpty();
    }

    @Test
    void dmaBufRegistrationIsToldApartFromPeerMemory() throws IOException {
        PerftestOutput h200 = parse("perftest-write-bw-cuda-dmabuf-h200-sweep-client.txt");
        assertThat(h200.gpuMemoryRegistration().get()).isEqualTo("dma-buf");
        assertThat(h200.gpu().get()).isEqualTo("NVIDIA H200");
        assertThat(h200.gpuPciAddress().get()).isEqualTo("8F:00");
        assertThat(h200.role().get()).isEqualTo("client");
        assertThat(h200.unit()).isEqualTo("Gb/sec");
        assertThat(h200.rows()).hasSize(23);
        assertThat(h200.rows().get(0).peak()).as("6 decimals below 0.1 Gb/s (REPORT_FMT_EXT)").isEqualTo(0.057240);
        assertThat(h200.rows().get(22).average()).isEqualTo(140.40);
        assertThat(h200.warnings()).containsExactly("Perftest doesn't supports CUDA tests with inline messages: inline size set to 0");
        assertThat(h200.notUnderstood()).isEmpty();
        // its command line had --use_cuda_dmabuf, yet perftest printed no "using DMA-BUF" line: the buffer went through peer memory
        PerftestOutput a40 = parse("perftest-write-bw-cuda-dmabuf-mtu-warning-client.txt");
        assertThat(a40.gpuMemoryRegistration().get()).isEqualTo("peer memory");
        assertThat(a40.gpuPciAddress().get()).isEqualTo("E1:00");
        assertThat(a40.warnings()).containsExactly("WARNING: BW peak won't be measured in this run.",
                "Perftest doesn't supports CUDA tests with inline messages: inline size set to 0", "Requested mtu is higher than active mtu",
                "Changing to active mtu - 3");
    }

    @Test
    void hostMemoryHasNoGpuFacts() throws IOException {
        PerftestOutput p = parse("perftest-write-bw-ib-sweep-gbits-client.txt");
        assertThat(p.gpuMemoryRegistration().reason()).startsWith("host (no GPU memory line");
        assertThat(p.gpuPciAddress().isAbsent()).isTrue();
        assertThat(p.role().get()).isEqualTo("client");
    }

    /** ib_write_lat -a printed its header, then 23 rows that used to be dropped. */
    @Test
    void latencySweepRowsAreRead() throws IOException {
        PerftestOutput p = parse("perftest-write-lat-mlx4-ib-sweep-client.txt");
        assertThat(p.test().get()).isEqualTo("RDMA_Write Latency Test");
        assertThat(p.rows()).isEmpty();
        assertThat(p.latencyRows()).hasSize(23);
        PerftestOutput.LatencyRow first = p.latencyRows().get(0);
        assertThat(first.bytes()).isEqualTo(2);
        assertThat(first.iterations()).isEqualTo(20000);
        assertThat(first.minUs().get()).isEqualTo(0.88);
        assertThat(first.maxUs().get()).isEqualTo(6.84);
        assertThat(first.typicalUs().get()).isEqualTo(0.98);
        assertThat(first.avgUs().get()).isEqualTo(1.03);
        assertThat(first.stdevUs().get()).isEqualTo(0.20);
        assertThat(first.p99Us().get()).isEqualTo(1.21);
        assertThat(first.p999Us().get()).isEqualTo(5.42);
        PerftestOutput.LatencyRow last = p.latencyRows().get(22);
        assertThat(last.bytes()).isEqualTo(8388608);
        assertThat(last.avgUs().get()).isEqualTo(2304.98);
        assertThat(last.p999Us().get()).isEqualTo(2335.48);
        assertThat(last.transactionsPerSecond().isAbsent()).isTrue();
        assertThat(p.columns()).hasSize(9).contains("99.9% percentile[usec]");
        assertThat(p.role().get()).isEqualTo("client");
        assertThat(p.header()).containsEntry("Device", "mlx4_0").containsEntry("Link type", "IB").containsEntry("Max inline data", "220[B]");
        assertThat(p.notUnderstood()).isEmpty();
    }

    @Test
    void cpuFrequencyNotesBetweenTheLatencyHeaderAndItsRow() throws IOException {
        PerftestOutput p = parse("perftest-read-lat-roce-k8s-cpufreq-client.txt");
        assertThat(p.latencyRows()).singleElement().satisfies(r -> {
            assertThat(r.typicalUs().get()).isEqualTo(7.04);
            assertThat(r.p99Us().get()).isEqualTo(7.38);
            assertThat(r.p999Us().get()).isEqualTo(16.81);
        });
        assertThat(p.warnings()).hasSize(2).allMatch(w -> w.startsWith("Conflicting CPU frequency values detected: 2200.000000"));
        assertThat(p.header()).containsEntry("GID index", "12").containsEntry("Outstand reads", "16");
        assertThat(p.notUnderstood()).isEmpty();
    }

    /** The server's row has two cells run together ("2465.901216.65"): 8 cells under 9 columns is refused, not shifted. */
    @Test
    void serverSideLatencyAndARowWithFusedCells() throws IOException {
        PerftestOutput server = parse("perftest-send-lat-rxe-server-fused-columns.txt");
        assertThat(server.role().get()).isEqualTo("server");
        assertThat(server.header()).containsEntry("Device", "rxe0").containsEntry("RX depth", "512").doesNotContainKey("TX depth");
        assertThat(server.latencyRows()).isEmpty();
        assertThat(server.notUnderstood()).singleElement().asString().contains("2465.901216.65").endsWith("(8 cells where the table has 9 columns)");
        PerftestOutput client = parse("perftest-send-lat-rxe-client.txt");
        assertThat(client.role().get()).isEqualTo("client");
        assertThat(client.latencyRows()).singleElement().satisfies(r -> {
            assertThat(r.avgUs().get()).isEqualTo(927.05);
            assertThat(r.stdevUs().get()).isEqualTo(2486.36);
            assertThat(r.p99Us().get()).isEqualTo(1084.09);
        });
    }

    /**
     * The server's and the client's outputs in one text, here the two published rxe blocks one after the other with
     * their one-space indent stripped, as pastes often are: no single side, a warning, the fields still read.
     */
    @Test
    void twoOutputsInOneTextHaveNoSingleSide() throws IOException {
        List<String> text = new ArrayList<>();
        for (String f : List.of("perftest-send-lat-rxe-server-fused-columns.txt", "perftest-send-lat-rxe-client.txt")) {
            Files.readAllLines(Path.of("src/test/resources/fixtures/public", f)).forEach(l -> text.add(l.strip()));
        }
        PerftestOutput p = PerftestOutput.parse(text, "both.txt");
        assertThat(p.role().reason()).startsWith("the text holds 2 perftest outputs");
        assertThat(p.warnings()).singleElement().asString().startsWith("more than one perftest output in this text");
        assertThat(p.header()).containsEntry("RX depth", "512").containsEntry("TX depth", "1").containsEntry("Device", "rxe0");
        assertThat(p.latencyRows()).hasSize(1);
        assertThat(p.notUnderstood()).hasSize(1);
    }

    @Test
    void gpuMemoryWithoutItsNameLineSaysSo() throws IOException {
        PerftestOutput p = parse("perftest-write-bw-cuda-dmabuf-mr-fail.txt");
        assertThat(p.gpuMemoryRegistration().get()).isEqualTo("peer memory");
        assertThat(p.gpu().reason()).contains("device name");
    }
}
