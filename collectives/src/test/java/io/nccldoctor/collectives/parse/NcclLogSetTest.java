package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.InputException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Per-process logs of one job read together, and the differences that matter between them. */
class NcclLogSetTest {

    /** One process's log, in the shape NCCL 2.2x writes with NCCL_DEBUG=INFO. */
    private static String log(String host, String version, String network, String channelTransport) {
        String p = host + ":4242:4300 [0] NCCL INFO ";
        return host + ":4242:4242 [0] NCCL INFO NCCL version " + version + "+cuda12.4\n"
                + p + ("IB".equals(network) ? "NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE ; OOB eth0:10.0.0.1<0>\n"
                        : "NET/Socket : Using [0]eth0:10.0.0.1<0>\n")
                + p + "Using network " + network + "\n"
                + p + "Channel 00/0 : 0[0] -> 8[0] [send] via " + channelTransport + "\n"
                + p + "Channel 01/0 : 0[0] -> 8[0] [send] via " + channelTransport + "\n"
                + p + "comm 0x5566 rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 18000 commId 0x1 - Init COMPLETE\n"
                + p + "AllReduce: opCount 0 sendbuff 0x7f12a0000000 recvbuff 0x7f12a0000000 count 262144 datatype 7 op 0 root 0 "
                + "comm 0x5566 [nranks=16] stream 0x55aa\n";
    }

    private static Path write(Path dir, String name, String text) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, text);
        return f;
    }

    @Test
    void healthyJobHasNoDifferences(@TempDir Path dir) throws IOException {
        for (int node = 1; node <= 4; node++) {
            write(dir, "nccl.node0" + node + ".4242.log", log("node0" + node, "2.27.5", "IB", "NET/IB/0/GDRDMA"));
        }
        NcclLogSet set = NcclLogSet.read(List.of(dir));
        assertThat(set.logs()).hasSize(4);
        assertThat(set.logs().keySet()).first().asString().endsWith("nccl.node01.4242.log");
        assertThat(set.differences()).isEmpty();
        assertThat(set.skipped()).isEmpty();
    }

    @Test
    void oneProcessOnSocketsIsNamed(@TempDir Path dir) throws IOException {
        for (int node = 1; node <= 4; node++) {
            write(dir, "nccl.node0" + node + ".log", node == 3 ? log("node03", "2.27.5", "Socket", "NET/Socket/0")
                    : log("node0" + node, "2.27.5", "IB", "NET/IB/0/GDRDMA"));
        }
        NcclLogSet set = NcclLogSet.read(List.of(dir));
        assertThat(set.differences()).as("the network differs, and node03's socket channels do not use GPUDirect RDMA either")
                .hasSize(2);
        assertThat(set.differences().get(0)).startsWith("the network NCCL chose differs: IB in 3 files; Socket in ")
                .contains("nccl.node03.log").doesNotContain("node01");
        assertThat(set.differences().get(1)).startsWith("GPUDirect RDMA on the network channels differs: used in 3 files; not used in ")
                .contains("nccl.node03.log");
    }

    @Test
    void aNodeWithoutGpuDirectRdmaIsNamed(@TempDir Path dir) throws IOException {
        write(dir, "a.log", log("node01", "2.27.5", "IB", "NET/IB/0/GDRDMA"));
        write(dir, "b.log", log("node02", "2.27.5", "IB", "NET/IB/0"));
        write(dir, "c.log", log("node03", "2.27.5", "IB", "NET/IB/0/GDRDMA"));
        NcclLogSet set = NcclLogSet.read(List.of(dir.resolve("a.log"), dir.resolve("b.log"), dir.resolve("c.log")));
        assertThat(set.differences()).singleElement().asString()
                .startsWith("GPUDirect RDMA on the network channels differs: used in 2 files; not used in " + dir.resolve("b.log") + ".");
    }

    @Test
    void mixedVersionsNameEveryMinorityAndCountTheRest(@TempDir Path dir) throws IOException {
        for (int k = 0; k < 20; k++) {
            write(dir, String.format("nccl.%02d.log", k), log("n" + k, k < 12 ? "2.27.5" : "2.26.2", "IB", "NET/IB/0/GDRDMA"));
        }
        NcclLogSet set = NcclLogSet.read(List.of(dir));
        assertThat(set.differences()).singleElement().asString()
                .startsWith("the NCCL version differs: 2.27.5 in 12 files; 2.26.2 in " + dir.resolve("nccl.12.log") + ", ")
                .contains(dir.resolve("nccl.16.log").toString()).doesNotContain(dir.resolve("nccl.17.log").toString())
                .contains(" and 3 more.");
    }

    @Test
    void filesWithoutNcclLinesAreSkippedButNotAllOfThem(@TempDir Path dir) throws IOException {
        write(dir, "app.log", "starting\nepoch 1 loss 2.3\n");
        write(dir, ".hidden", "node01:1:1 [0] NCCL INFO NCCL version 2.0.0\n");
        assertThatThrownBy(() -> NcclLogSet.read(List.of(dir))).isInstanceOf(InputException.class)
                .hasMessageContaining("no NCCL debug log among 1 file(s)");
        write(dir, "nccl.log", log("node01", "2.27.5", "IB", "NET/IB/0/GDRDMA"));
        NcclLogSet set = NcclLogSet.read(List.of(dir));
        assertThat(set.logs()).containsOnlyKeys(dir.resolve("nccl.log").toString());
        assertThat(set.skipped()).containsEntry(dir.resolve("app.log").toString(), "no NCCL lines");
        assertThatThrownBy(() -> NcclLogSet.read(List.of(dir.resolve("missing.log")))).isInstanceOf(InputException.class)
                .hasMessageContaining("missing.log: no such file or folder");
    }

    @Test
    void aGzippedLogReadsLikeThePlainOne(@TempDir Path dir) throws IOException {
        Path plain = Path.of("src/test/resources/fixtures/public/nccl-log-vllm-ray-2.21.5-ib-gdrdma.txt");
        Path gz = dir.resolve("nccl.log.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write(Files.readString(plain).getBytes(StandardCharsets.UTF_8));
        }
        NcclLog fromGz = NcclLog.parse(gz);
        assertThat(fromGz).isEqualTo(NcclLog.parse(plain));
        assertThat(fromGz.transports()).containsKey("NET/IB/0/GDRDMA");
        Path notGz = write(dir, "broken.log.gz", "not compressed\n");
        assertThatThrownBy(() -> NcclLog.parse(notGz)).isInstanceOf(InputException.class).hasMessageContaining("broken.log.gz: cannot read");
    }
}
