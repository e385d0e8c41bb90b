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
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Logs as engineers paste them (fixtures/public/README.md names each source): lines with NCCL's prefix cut off, GDR
 * lines without a version, networks lost among plugin lines, AWS's plugin, socket fallbacks, topology dumps from VMs.
 */
class NcclLogFieldTest {

    private static NcclLog read(String name) throws IOException {
        return NcclLogTest.read(name);
    }

    /** NCCL lines pasted from "[0] NCCL INFO" or " NCCL INFO" on (nvidia/nccl-tests#245, NVIDIA/nccl#1292, #1151, areal#639). */
    @Test
    void linesWithTheHostPrefixCutOff() throws IOException {
        NcclLog ofi = read("nccl-log-stripped-ofi-dmabuf-2rank-nccl-tests245.txt");
        assertThat(ofi.ncclLines()).isEqualTo(12);
        assertThat(ofi.processes()).as("no host:pid left on the lines").isEmpty();
        assertThat(ofi.init().started()).as("two ranks' Init START, nranks 2, one commId: one communicator").isEqualTo(Map.of(2, 1L));
        assertThat(ofi.init().busIds()).containsExactly("1e0");
        assertThat(ofi.networks()).contains("NET/OFI Could not disable CUDA API usage for HMEM, disabling GDR");
        assertThat(ofi.withoutPrefix()).as("'NCCL INFO' is still there: read as NCCL lines").isFalse();

        NcclLog probe = read("nccl-log-stripped-plugin-probe-2.20.3-nccl1292.txt");
        assertThat(probe.versions()).containsExactly("2.20.3");
        assertThat(probe.init().cudaDriverVersions()).containsExactly("12040");
        assertThat(probe.network().loadedPlugins()).isEmpty();
        assertThat(probe.networks()).contains("NET/Plugin: Failed to find ncclNetPlugin_v8 symbol.");

        NcclLog one = read("nccl-log-gdr-7-over-4-no-version-nccl1151.txt");
        assertThat(one.gdr()).singleElement().satisfies(g -> {
            assertThat(g.gpu() + " " + g.hca() + " " + g.distance() + g.relation() + g.threshold()).isEqualTo("ca000 0 7>4");
            assertThat(g.wording()).isEqualTo(NcclLog.GdrWording.V2_6);
        });
        assertThat(one.versions()).isEmpty();

        NcclLog socket = read("nccl-log-stripped-socket-line-areal639.txt");
        assertThat(socket.network().devices()).isEqualTo(Map.of("Socket", List.of("[0]bond0:200.8.184.2<0>")));
    }

    /** NCCL 2.7's WARN lines from "[0]" on, the first after a Markdown backtick (NVIDIA/nccl#444). */
    @Test
    void warningsWithTheHostCutOff() throws IOException {
        NcclLog log = read("nccl-log-stripped-warn-libibverbs-2.7.8-nccl444.txt");
        assertThat(log.versions()).containsExactly("2.7.8");
        assertThat(log.warnings()).isEqualTo(8);
        assertThat(log.network().unavailable()).containsExactly("Failed to open libibverbs.so[.1]");
    }

    /**
     * Lines with no prefix at all ("Channel 00/02 : 0 1", "NET/IB : Using …"): no such paste was found in public issues
     * within the search budget, so real logs are stripped of everything up to "NCCL INFO " here, and must give the same
     * facts, bar the processes.
     */
    @Test
    void linesWithNoPrefixAtAllReadAsTheSameLog(@TempDir Path dir) throws IOException {
        for (String name : new String[] {"nccl-log-no-ib-device-socket-1rank-2.19.3-nccl1267.txt", "nccl-log-topology-vm-pci-0.2-h200-nccl-tests256.txt",
            "nccl-log-plugin-2.28-gin-could-not-find-nccl1925.txt"}) {
            NcclLog full = read(name);
            String stripped = Files.readString(Fixtures.publicFixture(name)).replaceAll("(?m)^.*? NCCL INFO ", "");
            assertThat(stripped).doesNotContain("NCCL INFO");
            Path file = dir.resolve(name);
            Files.writeString(file, stripped);
            NcclLog bare = NcclLog.parse(file);
            assertThat(bare).as("block and line readers agree on " + name)
                    .isEqualTo(NcclLog.parse(new BufferedReader(new StringReader(stripped)), file.toString()));
            assertThat(bare.withoutPrefix()).isTrue();
            assertThat(bare.ncclLines()).as(name).isEqualTo(full.ncclLines() - full.warnings());
            assertThat(bare.network()).as(name).isEqualTo(full.network());
            assertThat(bare.versions()).isEqualTo(full.versions());
            assertThat(bare.systems()).isEqualTo(full.systems());
            assertThat(bare.init().started()).isEqualTo(full.init().started());
            assertThat(bare.processes()).isEmpty();
        }
        assertThat(NcclLog.isNcclLine("Channel 00/02 :    0   1")).isTrue();
        assertThat(NcclLog.isNcclLine("NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE")).isTrue();
        assertThat(NcclLog.isNcclLine("Connected all rings")).isTrue();
        assertThat(NcclLog.isNcclLine("The channel count was 2 and the network was fine.")).isFalse();
        Path prose = dir.resolve("README.md");
        Files.writeString(prose, "# Notes\n\nThe channel count was 2 and the network was fine.\nUsing NCCL 2.27 and IB.\n");
        assertThatThrownBy(() -> NcclLog.parse(prose)).isInstanceOf(InputException.class).hasMessageContaining("not an NCCL debug log");
    }

    /**
     * The HPC-X plugin's eight HCAs are kept among its plugin lines (nccl-tests#319's 2.26.2 log: the last HCA is
     * mlx5_11), and the plugin it chose is not told as a fallback.
     */
    @Test
    void theNetworkUsedSurvivesThePluginLines() throws IOException {
        NcclLog log = read("nccl-log-h100-2node-2.26.2-ib-sharp-init.txt");
        assertThat(log.network().chosen()).containsExactly("NCCL RDMA Plugin v8");
        assertThat(log.network().devices().get("IB")).singleElement().asString().startsWith("[0]mlx5_0:1/IB/SHARP").contains("[7]mlx5_11:1/IB/SHARP");
        assertThat(log.network().loadedPlugins()).containsExactly("NCCL RDMA Plugin v8");
        assertThat(log.network().fallbacks()).isEmpty();
        assertThat(log.networks()).startsWith("Using network NCCL RDMA Plugin v8").anyMatch(n -> n.startsWith("NET/IB : Using [0]mlx5_0:1/IB/SHARP"));
        assertThat(log.init().cudaDriverVersions()).containsExactly("12080");

        NcclLog v6 = read("nccl-log-plugin-v6-ibext-sharp-nccl1357.txt");
        assertThat(v6.network().chosen()).containsExactly("IBext");
        assertThat(v6.network().loadedPlugins()).containsExactly("NCCL RDMA Plugin v6");
        assertThat(v6.network().fallbacks()).as("IBext is the plugin's own transport: no fallback").isEmpty();

        NcclLog gin = read("nccl-log-plugin-2.28-gin-could-not-find-nccl1925.txt");
        assertThat(gin.network().chosen()).containsExactly("IB");
        assertThat(gin.network().fallbacks()).isEmpty();
        assertThat(gin.init().environment()).as("net_ib.cc echoes NCCL_IB_HCA as 'set to', without 'by environment'")
                .containsEntry("NCCL_IB_DISABLE", List.of("0")).containsEntry("NCCL_IB_HCA", List.of("mlx5_0"));
        assertThat(gin.init().busIds()).containsExactly("1901000");
    }

    /** aws-ofi-nccl's network is named "AWS Libfabric": its channels' transports are kept whole (NVIDIA/nccl#527, aws-ofi-nccl#715). */
    @Test
    void awsLibfabricTransportsAreNotCut() throws IOException {
        NcclLog log = read("nccl-log-aws-libfabric-channels-2.9.9-nccl527.txt");
        assertThat(log.transports()).isEqualTo(Map.of("NET/AWS Libfabric/0/GDRDMA", 5L, "P2P/IPC/read", 7L));
        assertThat(log.processes().get("ip-10-216-179-87:417134").netTransports()).containsExactly("NET/AWS Libfabric/0/GDRDMA");
        NcclLog pxn = read("nccl-log-aws-libfabric-pxn-cloudwatch-ofi715.txt");
        assertThat(pxn.transports()).as("'1(2)' is NIC 1 through rank 2's proxy (PXN): NIC 1's transport")
                .isEqualTo(Map.of("NET/AWS Libfabric/1/GDRDMA/Shared", 5L, "NET/AWS Libfabric/0/GDRDMA/Shared", 1L));
        assertThat(pxn.pxnChannels()).isEqualTo(4);
        assertThat(pxn.processes()).as("behind CloudWatch's '| time |' columns").containsKeys("algo-1:18059", "algo-1:18062");
    }

    /** Sockets after IB found nothing, told without a channel line (NVIDIA/nccl#226, detectron2#4730, NVIDIA/nccl#1267, the 2.29.7 log). */
    @Test
    void socketFallbacksAreToldWithoutChannelLines() throws IOException {
        NcclLog aws = read("nccl-log-ib-no-device-socket-aws-nccl226.txt");
        assertThat(aws.network().chosen()).isEmpty();
        assertThat(aws.network().devices().get("Socket")).hasSize(7);
        assertThat(aws.network().fallbacks()).containsExactly("NCCL fell back to sockets: NET/IB : No device found.");
        NcclLog noVerbs = read("nccl-log-no-libibverbs-socket-2.10.3-detectron2-4730.txt");
        assertThat(noVerbs.network().fallbacks()).containsExactly("NCCL fell back to sockets: Failed to open libibverbs.so[.1]");
        NcclLog oneRank = read("nccl-log-no-ib-device-socket-1rank-2.19.3-nccl1267.txt");
        assertThat(oneRank.network().chosen()).containsExactly("Socket");
        assertThat(oneRank.init().started()).isEqualTo(Map.of(1, 1L));
        assertThat(oneRank.init().cudaDriverVersions()).containsExactly("12000");
        NcclLog ibFailed = read("nccl-log-rtx5090-2.29.7-single-gpu-socket.txt");
        assertThat(ibFailed.network().failedPlugins()).containsExactly("IB");
        assertThat(ibFailed.network().fallbacks()).containsExactly("NCCL's own IB transport failed to initialise; NCCL used Socket",
                "NCCL fell back to sockets: NET/IB : No device found.; Failed to initialize NET plugin IB");
        assertThat(ibFailed.init().nodes()).isEqualTo(Map.of(1, 1L));
        assertThat(ibFailed.init().started()).as("2.29's '[Rank 0] ncclCommInitRankConfig … Init START'").isEqualTo(Map.of(1, 1L));
    }

    /** NCCL's system view: a VM's 0.2 GB/s PCI uplinks kept (nccl-tests#256), an NVSwitch box's dump (NVIDIA/nccl#901). */
    @Test
    void topologyDumpsAreSummarised() throws IOException {
        NcclLog vm = read("nccl-log-topology-vm-pci-0.2-h200-nccl-tests256.txt");
        assertThat(vm.systemDumps()).isEqualTo(1);
        NcclLog.SystemDump d = vm.systems().get(0);
        assertThat(d.maxBw() + "/" + d.totalBw()).isEqualTo("48.0/370.8");
        assertThat(d.gpus() + " GPUs " + d.nics() + " NICs " + d.nets() + " NETs " + d.cpus() + " CPUs").isEqualTo("3 GPUs 3 NICs 3 NETs 2 CPUs");
        assertThat(d.pciLinks()).isEqualTo(Map.of("0.2", 3, "48.0", 6));
        assertThat(d.slowPciLinks()).isEqualTo(Map.of("0.2", 3));
        assertThat(d.netBandwidths()).containsExactly("50.0");
        assertThat(d.nvlinks()).as("the third GPU's NVLink line is past the excerpt").isEqualTo(2);
        assertThat(d.nvswitches()).isEqualTo(1);
        assertThat(d.complete()).as("the excerpt stops before the closing line").isFalse();

        NcclLog box = read("nccl-log-topology-nvswitch-socket-nccl901.txt");
        NcclLog.SystemDump b = box.systems().get(0);
        assertThat(b.maxBw()).isEqualTo("160.0");
        assertThat(b.cpus() + " " + b.gpus() + " " + b.nvlinks() + " " + b.nvswitches()).as("CPU/3 and its SYS peers 1, 7, 5").isEqualTo("4 1 1 1");
        assertThat(b.pciLinks()).isEqualTo(Map.of("24.0", 3));
        assertThat(box.nicGdr()).extracting(n -> n.net() + " " + n.hca() + " " + n.enabled()).contains("Socket lan3 false");
        assertThat(box.nicGdr()).as("a socket NIC never does GDR: the line names the network, not a missing module")
                .allMatch(NcclLog.NicGdr::socket)
                .allMatch(n -> n.meaning().contains("network NCCL opened is TCP sockets") && !n.meaning().contains("nvidia-peermem"));
    }

    /** A verbs symbol missing, in NCCL's own format ("dlvsym failed on %s - %s version %s"): synthetic, none was found published. */
    @Test
    void missingVerbsSymbolsAreKept() throws IOException {
        String text = "n1:5:5 [0] NCCL INFO NCCL version 2.19.3+cuda12.2\n"
                + "n1:5:9 [0] misc/ibvsymbols.cc:95 NCCL WARN dlvsym failed on ibv_reg_dmabuf_mr - /lib/libibverbs.so.1: undefined symbol: "
                + "ibv_reg_dmabuf_mr, version IBVERBS_1.12 version IBVERBS_1.12\n"
                + "n1:5:9 [0] NCCL INFO dlvsym failed on mlx5dv_get_data_direct_sysfs_path - undefined symbol version MLX5_1.25\n";
        NcclLog log = NcclLog.parse(new BufferedReader(new StringReader(text)), "t.log");
        assertThat(log.init().symbolFailureCount()).isEqualTo(2);
        assertThat(log.init().symbolFailures()).hasSize(2).first().asString().contains("ibv_reg_dmabuf_mr");
    }

    /** Every decision counted by kind, beyond the 64 GPU–NIC pairs kept (2.24's rank-numbered lines differ for every rank). */
    @Test
    void gdrDecisionsAreCountedBeyondTheExamples() throws IOException {
        NcclLog env = read("nccl-log-gdr-level-phb-set-by-env-dle383.txt");
        assertThat(env.init().environment()).isEqualTo(Map.of("NCCL_NET_GDR_LEVEL", List.of("PHB")));
        assertThat(env.gdrDecisions()).extracting(c -> (c.enabled() ? "+" : "-") + c.distance() + c.relation() + c.threshold() + " x" + c.count())
                .containsExactly("+4<=4 x6", "-5>4 x5");
        StringBuilder many = new StringBuilder();
        for (int r = 0; r < 500; r++) {
            many.append("n").append(r / 8).append(":1:2 [0] NCCL INFO GPU Direct RDMA Disabled for GPU ").append(r).append(" / HCA 0 (distance 8 > 5)\n");
        }
        NcclLog log = NcclLog.parse(new BufferedReader(new StringReader(many.toString())), "many.log");
        assertThat(log.gdr()).hasSize(64);
        assertThat(log.gdrDecisions()).singleElement().satisfies(c -> assertThat(c.count()).isEqualTo(500));
    }

    /**
     * The block scanner against the line reader on random logs of initialisation messages (every kind in the table, dump
     * lines with and without indentation, glued pieces), and a file read in parallel ranges against one pass: dumps cut
     * by a range boundary are joined.
     */
    @Test
    void initialisationMessagesReadAlikeFromBytesAndLines(@TempDir Path dir) throws IOException {
        String[] pieces = {"NCCL INFO === System : maxBw 48.0 totalBw 370.8 ===", "NCCL INFO CPU/0-0 (1/2/-1)", "NCCL INFO + SYS[16.0] - CPU/0-1",
            "NCCL INFO              + PCI[48.0] - GPU/0-68000 (8)", "NCCL INFO + PCI[0.2] - PCI/0-65000 (104c8232)", "NCCL INFO ==========",
            "NCCL INFO                            + NET[50.0] - NET/0-c (0/d4f9/1/50.000000)", "NCCL INFO +  PCI[x] - y",
            "NCCL INFO Ring 00 : 1 -> 2 -> 3", "NCCL INFO Ring 00 : 155[3d000] -> 157[b2000] via P2P/IPC", "NCCL INFO Trees [0] 1/-1/-1->0->-1",
            "NCCL INFO NCCL_NET_GDR_LEVEL set by environment to PHB", "NCCL INFO NCCL_IB_DISABLE set by environment to 0.",
            "NCCL INFO cudaDriverVersion 12080", "NCCL INFO comm 0x1 rank 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0",
            "NCCL INFO ncclCommInitRankConfig comm 0x1 rank 3 nranks 16 cudaDev 3 nvmlDev 3 busId 1c000 commId 0x2 - Init START",
            "NCCL INFO [Rank 0] ncclCommInitRankConfig comm 0x9 rank 0 nranks 1 cudaDev 0 nvmlDev 0 busId 2000 commId 0x3 - Init COMPLETE",
            "NCCL INFO Channel 00/0 : 0[0] -> 8[0] [send] via NET/AWS Libfabric/0/GDRDMA", "NCCL INFO Channel 01/0 : 1 -> 2 via NET/IB/0(1)/GDRDMA",
            "NCCL INFO Failed to initialize NET plugin IB", "NCCL INFO NET/Plugin: Loaded net plugin NCCL RDMA Plugin v8 (v8)",
            "NCCL INFO Using network IB", "NCCL INFO Using network Socket", "NCCL INFO NET/IB : No device found.",
            "NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE [RO]; OOB eth0:10.0.0.1<0>", "NCCL INFO misc/socket.cc:567 -> 2",
            "NCCL INFO 32 coll channels, 32 collnet channels", "NCCL INFO  0 : NET/0-0 GPU/0-18000 NET/0-0", "NCCL INFO 64 Bytes -> Algo 1 proto 0",
            "NCCL INFO GPU Direct RDMA Enabled for GPU 17 / HCA 1 (distance 5 <= 5), read 1 mode Default",
            "NCCL INFO NET/IB : GPU Direct RDMA Enabled for HCA 0 'mlx5_0'", "NCCL INFO HINT: ACS is enabled", "NCCL INFO dlvsym failed on x",
            "NCCL INFO AllReduce: opCount 1f sendbuff 0x7f", "NCCL WARN Failed to open libibverbs.so[.1]", "NCCL INFO Setting affinity for GPU 0",
            "n1:11:12 [0] ", "n2:21:22 [1] ", "n3:31:32 [2] ", "[Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5)",
            "plain", "", "  ", "é"};
        Random random = new Random(13);
        for (int round = 0; round < 400; round++) {
            StringBuilder text = new StringBuilder("h:1:1 [0] NCCL INFO NCCL version 2.27.5+cuda12.9\n");
            for (int line = random.nextInt(60); line >= 0; line--) {
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
            assertThat(NcclLog.parse(file, 3, 1, 512)).as("round %d in three ranges:%n%s", round, text).isEqualTo(lines);
            assertThat(NcclLog.parse(new ByteArrayInputStream(text.toString().getBytes(StandardCharsets.UTF_8)), file.toString(), 512))
                    .as("round %d as a stream:%n%s", round, text).isEqualTo(lines);
        }
    }

    /** Dumps of many processes, interleaved, read in ranges whose boundaries fall inside them: the same as one pass. */
    @Test
    void dumpsCutByRangesAreJoined(@TempDir Path dir) throws IOException {
        StringBuilder text = new StringBuilder();
        String[] dump = {"=== System : maxBw 24.0 totalBw 24.0 ===", "CPU/0 (1/1/1)", "+ PCI[24.0] - PCI/1000 (1000c0101000)",
            "              + PCI[24.0] - GPU/%d000 (%d)", "              + PCI[0.2] - NIC/2000", "                            + NET[12.5] - NET/0 (0/0/12.500000)",
            "==========================================="};
        Random random = new Random(5);
        int[] at = new int[24];
        for (int left = 24 * dump.length; left > 0; ) {
            int p = random.nextInt(24);
            if (at[p] == dump.length) {
                continue;
            }
            String msg = String.format(dump[at[p]++], p % 3 + 1, p);
            text.append("node").append(p / 8).append(":").append(100 + p).append(":").append(200 + p).append(" [0] NCCL INFO ").append(msg).append('\n');
            left--;
        }
        Path file = dir.resolve("dumps.log");
        Files.writeString(file, text);
        NcclLog one = NcclLog.parse(file, 1, 1);
        assertThat(one.systemDumps()).isEqualTo(24);
        assertThat(one.systems()).allSatisfy(d -> assertThat(d.complete()).isTrue());
        for (int threads : new int[] {2, 3, 4}) {
            assertThat(NcclLog.parse(file, threads, 1, 256)).as("%d ranges", threads).isEqualTo(one);
        }
    }
}
