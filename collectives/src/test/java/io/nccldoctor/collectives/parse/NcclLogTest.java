package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.collectives.Fixtures;
import io.nccldoctor.core.InputException;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
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
        assertThat(log.processes()).as("8 ranks on lccn09, 8 on lccn19, one process each").hasSize(16)
                .containsKeys("lccn09:2520136", "lccn19:2471270");
        assertThat(log.processes().values()).allSatisfy(p -> assertThat(p.versions()).containsExactly("2.26.2"));
        assertThat(log.processes().get("lccn09:2520148").networks()).containsExactly("NCCL RDMA Plugin v8");
        assertThat(log.differences()).as("one version, and the one process that logged its network").isEmpty();
    }

    /**
     * The GDR lines of every NCCL generation in one log (reference/nccl-internals.md §4.4): 2.4's "GPU %d[%d]" with
     * ">=", 2.6-2.28's bus id, 2.29's "GPU/… (rank r) - NET/…" with and without PXN (whose " via " is no channel), and
     * the per-NIC support line with and without " (no module)".
     */
    @Test
    void gdrLinesOfEveryForm(@TempDir Path dir) throws IOException {
        String p = "node01:4242:4300 [0] NCCL INFO ";
        String text = p + "NCCL version 2.29.2+cuda12.9\n"
                + p + "NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0' (no module)\n"
                + p + "NET/IB : GPU Direct RDMA Enabled for HCA 1 'mlx5_1'\n"
                + "node02:77:78 [1] NCCL INFO NET/IB : GPU Direct RDMA Enabled for HCA 1 'mlx5_1'\n"
                + p + "NET/IB : GPU Direct RDMA Disabled for GPU 0[0] / HCA 0 (distance 4 >= 2)\n"
                + p + "GPU Direct RDMA Disabled for GPU/0-110592 (rank 0) - NET/0-0 (distance 9 > 5)\n"
                + p + "GPU Direct RDMA Enabled for GPU/0-110592 (rank 0) - NET/0-1 ( using PXN via GPU/0-118784, distance 5 <= 6, "
                + "read 1, mode Default)\n"
                + p + "Channel 00/0 : 0[0] -> 1[1] [send] via NET/IB/1/GDRDMA\n";
        Path file = dir.resolve("gdr.log");
        Files.writeString(file, text);
        NcclLog log = NcclLog.parse(file);
        assertThat(log).as("block and line parsers agree").isEqualTo(NcclLog.parse(new BufferedReader(new StringReader(text)), "gdr.log"));
        assertThat(log.transports()).as("only the channel line has a transport, not 'using PXN via GPU/…'")
                .containsOnlyKeys("NET/IB/1/GDRDMA");
        assertThat(log.gdr()).extracting(g -> g.gpu() + " " + g.hca() + " " + g.distance() + g.relation() + g.threshold())
                .containsExactly("0[0] 0 4>=2", "0-110592 0-0 9>5", "0-110592 0-1 5<=6");
        assertThat(log.nicGdr()).as("each NIC's line once, though two processes printed mlx5_1's")
                .extracting(n -> n.hca() + " " + n.enabled() + " " + n.noModule()).containsExactly("mlx5_0 false true", "mlx5_1 true false");
        assertThat(log.nicGdr().get(0).meaning()).contains("nvidia-peermem is not loaded");
        assertThat(log.acsHint()).isFalse();
    }

    /** NCCL_DEBUG_SUBSYS=TUNING: rank 0's choice per call, counted per collective, size, algorithm and protocol. */
    @Test
    void tuningChoicesPerSize(@TempDir Path dir) throws IOException {
        StringBuilder text = new StringBuilder("n1:1:1 [0] NCCL INFO NCCL version 2.27.5+cuda12.9\n");
        for (int call = 0; call < 3; call++) {
            for (long size = 8; size <= (1 << 20); size *= 8) {
                String choice = size < 65536 ? "Algo RING proto LL" : "Algo RING proto SIMPLE";
                text.append("n1:1:2 [0] NCCL INFO AllReduce: ").append(size).append(" Bytes -> ").append(choice)
                        .append(" channel{Lo..Hi}={0..1}\n");
            }
        }
        text.append("n1:1:2 [0] NCCL INFO AllGather: 4096 Bytes -> Algo RING proto LL128 channel{Lo..Hi}={0..0}\n");
        Path file = dir.resolve("tuning.log");
        Files.writeString(file, text);
        NcclLog log = NcclLog.parse(file);
        assertThat(log).isEqualTo(NcclLog.parse(new BufferedReader(new StringReader(text.toString())), file.toString()));
        assertThat(log.tuning()).extracting(t -> t.collective().get() + " " + t.bytes() + " " + t.algorithm() + "/" + t.protocol()
                + " x" + t.count()).containsExactly("AllGather 4096 RING/LL128 x1", "AllReduce 8 RING/LL x3", "AllReduce 64 RING/LL x3",
                "AllReduce 512 RING/LL x3", "AllReduce 4096 RING/LL x3", "AllReduce 32768 RING/LL x3", "AllReduce 262144 RING/SIMPLE x3");
        assertThat(log.algorithms()).containsEntry("RING/LL", 15L);
    }

    /** NCCL's own hint after a completion error that ACS breaks GPU Direct RDMA (reference/nccl-internals.md §4.5). */
    @Test
    void acsHintIsKept(@TempDir Path dir) throws IOException {
        String text = "n1:1:2 [0] NCCL INFO NCCL version 2.27.5+cuda12.9\n"
                + "n1:1:2 [0] transport/net_ib.cc:1 NCCL WARN NET/IB : Got completion from peer 10.0.0.2<1> with status=4 opcode=0 "
                + "len=0 vendor err 81 (Recv)\n"
                + "n1:1:2 [0] transport/net_ib.cc:2 NCCL WARN NET/IB : HINT: In many cases this error occurs when ACS is enabled "
                + "which would break GPU Direct RDMA protocol.\n";
        Path file = dir.resolve("acs.log");
        Files.writeString(file, text);
        NcclLog log = NcclLog.parse(file);
        assertThat(log.acsHint()).isTrue();
        assertThat(log.ibErrors()).singleElement().extracting(NcclLog.IbError::status).isEqualTo(4);
        assertThat(NcclLog.parse(file, 2, 1, 512)).as("two ranges").isEqualTo(log);
    }

    /** A job's combined output (every rank's lines in one file): the one process on sockets is named. */
    @Test
    void theProcessThatFellBackToSocketsInACombinedLog(@TempDir Path dir) throws IOException {
        StringBuilder text = new StringBuilder();
        for (int rank = 0; rank < 4; rank++) {
            String p = (rank == 2 ? "[1,2]<stdout>:" : "") + "node0" + rank + ":42" + rank + ":43" + rank + " [0] NCCL INFO ";
            text.append(p).append("NCCL version 2.27.5+cuda12.9\n");
            text.append(p).append(rank == 2 ? "Using network Socket\n" : "Using network IB\n");
            for (int c = 0; c < 3; c++) {
                text.append(p).append("Channel 0").append(c).append("/0 : 0[0] -> 1[1] [send] via ")
                        .append(rank == 2 ? "NET/Socket/0" : "NET/IB/0/GDRDMA").append('\n');
            }
        }
        for (int op = 0; op < 50; op++) {
            text.append("node01:421:431 [0] NCCL INFO AllReduce: opCount ").append(op).append(" sendbuff 0x7f12a0000000 recvbuff "
                    + "0x7f12a0000000 count 262144 datatype 7 op 0 root 0 comm 0x5566 [nranks=4] stream 0x55aa\n");
        }
        Path file = dir.resolve("job.out");
        Files.writeString(file, text);
        NcclLog log = NcclLog.parse(file);
        assertThat(log).as("block and line parsers agree").isEqualTo(NcclLog.parse(new BufferedReader(new StringReader(text.toString())),
                file.toString()));
        assertThat(log.processes()).containsOnlyKeys("node00:420", "node01:421", "node02:422", "node03:423");
        assertThat(log.processes().get("node02:422").netTransports()).containsExactly("NET/Socket/0");
        assertThat(log.differences()).containsExactly(
                "the network NCCL chose differs: IB in 3 processes; Socket in node02:422. A process on sockets (NET/Socket) moves "
                        + "every byte through the kernel's TCP stack and slows the whole job: NCCL_IB_DISABLE, NCCL_NET or an IB/RoCE "
                        + "device that did not come up there",
                "GPUDirect RDMA on the network channels differs: used in 3 processes; not used in node02:422. Without it the NIC "
                        + "reads and writes host memory and each transfer is staged through a copy: nvidia-peermem or dma-buf "
                        + "missing, NCCL_NET_GDR_LEVEL, or a GPU too far from its NIC (see the GDR lines)");
        for (int threads : new int[] {2, 3}) {
            assertThat(NcclLog.parse(file, threads, 1, 512)).as("%d ranges, 512-byte blocks", threads).isEqualTo(log);
        }
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
        assertThat(log.communicatorSizes()).as("four ranks' Init COMPLETE of one commId: one communicator").isEqualTo(Map.of(16, 1L));
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

    @Test
    void aFileReadInParallelRangesGivesTheSameAnswerAsOnePass(@TempDir Path dir) throws IOException {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 6000; i++) {
            String p = "n" + (i % 7) + ":" + (100 + i % 13) + ":" + (200 + i % 5) + " [" + (i % 8) + "] ";
            text.append(p).append("NCCL INFO AllReduce: opCount ").append(Integer.toHexString(i)).append(" sendbuff 0x7f count 1024\n");
            switch (i % 50) {
                case 0 -> text.append(p).append("NCCL INFO NCCL version 2.").append(18 + i % 9).append(".3+cuda12.2\n");
                case 1 -> text.append(p).append("NCCL INFO NET/IB : Using [0]mlx5_").append(i % 17).append(":1/RoCE [RO]; OOB eth0\n");
                case 2 -> text.append(p).append("NCCL INFO Channel ").append(i % 32).append("/0 : 0[0] -> 1[1] via P2P/IPC/read\n");
                case 3 -> text.append(p).append("NCCL INFO GPU Direct RDMA Disabled for GPU ").append(i / 50 % 70).append(" / HCA 0 (distance 8 > 5)\n");
                case 4 -> text.append(p).append("transport/net_ib.cc:1 NCCL WARN NET/IB : Got completion from peer 10.0.0.")
                        .append(i % 9).append("<1> with status=12 opcode=0 len=0 vendor err 129 (Recv)\n");
                case 5 -> text.append(p).append("NCCL INFO comm 0x1 rank 0 nranks ").append(2 + i % 3).append(" cudaDev 0 - Init COMPLETE\n");
                case 6 -> text.append(p).append("NCCL INFO AllReduce: 4 Bytes -> Algo ").append(i % 2 == 0 ? "RING" : "TREE")
                        .append(" proto SIMPLE channel{Lo..Hi}={0..0}\n");
                case 7 -> text.append("[rank").append(i).append("]: [Rank ").append(i)
                        .append("] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE)\n");
                default -> text.append("application line ").append(i).append("\n");
            }
        }
        Path file = dir.resolve("big.log");
        Files.writeString(file, text.toString());
        NcclLog one = NcclLog.parse(file, 1, 1);
        assertThat(one.lines()).isEqualTo(text.toString().lines().count());
        assertThat(one.firstWarnings()).hasSize(NcclLog.KEEP);
        assertThat(one.gdr()).hasSize(64);
        for (int threads : new int[] {2, 3, 4}) {
            assertThat(NcclLog.parse(file, threads, 1)).as("%d ranges", threads).isEqualTo(one);
            assertThat(NcclLog.parse(file, threads, 1, 4096)).as("%d ranges mapped 4 KiB at a time", threads).isEqualTo(one);
        }
        assertThat(NcclLog.parse(Files.newInputStream(file), file.toString())).as("read as a stream").isEqualTo(one);
    }

    /**
     * The block scanner (eight bytes at a time) against the line-by-line reader on random logs made of the pieces
     * that matter: "NCCL" with and without a space, per-operation lines, lines that hold "NCCL" twice, 'N' at every
     * offset within a word, watchdog lines, and files with and without a final newline.
     */
    @Test
    void blockScannerAgreesWithTheLineReaderOnRandomLogs(@TempDir Path dir) throws IOException {
        String[] pieces = {"NCCL INFO AllReduce: opCount 1f sendbuff 0x7f", "NCCL INFO NCCL version 2.21.5+cuda12.4", "NCCL WARN oops",
            "NCCL INFO Channel 00/0 : 0[0] -> 1[1] via NET/IB/0/GDRDMA", "NCCLNCCL INFO x", "N", "NC", "NCC", "NCCL", "NNCCL INFO y",
            "ProcessGroupNCCL.cpp:1 Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1)", "NCCL INFO Broadcast: opCount 2",
            "NCCL INFO comm 0x1 rank 0 nranks 4 cudaDev 0 - Init COMPLETE", "plain", "", " ", "NCCL INFO NET/IB : Using [0]mlx5_0:1/IB",
            "x NCCL INFO SendRecv: opCount 3 NCCL INFO Channel 01/0 : 0 -> 1 via SHM", "NCCL INFO Algo RING proto LL128",
            "NCCL INFO AllReduce: opCount 1f sendbuff 0x7f12a0000000 recvbuff 0x7f12a0000000 count 262144 datatype 7 op 0 root 0 "
                + "comm 0x5566 [nranks=16] stream 0x55aa",
            "NCCL INFO Channel 02/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA NCCL INFO x NCCL WARN y",
            "NCCL INFO GPU Direct RDMA Disabled for GPU 1 / HCA 0 (distance 8 > 5)", "n1:11:12 [0] ", "n2:21:22 [1] ",
            "NCCL INFO AllReduce: 1048576 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..3}",
            "NCCL INFO AllGather: 4096 Bytes -> Algo RING proto LL channel{Lo..Hi}={0..0} comm 0x55aa",
            "NCCL INFO AllReduce: 1048576 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..", "NCCL INFO 64 Bytes -> Algo 1 proto 0",
            "Watchdog caught ACS is enabled ",
            "[1,0]<stdout>:n3:31:32 [2] ", "n1:11:13 [3] NCCL INFO Channel 00/0 : 0 -> 1 via NET/IB/0/GDRDMA",
            "n2:21:22 [1] NCCL INFO Using network Socket", "n1:11:12 [0] NCCL INFO Using network IB",
            "n2:21:22 [1] NCCL INFO NCCL version 2.26.2+cuda12.4"};
        Random random = new Random(42);
        for (int round = 0; round < 600; round++) {
            StringBuilder text = new StringBuilder("h:1:1 [0] NCCL INFO NCCL version 2.27.5+cuda12.9\n");
            for (int line = random.nextInt(40); line >= 0; line--) {
                text.append("x".repeat(random.nextInt(9)));
                for (int k = random.nextInt(3); k >= 0; k--) {
                    text.append(pieces[random.nextInt(pieces.length)]);
                }
                if (line > 0 || random.nextBoolean()) {
                    text.append('\n');
                }
            }
            Path file = dir.resolve("r" + round + ".log");
            Files.writeString(file, text);
            NcclLog lines = NcclLog.parse(new BufferedReader(new StringReader(text.toString())), file.toString());
            assertThat(NcclLog.parse(file, 1, 1)).as("round %d:%n%s", round, text).isEqualTo(lines);
            assertThat(NcclLog.parse(file, 2, 1, 512)).as("round %d in two ranges, 512-byte segments:%n%s", round, text).isEqualTo(lines);
            assertThat(NcclLog.parse(new ByteArrayInputStream(text.toString().getBytes(StandardCharsets.UTF_8)), file.toString(), 512))
                    .as("round %d as a stream, 512-byte segments:%n%s", round, text).isEqualTo(lines);
        }
    }
}
