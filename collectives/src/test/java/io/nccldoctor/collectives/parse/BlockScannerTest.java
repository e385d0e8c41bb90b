package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.InputException;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The block scanner's shortcuts held to the line reader on random logs shaped like a job's: processes whose NCCL
 * prefixes have one length or several ("node7:4242:4300 [0] ", "NODE12:88:90 [3] ", a launcher's prefix before them),
 * interleaved in bursts, so that the line is often, but not always, read where the last one had "NCCL INFO "; an 'N' or
 * an "NCCL" before that place; lines shorter than it; channel lines that end with the transport of one of the last
 * lines, or with it and a blank, a "\r\n" line end or more words (a lone '\r' would end a line for the line reader,
 * not for NCCL, so none is written); communicator lines in NCCL's shapes and cut or changed ones; dump lines;
 * per-operation lines; RCCL's version banner, which has no NCCL prefix, in its two wordings, after blanks, cut, or not
 * at the line's start.
 */
class BlockScannerTest {

    private static final String[] HOSTS = {"node7", "node12", "NODE3", "n", "gpu-a100-0042", "NCCLhost", "host N1"};
    private static final String[] MESSAGES = {
        "Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read", "Channel 01/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA",
        "Channel 02/0 : 0[0] -> 8[0] [send] via NET/IB/1/GDRDMA", "Channel 03/0 : 1[1] -> 0[0] via P2P/CUMEM/read ",
        "Channel 05/0 : 0 -> 1 via NET/AWS Libfabric/0/GDRDMA",
        "Channel 06/0 : 0 -> 1 via SHM/direct/direct", "Channel 07/0 : 0 -> 1 via P2P/CUMEM/read via NET/IB/2",
        "Channel 08/32 :    0   1   2   3", "Ring 00 : 3 -> 0 -> 1", "Ring 01 : 155[3d000] -> 157[b2000] via P2P/IPC",
        "Channel 09/0 : 2[2] -> 3[3] via P2P/CUMEM/read/xyz", "Channel 10/0 : 2[2] -> 3[3] via P2P/CUMEM/rea",
        "ncclCommInitRankConfig comm 0x55d1c8a01000 rank 1 nranks 4096 cudaDev 1 nvmlDev 1 busId 2a000 commId 0x9f1e - Init START",
        "ncclCommInitRankConfig comm 0x55d1c8a01000 rank 1 nranks 4096 cudaDev 1 nvmlDev 1 busId 2a000 commId 0x9f1e - Init COMPLETE",
        "[Rank 7] ncclCommInitRankConfig comm 0x1 rank 7 nranks 8 cudaDev 7 nvmlDev 7 busId db000 commId 0x2 - Init COMPLETE",
        "comm 0x7f12 rank 0 nranks 16 cudaDev 0 busId 1c000 - Init COMPLETE", "comm 0x1 rank 0 nranks 4 cudaDev 0 - Init COMPLETE",
        "comm 0x55cc rank 5 nRanks 4096 nNodes 512 localRanks 8 localRank 5 MNNVL 0", "comm 0x55cc rank 5 nRanks 16 nNodes",
        "comm 0x55cc rank 5 nRanks 16 nNodes 2 - Init COMPLETE", "ncclCommInitRankConfig comm 0x1 rank 3 nranks 16 busId 1c000 - Init START x",
        "ncclCommSplit comm 0x2 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 18000 commId 0x3 - Init COMPLETE",
        "=== System : maxBw 48.0 totalBw 370.8 ===", "CPU/0-0 (1/2/-1)", "+ SYS[16.0] - CPU/0-1", "              + PCI[48.0] - GPU/0-18000 (8)",
        "                            + NVL[370.8] - NVS/0-0", "                            + NET[50.0] - NET/0-3 (0/a87cb10003e1a25b/1/50.000000)",
        "==========================================", "+ PCI[0.2] - PCI/0-65000 (104c8232)", "+  PCI[x] - y",
        "GPU Direct RDMA Enabled for GPU 17 / HCA 1 (distance 5 <= 5), read 1 mode Default",
        "NET/IB : GPU Direct RDMA Enabled for HCA 0 'mlx5_0'", "NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE [RO]; OOB eth0:10.0.0.1<0>",
        "Using network IB", "NCCL version 2.27.5+cuda12.9", "NCCL git version master 3619159", "NCCL git version ", "cudaDriverVersion 12080", "NCCL_IB_HCA set by environment to mlx5_0",
        "transport/p2p.cc:275 Cuda Alloc Size 2097152 pointer 0x7f0012345678", "proxyProgressAsync opId=0x7f01 op.type=1 done",
        "transport/p2p.cc:163 Cuda Alloc Size 2097152 pointer 0x7f0012340000", "transport/p2p.cc:275 -> 1",
        "transport/p2p.cc:275 (ncclP2pAllocateShareableBuffer) -> 1", "transport/p2p.cc: opCount 1f sendbuff 0x7f", "transport/p2p.cc:x",
        "transport/p2p.cc:7", "transport/p2p.cc:", "transport/p2p.cc", "transport/p2p.cc:275Cuda", "init.cc:1089 -> 3",
        "transport/net.cc:627 Cuda Alloc Size 4194304 pointer 0x7f0012345000", "a/deeply/nested/source/directory/file.cc:12 x",
        "a/deeply/nested/source/directory/tree/file.cc:12 x",
        "AllReduce: opCount 1f sendbuff 0x7f recvbuff 0x7f count 1024 datatype 7 op 0 root 0 comm 0x5566 [nranks=16] stream 0x55aa",
        "AllReduce: 1048576 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..3}", "Tree 0 : 4 -> 5 -> 6/-1/-1", "  3 : NET/0-3 GPU/0-18000",
        "32 coll channels, 32 collnet channels", "Connected all rings, use ring PXN 0 GDR 1", "something new", "", "N", "NCCL INFO nested"};

    /** RCCL's banner as ROCm/rccl-tests#163 and ROCm/rccl#1026 show it, and lines that only resemble it. */
    private static final String[] BANNERS = {"RCCL version : 2.21.5-HEAD:9a0e6a1", "RCCL version 2.16.5+hip5.6 HE", "  RCCL version : 2.20.5",
        "\tRCCL version 2.18.3+hip6.0 HEAD:b5b0e7a", "RCCL version", "RCCL versio", "rank 0: RCCL version : 2.21.5", "RCCL version : HEAD"};

    @Test
    void blockScannerAgreesWithTheLineReaderOnJobShapedLogs(@TempDir Path dir) throws IOException {
        Random random = new Random(29);
        for (int round = 0; round < 300; round++) {
            int processes = 1 + random.nextInt(6);
            String[] prefixes = new String[processes];
            for (int p = 0; p < processes; p++) {
                String host = HOSTS[random.nextInt(round % 3 == 0 ? HOSTS.length : 3)];
                int pid = random.nextBoolean() ? 40000 + p : 400 + p * 1000;
                String launcher = random.nextInt(5) == 0 ? "[1," + p + "]<stdout>:" : "";
                prefixes[p] = launcher + host + ":" + pid + ":" + (pid + 93) + " [" + p % 8 + "] ";
            }
            StringBuilder text = new StringBuilder();
            for (int lines = random.nextInt(400); lines >= 0; ) {
                String prefix = prefixes[random.nextInt(processes)];
                for (int burst = 1 + random.nextInt(12); burst > 0 && lines >= 0; burst--, lines--) {
                    int shape = random.nextInt(20);
                    if (shape == 0) {
                        text.append("application output ").append(lines); // no NCCL at all
                    } else if (shape == 4 && round % 2 == 0) {
                        text.append(BANNERS[random.nextInt(BANNERS.length)]);
                    } else if (shape == 1) {
                        text.append(prefix, 0, random.nextInt(prefix.length() + 1)); // a line cut short
                    } else {
                        text.append(shape == 2 ? "NCCL " : "").append(prefix).append(shape == 3 ? "NCCL WARN " : "NCCL INFO ")
                                .append(MESSAGES[random.nextInt(MESSAGES.length)]);
                    }
                    if (lines > 0 || random.nextBoolean()) {
                        text.append(random.nextInt(30) == 0 ? "\r\n" : "\n");
                    }
                }
            }
            Path file = dir.resolve("job" + round + ".log");
            Files.writeString(file, text);
            NcclLog lines;
            try {
                lines = NcclLog.parse(new BufferedReader(new StringReader(text.toString())), file.toString());
            } catch (InputException e) {
                continue; // no NCCL line at all: both readers refuse it (checked elsewhere)
            }
            assertThat(NcclLog.parse(file, 1, 1)).as("round %d:%n%s", round, text).isEqualTo(lines);
            assertThat(NcclLog.parse(file, 3, 1, 1024)).as("round %d in three ranges:%n%s", round, text).isEqualTo(lines);
            assertThat(NcclLog.parse(new ByteArrayInputStream(text.toString().getBytes(StandardCharsets.UTF_8)), file.toString(), 700))
                    .as("round %d as a stream:%n%s", round, text).isEqualTo(lines);
        }
    }
}
