package io.nccldoctor.gdr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A perftest client pasted up to its CUDA device lines and no further (linux-rdma/perftest#280, corpus/perftest/README.md):
 * the command line, perftest's warning and the GPU it picked are read, and the run is said to stop before its
 * measurement; the error-only paste of perftest#346 stays an error.
 */
class PerftestCutBeforeHeaderTest {

    private static final Path CUT = Path.of("../corpus/perftest/perftest-write-bw-cuda-dmabuf-client-cut-after-gpu-lines.txt");

    private static PerftestOutput parse(Path file) throws IOException {
        return PerftestOutput.parse(Files.readAllLines(file), file.getFileName().toString());
    }

    @Test
    void theCommandLineAndTheCudaLinesAreReadAndNoResultIsSaid() throws IOException {
        PerftestOutput p = parse(CUT);
        assertThat(p.commandLine()).containsEntry("program", "ib_write_bw").containsEntry("ib-dev", "mlx5_1").containsEntry("gid-index", "7")
                .containsEntry("use_cuda", "1").containsEntry("use_cuda_dmabuf", "on").containsEntry("server address", "172.16.126.66")
                .containsEntry("all", "on").containsEntry("CPU-freq", "on");
        assertThat(p.role().get()).as("an address on the command line makes the client").isEqualTo("client");
        assertThat(p.gpuPciAddress().get()).as("'Picking device No. 1' of the four listed").isEqualTo("29:00");
        assertThat(p.warnings()).singleElement().asString().startsWith("Perftest doesn't supports CUDA tests with inline messages");
        assertThat(p.notUnderstood()).isEmpty();
        assertThat(p.errors()).isEmpty();
        assertThat(p.rows()).isEmpty();
        assertThat(p.outcome()).startsWith("no result: the text ends before perftest's header block and result table")
                .contains("device name = [NVIDIA H100").contains("does not reach its measurement");
    }

    @Test
    void aNameTheTextEndsInsideAndARegistrationNotReachedAreNotGuessed() throws IOException {
        PerftestOutput p = parse(CUT);
        assertThat(p.gpu().isValue()).isFalse();
        assertThat(p.gpu().reason()).contains("ends inside perftest's device name line").contains("'NVIDIA H100' is the name or only its start");
        assertThat(p.gpuMemoryRegistration().isValue()).as("not 'peer memory': the allocation is not in the text").isFalse();
        assertThat(p.gpuMemoryRegistration().reason()).contains("before perftest allocates the GPU buffer")
                .contains("the command line asks for a DMA-BUF");
    }

    @Test
    void theErrorOnlyPasteIsStillAnErrorWithPeerMemory() throws IOException {
        PerftestOutput p = parse(Path.of("src/test/resources/fixtures/public/perftest-write-bw-cuda-dmabuf-mr-fail.txt"));
        assertThat(p.errors()).hasSize(4).first().asString().startsWith("Couldn't allocate MR with error=14 (EFAULT");
        assertThat(p.outcome()).isEqualTo("no result: perftest printed an error");
        assertThat(p.gpuMemoryRegistration().get()).as("the allocation line is in the text, no 'using DMA-BUF' line").isEqualTo("peer memory");
        assertThat(p.commandLine()).isEmpty();
    }

    @Test
    void aCommandLineAloneIsStillNoPerftestOutput() throws IOException {
        List<String> first = Files.readAllLines(CUT).subList(0, 1);
        assertThatThrownBy(() -> PerftestOutput.parse(first, "cmd.txt")).isInstanceOf(InputException.class)
                .hasMessageContaining("only the command line ib_write_bw");
    }
}
