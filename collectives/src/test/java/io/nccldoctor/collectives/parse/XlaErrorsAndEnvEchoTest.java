package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * XLA's status for a failed NCCL call ("…/nccl_utils.cc:305: NCCL operation ncclCommInitRank(…) failed: …. Last NCCL
 * warning(error) log entry (may be unrelated) '…'.", ToStatus in xla/service/gpu/runtime/nccl_api.cc) and net_ib.cc's
 * "NCCL_IB_HCA set to mlx5", read from the real pastes in corpus/nccl-log (README.md names each source).
 */
class XlaErrorsAndEnvEchoTest {

    private static final String JAX = "nccl-log-jax-xla-comminitrank-system-error-last-warning-jax22747.txt";

    /** jax-ml/jax#22747: the chains of three threads, then XLA's line with the call, the result and NCCL's last warning. */
    @Test
    void xlasLineNamesTheCallTheResultAndTheLastWarning() throws IOException {
        NcclLog log = CorpusLogs.read(JAX);
        assertThat(log.errors().failedChains()).isEqualTo(3);
        assertThat(log.torchErrors().errors()).singleElement().satisfies(e -> {
            assertThat(e.framework()).isEqualTo("XLA");
            assertThat(e.call()).isEqualTo("ncclCommInitRank(&comm, nranks, id, rank)");
            assertThat(e.where()).isEqualTo("external/xla/xla/service/gpu/nccl_utils.cc:305");
            assertThat(e.code()).as("ncclSystemError by NCCL's own text").isEqualTo(2);
            assertThat(e.result()).isEqualTo("unhandled system error (run with NCCL_DEBUG=INFO for details)");
            assertThat(e.version()).as("XLA prints no NCCL version").isEmpty();
            assertThat(e.lastError()).isEqualTo("socketTryAccept: Accept failed: Bad file descriptor");
        });
    }

    /** The same file read as two ranges cut at each line start: the one-line error is read once, by the range that holds it. */
    @Test
    void theErrorIsReadOnceWhereverARangeStarts() throws IOException, InterruptedException {
        Path file = CorpusLogs.CORPUS.resolve(JAX);
        byte[] bytes = Files.readAllBytes(file);
        for (int at = 1; at < bytes.length; at++) {
            if (bytes[at - 1] == '\n') {
                NcclLog log = LogReader.read(file, new long[] {at}, 512).finish(file.toString());
                assertThat(log.torchErrors().count()).as("cut at byte " + at).isEqualTo(1);
                assertThat(log.torchErrors().errors().get(0).lastError()).as("cut at byte " + at)
                        .isEqualTo("socketTryAccept: Accept failed: Bad file descriptor");
            }
        }
    }

    /** NVIDIA-NeMo/Automodel#3032: "NCCL_IB_HCA set to mlx5" is read with the variables NCCL's parameter loader echoes. */
    @Test
    void ibHcaEchoWithoutByEnvironmentIsAnEnvironmentSetting() throws IOException {
        NcclLog log = CorpusLogs.read("nccl-log-2.29.7-prefixed-version-ib-hca-set-to-automodel3032.txt");
        assertThat(log.init().environment()).containsEntry("NCCL_IB_HCA", List.of("mlx5"))
                .containsEntry("NCCL_SOCKET_IFNAME", List.of("eth0")).containsEntry("NCCL_IB_DISABLE", List.of("0"));
        assertThat(log.versions()).containsExactly("2.29.7");
    }
}
