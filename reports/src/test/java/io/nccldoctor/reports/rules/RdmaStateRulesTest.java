package io.nccldoctor.reports.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.RdmaDevices;
import io.nccldoctor.gdr.RdmaProbe;
import io.nccldoctor.reports.Evaluation;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.RuleContext;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The RoCE rules on hand-made ports, for what no public output in the fixtures shows: RoCE v1-only, link-local-only
 * and IPv6-only GID tables, NCCL_IB_TC set, a per-port traffic class, trust pcp, PFC off everywhere, and two HCAs of
 * one part on different firmware. The real outputs are judged in reports.parsed.RdmaJudgementTest.
 */
class RdmaStateRulesTest {

    private static final String LINK_LOCAL = "fe80:0000:0000:0000:0e42:a1ff:fe5d:4db8";
    private static final String IPV4 = "0000:0000:0000:0000:0000:ffff:0a00:0005";
    private static final String IPV6 = "fd93:0000:0000:0000:0000:0000:0000:0005";

    private static RdmaDevices.Gid gid(int i, String gid, String type) {
        return new RdmaDevices.Gid(i, gid, Fact.of(type), Fact.of("eth0"));
    }

    private static RdmaDevices.RdmaPort port(List<RdmaDevices.Gid> gids, List<RdmaDevices.Netdev> netdevs, Fact<Integer> tclass) {
        Fact<Integer> none = Fact.absent("not in the input");
        return new RdmaDevices.RdmaPort(1, Fact.of("ACTIVE"), Fact.of("LinkUp"), Fact.of(100.0), Fact.of("100 Gb/sec (4X EDR)"),
                Fact.of("Ethernet"), Fact.of(gids), Fact.of(netdevs), none, none, none, none, tclass);
    }

    private static RdmaDevices.Netdev nic(String trust, List<Integer> pfc) {
        RdmaDevices.Qos q = new RdmaDevices.Qos(Fact.of(trust), Fact.of(pfc), Fact.absent("not in this mlnx_qos output"),
                Fact.of("OS controlled"));
        return new RdmaDevices.Netdev("eth0", Fact.absent("x"), Fact.absent("x"), Fact.absent("x"), Fact.absent("x"),
                Fact.of("up"), Fact.of(q));
    }

    private static Snapshot snapshot(Map<String, String> env, RdmaDevices.RdmaPort... ports) {
        RdmaDevices.RdmaDevice d = new RdmaDevices.RdmaDevice("mlx5_0", Fact.absent("x"), Fact.of("28.39.1002"), Fact.absent("x"),
                Fact.of(List.of(ports)), Fact.of(4129));
        return new Snapshot(Snapshot.SCHEMA_VERSION, "test", "node", "now", "test", List.of(), env,
                Map.of(RdmaProbe.KEY, new RdmaDevices(Fact.of(List.of(d)))));
    }

    private static List<Finding> findings(Snapshot s) {
        return Evaluation.of(s, Registry.rdmaRules(), RuleContext.defaults()).findings();
    }

    private static List<String> evidence(Snapshot s, String code) {
        return findings(s).stream().filter(f -> f.code().equals(code)).findFirst().map(Finding::evidence).orElse(List.of());
    }

    @Test
    void ncclChoosesOnlyARoutableIpv4RoceV2Gid() {
        Snapshot ok = snapshot(Map.of(), port(List.of(gid(0, LINK_LOCAL, "IB/RoCE v1"), gid(1, LINK_LOCAL, "RoCE v2"),
                gid(3, IPV4, "RoCE v2")), List.of(), Fact.absent("x")));
        assertThat(findings(ok)).isEmpty();
        Snapshot v1 = snapshot(Map.of(), port(List.of(gid(0, LINK_LOCAL, "IB/RoCE v1"), gid(2, IPV4, "IB/RoCE v1")), List.of(),
                Fact.absent("x")));
        assertThat(evidence(v1, "ROCE_NO_V2_GID").get(0)).startsWith("2 GIDs, none of type RoCE v2");
        Snapshot linkLocal = snapshot(Map.of(), port(List.of(gid(0, LINK_LOCAL, "IB/RoCE v1"), gid(1, LINK_LOCAL, "RoCE v2")),
                List.of(), Fact.absent("x")));
        assertThat(evidence(linkLocal, "ROCE_NO_V2_GID").get(0)).startsWith("RoCE v2 GIDs are link-local only: index 1")
                .endsWith("NCCL skips them and falls back to GID index 0");
        Snapshot ipv6 = snapshot(Map.of(), port(List.of(gid(1, LINK_LOCAL, "RoCE v2"), gid(3, IPV6, "RoCE v2")), List.of(),
                Fact.absent("x")));
        assertThat(evidence(ipv6, "ROCE_NO_V2_GID").get(0)).startsWith("RoCE v2 GIDs are IPv6 only: index 3");
    }

    @Test
    void theRdmaMtuANetdevMtuAllowsFollowsIboeGetMtu() {
        assertThat(RoceConfig.rdmaMtu(1500)).isEqualTo(1024);
        assertThat(RoceConfig.rdmaMtu(4191)).isEqualTo(2048);
        assertThat(RoceConfig.rdmaMtu(4192)).isEqualTo(4096);
        assertThat(RoceConfig.rdmaMtu(9000)).isEqualTo(4096);
    }

    @Test
    void pfcIsJudgedOnThePriorityNcclsMarkingReaches() {
        List<RdmaDevices.Gid> gids = List.of(gid(3, IPV4, "RoCE v2"));
        Snapshot defaults = snapshot(Map.of(), port(gids, List.of(nic("dscp", List.of(3))), Fact.absent("x")));
        assertThat(findings(defaults)).extracting(Finding::code).containsExactly("ROCE_PFC_OFF");
        Snapshot tc106 = snapshot(Map.of("NCCL_IB_TC", "106"), port(gids, List.of(nic("dscp", List.of(3))), Fact.absent("x")));
        assertThat(findings(tc106)).as("NCCL_IB_TC=106 is DSCP 26, priority 3").isEmpty();
        Snapshot global = snapshot(Map.of(), port(gids, List.of(nic("dscp", List.of(3))), Fact.of(106)));
        assertThat(findings(global)).as("MLNX_OFED's per-port traffic class 106 overrides NCCL's 0").isEmpty();
        Snapshot off = snapshot(Map.of(), port(gids, List.of(nic("dscp", List.of())), Fact.absent("x")));
        assertThat(findings(off).get(0).title()).endsWith("(PFC is off on every priority)");
    }

    @Test
    void trustPcpIsToldAndItsPriorityIsTheServiceLevel() {
        List<RdmaDevices.Gid> gids = List.of(gid(3, IPV4, "RoCE v2"));
        Snapshot pcp = snapshot(Map.of(), port(gids, List.of(nic("pcp", List.of(3))), Fact.absent("x")));
        assertThat(findings(pcp)).extracting(Finding::code).containsExactly("ROCE_PFC_OFF", "ROCE_TRUST_PCP");
        Snapshot sl3 = snapshot(Map.of("NCCL_IB_SL", "3"), port(gids, List.of(nic("pcp", List.of(3))), Fact.absent("x")));
        assertThat(findings(sl3)).extracting(Finding::code).containsExactly("ROCE_TRUST_PCP");
    }

    @Test
    void firmwareIsComparedPerPartIdWhenNoPciListIsAtHand() {
        Fact<Integer> none = Fact.absent("x");
        RdmaDevices.RdmaPort p = port(List.of(gid(3, IPV4, "RoCE v2")), List.of(), none);
        List<RdmaDevices.RdmaDevice> devices = List.of(
                new RdmaDevices.RdmaDevice("mlx5_0", Fact.absent("x"), Fact.of("28.39.1002"), Fact.absent("x"), Fact.of(List.of(p)), Fact.of(4129)),
                new RdmaDevices.RdmaDevice("mlx5_1", Fact.absent("x"), Fact.of("28.42.1000"), Fact.absent("x"), Fact.of(List.of(p)), Fact.of(4129)),
                new RdmaDevices.RdmaDevice("mlx5_2", Fact.absent("x"), Fact.of("22.39.3004"), Fact.absent("x"), Fact.of(List.of(p)), Fact.of(4125)));
        Snapshot s = new Snapshot(Snapshot.SCHEMA_VERSION, "test", "node", "now", "test", List.of(), Map.of(),
                Map.of(RdmaProbe.KEY, new RdmaDevices(Fact.of(devices))));
        assertThat(findings(s)).extracting(f -> f.code() + ":" + f.subject()).containsExactly("HCA_FIRMWARE_MIXED:part 4129");
    }
}
