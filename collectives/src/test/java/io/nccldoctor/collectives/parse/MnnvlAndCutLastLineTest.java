package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * GB200's multi-node NVLink fabric lines (src/init.cc "MNNVL busId 0x%lx fabric UUID %lx.%lx cliqueId 0x%x state %d
 * healthMask 0x%x"), a paste's last line cut mid-word, and a line a paste wrapped in Markdown bold, on the real pastes of
 * corpus/nccl-log (README.md names each), by the block scanner and the line reader alike.
 */
class MnnvlAndCutLastLineTest {

    /** NVIDIA/nccl#1769: four GB200 GPUs of one host, each registered with the fabric (state 3), clique 0x7ffe. */
    @Test
    void eachGpusFabricLineIsRead() throws IOException {
        NcclLog log = CorpusLogs.read("nccl-log-gb200-mnnvl-fabric-4-gpus-state-3-nccl1769.txt");
        assertThat(log.mnnvl().lines()).isEqualTo(4);
        assertThat(log.mnnvl().gpus()).extracting(NcclLog.MnnvlGpu::busId).containsExactly("0x901000", "0x1801000", "0x1901000", "0x801000");
        assertThat(log.mnnvl().gpus()).allSatisfy(g -> {
            assertThat(g.cliqueId()).isEqualTo("0x7ffe");
            assertThat(g.state()).isEqualTo(3);
            assertThat(g.stateName()).isEqualTo("completed");
            assertThat(g.healthMask()).isEqualTo("0xaa");
            assertThat(g.fabricUuid()).isEqualTo("3143b15bc2cd192b.28cc9b5473fb5b93");
        });
        assertThat(log.unknownMessages()).isZero();
        assertThat(log.processes()).hasSize(4);
    }

    /** NVIDIA/nccl-tests#166: the last line ends "via SHM/direct/d", the start of the other seven "SHM/direct/direct". */
    @Test
    void aCutChannelLineIsNotATransport() throws IOException {
        NcclLog log = CorpusLogs.read("nccl-log-socket-16-ranks-two-hosts-named-ubuntu-last-line-cut-ncclt166.txt");
        assertThat(log.transports()).containsOnlyKeys("NET/Socket/0", "SHM/direct/direct");
        assertThat(log.transports()).containsEntry("SHM/direct/direct", 7L);
        assertThat(log.cutLastLine()).isEqualTo("the last line is cut: 'ubuntu:39964:40046 [2] NCCL INFO Channel 08 : 2[2] -> 3[3] via "
                + "SHM/direct/d' ('via SHM/direct/d' is the start of 'SHM/direct/direct': not counted as a channel)");
    }

    /** NVIDIA/nccl#857: the last line ends "No plugin found (libncc", the start of another process's whole line. */
    @Test
    void aCutNetworkLineIsNotKept() throws IOException {
        NcclLog log = CorpusLogs.read("nccl-log-2.10.3-no-libibverbs-socket-fallback-last-line-cut-nccl857.txt");
        assertThat(log.networks()).contains("NET/Plugin : No plugin found (libnccl-net.so), using internal implementation")
                .doesNotContain("NET/Plugin : No plugin found (libncc");
        assertThat(log.cutLastLine()).startsWith("the last line is cut: 'ai:480853:480853 [3] NCCL INFO NET/Plugin : No plugin found (libncc'");
    }

    /** NVIDIA/nccl#333: "NET/Plugin : **No plugin found (libnccl-net.so)**." is the other process's line, in bold. */
    @Test
    void aLineInMarkdownBoldIsReadOnce() throws IOException {
        NcclLog log = CorpusLogs.read("nccl-log-2.5.6-opa-hfi1-markdown-bold-plugin-line-nccl333.txt");
        assertThat(log.networks()).filteredOn(n -> n.contains("No plugin found")).containsExactly("NET/Plugin : No plugin found (libnccl-net.so).");
        assertThat(log.cutLastLine()).as("its last line, a whole channel line, is not cut").isEmpty();
    }
}
