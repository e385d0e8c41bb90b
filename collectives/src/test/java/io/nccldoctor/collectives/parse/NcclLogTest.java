package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.collectives.Fixtures;
import io.nccldoctor.core.InputException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real published NCCL and PyTorch logs (fixtures/public/README.md names each source and the facts asserted). */
class NcclLogTest {

    static NcclLog read(String name) throws IOException {
        Path file = Fixtures.publicFixture(name);
        NcclLog streamed = NcclLog.parse(file);
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            NcclLog lines = NcclLog.parse(in, name);
            assertThat(lines).as("block and line parsers agree on " + name).isEqualTo(streamed);
        }
        return streamed;
    }

    @Test
    void twoNodeIbSharpInit() throws IOException {
        NcclLog log = read("nccl-log-h100-2node-2.26.2-ib-sharp-init.txt");
        assertThat(log.versions()).containsExactly("2.26.2");
        assertThat(log.networks()).anyMatch(n -> n.contains("NET/IB : Using [0]mlx5_0:1/IB/SHARP"));
        assertThat(log.networks()).anyMatch(n -> n.contains("Using network NCCL RDMA Plugin v8"));
        assertThat(log.networks()).anyMatch(n -> n.contains("Loaded collnet plugin SHARP"));
        assertThat(log.ibErrors()).isEmpty();
        assertThat(log.lines()).isEqualTo(160);
    }

    @Test
    void rayLogWithGdrdmaAndIpcTransports() throws IOException {
        NcclLog log = read("nccl-log-vllm-ray-2.21.5-ib-gdrdma.txt");
        assertThat(log.versions()).contains("2.21.5");
        assertThat(log.transports()).containsEntry("NET/IB/0/GDRDMA", 4L).containsEntry("P2P/IPC/read", 2L);
        assertThat(log.transports().entrySet().stream().filter(e -> e.getKey().endsWith("/GDRDMA"))
                .mapToLong(Map.Entry::getValue).sum()).isEqualTo(8);
        assertThat(log.communicatorSizes()).isEqualTo(Map.of(2, 1L, 8, 1L));
        assertThat(log.networks()).contains("Using network IB").noneMatch(n -> n.contains("repeated"));
    }

    @Test
    void roceCompletionErrorWithNewStatusWording() throws IOException {
        NcclLog log = read("nccl-log-roce-2node-completion-error-status4.txt");
        assertThat(log.versions()).isEmpty();
        assertThat(log.communicatorSizes()).isEqualTo(Map.of(16, 4L));
        assertThat(log.algorithms()).containsKey("RING/SIMPLE");
        assertThat(log.ibErrors()).hasSize(1);
        assertThat(log.ibErrors().get(0).status()).isEqualTo(4);
        assertThat(log.ibErrors().get(0).vendorErr().get()).isEqualTo(81);
        assertThat(log.ibErrors().get(0).line()).contains("hca mlx5_1");
        assertThat(log.ibErrors().get(0).statusName()).isEqualTo("IBV_WC_LOC_PROT_ERR");
        assertThat(log.warnings()).isEqualTo(1);
    }

    @Test
    void wrappedOldWordingKeepsTheStatusWithoutVendorError() throws IOException {
        NcclLog log = read("nccl-log-ib-completion-error12-azure.txt");
        assertThat(log.ibErrors()).hasSize(1);
        assertThat(log.ibErrors().get(0).status()).isEqualTo(12);
        assertThat(log.ibErrors().get(0).vendorErr().isValue()).isFalse();
        assertThat(log.ibErrors().get(0).statusName()).isEqualTo("IBV_WC_RETRY_EXC_ERR");
        assertThat(log.ibErrors().get(0).meaning()).startsWith("transport retries exceeded");
    }

    @Test
    void pytorchWatchdogTimeout() throws IOException {
        NcclLog log = read("nccl-log-pytorch-watchdog-allreduce-gb200.txt");
        assertThat(log.watchdogTimeouts()).hasSize(1);
        assertThat(log.watchdogTimeouts().get(0)).contains("OpType=ALLREDUCE").contains("Timeout(ms)=600000");
    }

    @Test
    void socketNetworkAfterIbPluginFailed() throws IOException {
        NcclLog log = read("nccl-log-rtx5090-2.29.7-single-gpu-socket.txt");
        assertThat(log.versions()).containsExactly("2.29.7");
        assertThat(log.networks()).anyMatch(n -> n.startsWith("Using network Socket"));
        assertThat(log.communicatorSizes()).isEmpty(); // the excerpt stops before Init COMPLETE
    }

    @Test
    void gdrDecisionLinesKeepTheirRawNumbers() throws IOException {
        String text = "n1:10:10 [0] NCCL INFO NCCL version 2.19.3+cuda12.2\n"
                + "n1:10:20 [0] NCCL INFO GPU Direct RDMA Disabled for GPU 18000 / HCA 0 (distance 8 > 5), read 0 mode Default\n"
                + "n1:10:20 [0] NCCL INFO GPU Direct RDMA Disabled for GPU 18000 / HCA 0 (distance 8 > 5), read 0 mode Default\n";
        NcclLog log = NcclLog.parse(new BufferedReader(new StringReader(text)), "t.log");
        assertThat(log.gdr()).hasSize(1);
        NcclLog.GdrLine g = log.gdr().get(0);
        assertThat(g.enabled()).isFalse();
        assertThat(g.gpu()).isEqualTo("18000");
        assertThat(g.distance()).isEqualTo(8);
        assertThat(g.threshold()).isEqualTo(5);
    }

    @Test
    void fileWithoutNcclLinesIsRefused(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("app.log");
        Files.writeString(file, "starting\nall good\n");
        assertThatThrownBy(() -> NcclLog.parse(file)).isInstanceOf(InputException.class).hasMessageContaining("app.log");
    }
}
