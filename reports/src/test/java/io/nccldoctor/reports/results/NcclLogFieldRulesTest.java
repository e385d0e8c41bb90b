package io.nccldoctor.reports.results;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RulesConfig;
import io.nccldoctor.reports.parsed.GdrReading;
import io.nccldoctor.reports.parsed.NcclLogText;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The judgement of logs as engineers paste them (collectives' fixtures/public/README.md names each source): GDR distances
 * without a version, socket fallbacks without channel lines, plugins that were not used, a VM's topology.
 */
class NcclLogFieldRulesTest {

    private static final Path FIXTURES = NcclLogRulesTest.FIXTURES;

    private static Report judge(String... inputs) {
        ResultSet set = new ResultInputs(p -> {
            throw new AssertionError("no capture here");
        }).read(List.of(inputs), "2026-11-30T00:00:00Z");
        return Reports.judge(set, List.of(), new RuleContext(RulesConfig.defaults(), NodeShape.none()));
    }

    private static List<String> codes(Report r) {
        return r.findings().stream().map(Finding::code).toList();
    }

    private static NcclLog log(String name) {
        return NcclLog.parse(FIXTURES.resolve(name));
    }

    private static String reading(NcclLog log, NcclLog.GdrLine g) {
        return GdrReading.of(g.distance(), g.relation(), g.threshold(), g.wording(), log);
    }

    /**
     * NVIDIA/nccl#1151's "distance 7 > 4" with no version line: 4 is the default PXB of 2.8-2.25, where 7 is SYS (the
     * newest numbering would have said PXN > PIX); #1657's "6 > 4" is PHB in 2.12-2.25 but SYS in 2.8-2.11; in the
     * DeepLearningExamples#383 log NCCL_NET_GDR_LEVEL=PHB is logged, and only 2.6-2.7 number PHB 4.
     */
    @Test
    void versionlessDistancesAreReadThroughTheirThreshold() {
        NcclLog one = log("nccl-log-gdr-7-over-4-no-version-nccl1151.txt");
        assertThat(reading(one, one.gdr().get(0))).isEqualTo("SYS > PXB (no NCCL version in the log: 4 is NCCL's default threshold in "
                + "NCCL 2.12.0 up to 2.26.0 (exclusive))");
        NcclLog ambiguous = log("nccl-log-gdr-6-over-4-subsys-all-nccl1657.txt");
        assertThat(reading(ambiguous, ambiguous.gdr().get(0))).startsWith("ambiguous without the NCCL version")
                .contains("SYS > PXB in NCCL 2.8.0 up to 2.12.0 (exclusive)").contains("PHB > PXB in NCCL 2.12.0 up to 2.26.0 (exclusive)");
        NcclLog env = log("nccl-log-gdr-level-phb-set-by-env-dle383.txt");
        assertThat(env.gdr()).extracting(g -> reading(env, g)).containsExactly(
                "PHB <= PHB (no NCCL version in the log: 4 is NCCL_NET_GDR_LEVEL=PHB (its line is in the log) in NCCL 2.6.0 up to 2.8.0 (exclusive))",
                "PHB <= PHB (no NCCL version in the log: 4 is NCCL_NET_GDR_LEVEL=PHB (its line is in the log) in NCCL 2.6.0 up to 2.8.0 (exclusive))",
                "SYS > PHB (no NCCL version in the log: 4 is NCCL_NET_GDR_LEVEL=PHB (its line is in the log) in NCCL 2.6.0 up to 2.8.0 (exclusive))",
                "SYS > PHB (no NCCL version in the log: 4 is NCCL_NET_GDR_LEVEL=PHB (its line is in the log) in NCCL 2.6.0 up to 2.8.0 (exclusive))");
        assertThat(NcclLogText.render(one, "x")).contains("versions not in the log").doesNotContain("2.30.7");
    }

    /** With a version line, that version decodes (2.19.3: 8 > 5 is NET > PXN), whatever the threshold suggests. */
    @Test
    void aVersionInTheLogDecidesTheNumbering(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("v.log");
        Files.writeString(file, "n1:10:10 [0] NCCL INFO NCCL version 2.19.3+cuda12.2\n"
                + "n1:10:20 [0] NCCL INFO GPU Direct RDMA Disabled for GPU 18000 / HCA 0 (distance 8 > 5), read 0 mode Default\n");
        NcclLog log = NcclLog.parse(file);
        assertThat(reading(log, log.gdr().get(0))).isEqualTo("NET > PXN in NCCL 2.19.3");
    }

    /**
     * Sockets told without channel lines (NVIDIA/nccl#226); not judged for one host (detectron2#4730: three processes on
     * cvlab189, whose other hosts the log does not show), and not for one rank (#1267) or one node (2.29.7).
     */
    @Test
    void socketFallbacksWithoutChannelLines() {
        Report aws = judge(FIXTURES.resolve("nccl-log-ib-no-device-socket-aws-nccl226.txt").toString());
        assertThat(codes(aws)).containsExactly("NCCL_NET_SOCKET");
        assertThat(aws.findings().get(0).title()).isEqualTo("sockets are NCCL's only network: IB found no device");
        assertThat(aws.findings().get(0).evidence()).contains("NCCL: NCCL fell back to sockets: NET/IB : No device found.");
        Report verbs = judge(FIXTURES.resolve("nccl-log-no-libibverbs-socket-2.10.3-detectron2-4730.txt").toString());
        assertThat(codes(verbs)).doesNotContain("NCCL_NET_SOCKET");
        assertThat(waived(verbs, "NCCL_NET_SOCKET")).contains("the log shows one host (cvlab189-System-Product-Name)");
        assertThat(codes(judge(FIXTURES.resolve("nccl-log-no-ib-device-socket-1rank-2.19.3-nccl1267.txt").toString())))
                .as("one rank: nothing crosses the network").isEmpty();
        assertThat(codes(judge(FIXTURES.resolve("nccl-log-rtx5090-2.29.7-single-gpu-socket.txt").toString())))
                .as("one node, and NCCL's own IB plugin failing is no plugin fallback (its nccl-tests table is one rank: SINGLE_RANK)")
                .noneMatch(c -> c.startsWith("NCCL_"));
    }

    /**
     * A socket NIC's "GPU Direct RDMA Disabled" line names sockets as NCCL's network; it is no missing peer-memory module
     * (NVIDIA/nccl#901: four NET/Socket NICs and no other network line; #1053: sockets on lo, with "Using network Socket").
     * Both logs show one host, so the sockets themselves are not judged.
     */
    @Test
    void socketNicsWithoutGdrAreTheSocketNetworkNotAMissingModule() {
        Report box = judge(FIXTURES.resolve("nccl-log-topology-nvswitch-socket-nccl901.txt").toString());
        assertThat(codes(box)).as("no NCCL_NO_GDRDMA for socket NICs").noneMatch(c -> c.startsWith("NCCL_"));
        assertThat(waived(box, "NCCL_NET_SOCKET")).contains("the log shows one host (qygpu047)");
        Path lo = Path.of("src/test/resources/fixtures/judgement/nccl-log-socket-lo-system-dump-nccl1053.txt");
        Report one = judge(lo.toString());
        assertThat(codes(one)).noneMatch(c -> c.startsWith("NCCL_"));
        assertThat(waived(one, "NCCL_NET_SOCKET")).contains("the log shows one host (axa)");
    }

    private static String waived(Report r, String code) {
        return r.checks().stream().filter(c -> c.code().equals(code)).findFirst().orElseThrow().waivedBecause();
    }

    /**
     * A net plugin loaded while NCCL used its own IB: no such public log was found within the search budget, so this one
     * is written from NCCL's format strings (plugin/net/net_v8.cc, init.cc), a synthetic input; 2.26.2's plugin that was
     * used, and 1357's that named its network IBext, are no fallback.
     */
    @Test
    void aPluginLoadedButNotUsed(@TempDir Path dir) throws IOException {
        String p = "gpu1:7:9 [0] NCCL INFO ";
        Path file = dir.resolve("fallback.log");
        Files.writeString(file, p + "NET/Plugin: Loaded net plugin NCCL RDMA Plugin v8 (v8)\n" + p + "NET/Plugin: Loaded collnet plugin SHARP (v8)\n"
                + p + "NET/IB : Using [0]mlx5_0:1/IB [RO]; OOB ib0:10.0.0.1<0>\n" + p + "Using network IB\n");
        Report r = judge(file.toString());
        assertThat(codes(r)).containsExactly("NCCL_NET_PLUGIN_FALLBACK");
        assertThat(r.findings().get(0).title()).isEqualTo("the net plugin 'NCCL RDMA Plugin v8' was loaded, but NCCL used its internal IB "
                + "transport: the plugin's init failed or it found no device");
        assertThat(codes(judge(FIXTURES.resolve("nccl-log-h100-2node-2.26.2-ib-sharp-init.txt").toString()))).isEmpty();
        assertThat(codes(judge(FIXTURES.resolve("nccl-log-plugin-v6-ibext-sharp-nccl1357.txt").toString()))).isEmpty();
    }

    /** The human form names the network chosen, AWS's whole transport, and a VM's 0.2 GB/s uplinks with what they mean. */
    @Test
    void theTextTellsWhatWasRead() {
        String vm = NcclLogText.render(log("nccl-log-topology-vm-pci-0.2-h200-nccl-tests256.txt"), "vm");
        assertThat(vm).contains("NCCL's system view (maxBw 48.0, totalBw 370.8): 2 CPUs, 3 GPUs, 3 NICs (NET 50.0 GB/s), 2 NVLink links to "
                + "1 NVSwitch, PCI links 48.0 GB/s x6, 0.2 GB/s x3 (its end is not in the log); NCCL rates a PCI link width x "
                + "per-lane rate / 80: 0.2 GB/s is x1 at 2.5 GT/s, so it sees");
        // RCCL 2.27.7 on a desktop (ROCm/ROCm#6074): its Ethernet port's 0.4 GB/s is no emulated bridge
        String desk = NcclLogText.render(NcclLog.parse(Path.of("../corpus/nccl-log/nccl-log-rccl-2.27.7-2x-rx7900xtx-socket-2rank-dumps-slow-nic-link.txt")), "desk");
        assertThat(desk).contains("0.4 GB/s is x2 at 2.5 GT/s or x1 at 5 GT/s");
        String aws = NcclLogText.render(log("nccl-log-aws-libfabric-channels-2.9.9-nccl527.txt"), "aws");
        assertThat(aws).contains("  channels via NET/AWS Libfabric/0/GDRDMA: 5\n");
        String sharp = NcclLogText.render(log("nccl-log-h100-2node-2.26.2-ib-sharp-init.txt"), "sharp");
        assertThat(sharp).contains("  network chosen: NCCL RDMA Plugin v8\n").contains("  NET/IB devices: [0]mlx5_0:1/IB/SHARP")
                .contains("[7]mlx5_11:1/IB/SHARP").contains("  CUDA driver API: 12080 (CUDA 12.8)\n");
    }
}
