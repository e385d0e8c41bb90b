package io.nccldoctor.gdr;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Real pastes of perftest output from the project corpus (corpus/perftest/README.md cites each). */
class PerftestPasteTest {

    private static List<String> lines(String file) throws IOException {
        return Files.readAllLines(Path.of("../corpus/perftest", file));
    }

    private static PerftestOutput parse(String file) throws IOException {
        return PerftestOutput.parse(lines(file), file);
    }

    /** raw_ethernet_lat prints TX depth on both sides; its command line's --server decides. */
    @Test
    void rawEthernetSideComesFromItsCommandLine() throws IOException {
        PerftestOutput p = parse("perftest-raw-ethernet-lat-server-markdown-collapsed.txt");
        assertThat(p.role().get()).isEqualTo("server");
        assertThat(p.header()).containsEntry("TX depth", "1");
        List<String> all = lines("perftest-raw-ethernet-lat-server-markdown-collapsed.txt");
        List<String> withoutCommand = all.subList(1, all.size());
        PerftestOutput q = PerftestOutput.parse(withoutCommand, "no-command.txt");
        assertThat(q.role().isAbsent()).isTrue();
        assertThat(q.role().reason()).contains("raw_ethernet_send_lat.c:107").contains("--server/--client");
    }

    /** A Markdown paste collapsed perftest's padding: the fields split on perftest's own names. */
    @Test
    void collapsedHeaderSplitsOnFieldNames() throws IOException {
        PerftestOutput p = parse("perftest-raw-ethernet-lat-server-markdown-collapsed.txt");
        assertThat(p.header()).containsEntry("Dual-port", "OFF").containsEntry("Device", "mlx5_1").containsEntry("Number of qps", "1")
                .containsEntry("Transport type", "IB").containsEntry("Connection type", "RawEth").containsEntry("Using SRQ", "OFF")
                .containsEntry("MAC attached", "EC:0D:9A:C1:BA:61");
        assertThat(p.header().keySet()).noneMatch(k -> k.contains("|") || k.contains(":"));
        assertThat(p.header().values()).noneMatch(v -> v.contains(" : "));
        assertThat(p.notUnderstood()).noneMatch(l -> l.endsWith("| EC:0D:9A:65:DC:E5| EC:0D:9A:C1:BA:61|DEFAULT |"));
        assertThat(p.latencyRows()).singleElement().satisfies(r -> assertThat(r.typicalUs().get()).isEqualTo(0.85));
    }

    /** Synthetic: two fields collapsed where the first name is none perftest prints: not read, not glued together. */
    @Test
    void collapsedFieldsWithAnUnknownNameAreNotRead() {
        PerftestOutput p = PerftestOutput.parse(List.of("                    RDMA_Write BW Test", " Odd field : 1 Device : mlx5_0"), "odd.txt");
        assertThat(p.header()).isEmpty();
        assertThat(p.notUnderstood()).singleElement().asString().endsWith("Odd field : 1 Device : mlx5_0");
    }

    @Test
    void parserErrorBeforeAnyHeaderIsPerftests() throws IOException {
        PerftestOutput p = parse("perftest-write-bw-cuda-dmabuf-parser-error-option-order.txt");
        assertThat(p.errors()).singleElement().asString().startsWith("CUDA DMA-BUF cannot be used without CUDA")
                .contains("--use_cuda must come before --use_cuda_dmabuf").contains("Parser function exited with Error");
        assertThat(p.outcome()).startsWith("no result: perftest stopped at its parser error");
        assertThat(p.gpu().reason()).startsWith("none allocated");
        assertThat(p.notUnderstood()).hasSize(2).allMatch(l -> l.endsWith("```"));
    }

    @Test
    void serverThatWaitedHasNoResultAndSaysWhy() throws IOException {
        PerftestOutput p = parse("perftest-write-bw-cuda-server-waiting-interrupted.txt");
        assertThat(p.role().get()).isEqualTo("server");
        assertThat(p.errors()).isEmpty();
        assertThat(p.outcome()).contains("waited for a client").contains("^C");
        assertThat(p.gpu().reason()).startsWith("not yet allocated");
        assertThat(p.warnings()).containsExactly("Perftest doesn't supports CUDA tests with inline messages: inline size set to 0");
    }

    @Test
    void rocmDmaBufMemoryIsTheGpus() throws IOException {
        PerftestOutput p = parse("perftest-write-bw-rocm-dmabuf-mi300x-bnxt-server-cut.txt");
        assertThat(p.gpu().get()).isEqualTo("AMD Instinct MI300X");
        assertThat(p.gpuMemoryRegistration().get()).isEqualTo("dma-buf");
        assertThat(p.gpuPciAddress().reason()).contains("0x9");
        assertThat(p.role().get()).isEqualTo("server"); // both sides' command lines are above it: the banner decides
        assertThat(p.header()).containsEntry("Device", "bnxt_re0").containsEntry("Number of qps", "2");
        assertThat(p.notUnderstood()).hasSize(2);
        assertThat(p.outcome()).startsWith("no result: the text ends");
    }
}
