package io.nccldoctor.reports.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.collectives.Libraries;
import io.nccldoctor.collectives.LibrariesProbe;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.core.Snapshots;
import io.nccldoctor.core.capture.Capture;
import io.nccldoctor.core.libs.NativeLibrary;
import io.nccldoctor.gdr.RdmaDevices;
import io.nccldoctor.gdr.RdmaProbe;
import io.nccldoctor.reports.Evaluation;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.RuleContext;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The RoCE configuration rules over the captures of gdr-probe/…/fixtures/roce (their README states the expected
 * findings), and NCCL's GID choice over GID tables no capture shows.
 */
class RoceConfigRulesTest {

    static final Path ROCE = Path.of("../gdr-probe/src/test/resources/fixtures/roce");
    private static final String LINK_LOCAL = "fe80:0000:0000:0000:0e42:a1ff:fe5d:4db8";
    private static final String IPV4 = "0000:0000:0000:0000:0000:ffff:0a00:0005";
    private static final String IPV6 = "fd93:0000:0000:0000:0000:0000:0000:0005";

    static Snapshot capture(String scenario) {
        return Snapshots.take(Capture.open(ROCE.resolve(scenario)).host(), List.of(new RdmaProbe()), List.of("test"), "test",
                Clock.systemUTC());
    }

    static List<Finding> findings(Snapshot s) {
        return Evaluation.of(s, Registry.rdmaRules(), RuleContext.defaults()).findings();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "healthy|",
        "gid-index-3|ROCE_GID_INDEX_UNSUITABLE",
        "default-tc|ROCE_PFC_OFF ROCE_DCQCN_OFF",
        "dcqcn-rp-off|ROCE_DCQCN_OFF",
        "bond-layer2|ROCE_BOND_ONE_LINK",
        "bond-layer34-qps4|"})
    void eachCaptureRaisesWhatItsReadmeStates(String scenario, String codes) {
        List<String> expected = codes == null ? List.of() : List.of(codes.split(" "));
        assertThat(findings(capture(scenario))).extracting(Finding::code).as(scenario).containsExactlyElementsOf(expected);
    }

    @Test
    void thePopularGidIndexThreeIsALinkLocalV2GidOnThisConnectX6() {
        Finding f = findings(capture("gid-index-3")).get(0);
        assertThat(f.subject()).isEqualTo("mlx5_0 port 1");
        assertThat(f.evidence()).containsExactly(
                "NCCL_IB_GID_INDEX=3: index 3 fe80:0000:0000:0000:1186:a6b1:3f0b:c441 (RoCE v2), link-local (not routed)",
                "NCCL 2.21.5+ would choose index 5 0000:0000:0000:0000:0000:ffff:ac13:003c (RoCE v2) unpinned");
    }

    @Test
    void withoutNcclIbTcBothPfcAndDcqcnMissPriorityZero() {
        List<Finding> f = findings(capture("default-tc"));
        assertThat(f.get(1).title()).isEqualTo("DCQCN is off on priority 0, where NCCL's traffic goes: both points");
        assertThat(f.get(1).evidence()).containsExactly("notification point (roce_np) on priorities [3]; reaction point (roce_rp) on "
                + "priorities [3]", "traffic class 0 (NCCL_IB_TC unset: NCCL's default) → DSCP 0 → priority 0; per-port traffic "
                + "class: no such file: /sys/class/infiniband/mlx5_0/tc/1/traffic_class (MLNX_OFED applies one to every QP when set: "
                + "cat /sys/class/infiniband/DEV/tc/1/traffic_class)");
        Finding rp = findings(capture("dcqcn-rp-off")).get(0);
        assertThat(rp.title()).endsWith("priority 3, where NCCL's traffic goes: the reaction point (CNPs are ignored)");
    }

    @Test
    void theBondFindingNamesModeHashAndMembers() {
        Finding f = findings(capture("bond-layer2")).get(0);
        assertThat(f.subject()).isEqualTo("mlx5_bond_0 port 1 (bond0)");
        assertThat(f.title()).isEqualTo("802.3ad bond hashing by layer2: all traffic between two hosts takes one member link");
        assertThat(f.evidence()).containsExactly("bond0: mode 802.3ad, xmit_hash_policy layer2, members [ens1f0, ens1f1]",
                "NCCL_IB_QPS_PER_CONNECTION unset: 1");
    }

    @Test
    void layerThreeFourHashingStillPinsAConnectionWithOneQp() {
        Snapshot s = capture("bond-layer34-qps4");
        Map<String, String> env = new HashMap<>(s.env());
        env.remove("NCCL_IB_QPS_PER_CONNECTION");
        List<Finding> f = findings(with(s, env));
        assertThat(f).extracting(Finding::title).containsExactly(
                "802.3ad bond, but NCCL opens 1 QP per connection (its default): each connection stays on one member link");
    }

    @Test
    void activeBackupAndSingleMemberBondsAreJudgedByTheirMembers() {
        RdmaDevices.Bond backup = new RdmaDevices.Bond("active-backup", Fact.of("layer2"), Fact.of(List.of("a", "b")));
        assertThat(RoceBond.problem(backup, 8, true)).hasValue("bond in active-backup mode: one member carries all RDMA traffic");
        RdmaDevices.Bond single = new RdmaDevices.Bond("802.3ad", Fact.of("layer2"), Fact.of(List.of("a")));
        assertThat(RoceBond.problem(single, 1, false)).as("one member: nothing to spread over").isEmpty();
    }

    // NCCL's GID walk on tables no capture shows

    private static RdmaDevices.Gid gid(int i, String gid, String type) {
        return new RdmaDevices.Gid(i, gid, Fact.of(type), Fact.of("eth0"));
    }

    private static Snapshot table(Map<String, String> env, RdmaDevices.Gid... gids) {
        Fact<Integer> none = Fact.absent("x");
        RdmaDevices.RdmaPort p = new RdmaDevices.RdmaPort(1, Fact.of("ACTIVE"), Fact.of("LinkUp"), Fact.of(100.0), Fact.of("100"),
                Fact.of("Ethernet"), Fact.of(List.of(gids)), Fact.of(List.of()), none, none, none, none, none);
        RdmaDevices.RdmaDevice d = new RdmaDevices.RdmaDevice("mlx5_0", Fact.absent("x"), Fact.of("28.39.1002"), Fact.absent("x"),
                Fact.of(List.of(p)), Fact.of(4129));
        return new Snapshot(Snapshot.SCHEMA_VERSION, "test", "node", "now", "test", List.of(), env,
                Map.of(RdmaProbe.KEY, new RdmaDevices(Fact.of(List.of(d)))));
    }

    private static Snapshot with(Snapshot s, Map<String, String> env) {
        return new Snapshot(s.schemaVersion(), s.toolVersion(), s.hostName(), s.createdAt(), s.source(), s.argv(), env, s.sections());
    }

    private static RoceGids.Choice choice(Snapshot s) {
        RdmaPorts.Port p = RdmaPorts.of(s).orElseThrow().get(0);
        return RoceGids.choose(p, RoceGids.Settings.of(s));
    }

    @Test
    void withOnlyRoceV1IpAddressesNcclTakesTheIpv4V1Gid() {
        Snapshot s = table(Map.of(), gid(0, LINK_LOCAL, "IB/RoCE v1"), gid(2, IPV4, "IB/RoCE v1"));
        assertThat(choice(s).index()).as("a candidate of AF_INET replaces the AF_INET6 index 0 whatever its version").isEqualTo(2);
        assertThat(findings(s).get(0).evidence()).contains("NCCL uses index 2 " + IPV4 + " (IB/RoCE v1): NCCL's own choice "
                + "(AF_INET, RoCE v2)");
    }

    @Test
    void addressFamilyAndRangeSteerTheWalk() {
        RdmaDevices.Gid[] t = {gid(0, LINK_LOCAL, "IB/RoCE v1"), gid(1, LINK_LOCAL, "RoCE v2"), gid(2, IPV4, "IB/RoCE v1"),
            gid(3, IPV4, "RoCE v2"), gid(4, IPV6, "IB/RoCE v1"), gid(5, IPV6, "RoCE v2")};
        assertThat(choice(table(Map.of(), t)).index()).isEqualTo(3);
        assertThat(choice(table(Map.of("NCCL_IB_ADDR_FAMILY", "AF_INET6"), t)).index()).isEqualTo(5);
        assertThat(choice(table(Map.of("NCCL_IB_ADDR_RANGE", "10.0.0.0/24"), t)).index()).isEqualTo(3);
        assertThat(choice(table(Map.of("NCCL_IB_ADDR_RANGE", "10.1.0.0/16"), t)).index()).as("no IPv4 GID in range").isZero();
        assertThat(choice(table(Map.of("NCCL_IB_ROCE_VERSION_NUM", "1"), t)).index()).isEqualTo(2);
        assertThat(findings(table(Map.of("NCCL_IB_ADDR_FAMILY", "AF_INET6"), t))).isEmpty();
    }

    @Test
    void ncclBeforeTwoTwentyOneFiveUsesIndexZeroUnlessTold() {
        RdmaDevices.Gid[] t = {gid(0, LINK_LOCAL, "IB/RoCE v1"), gid(1, LINK_LOCAL, "RoCE v2"), gid(3, IPV4, "RoCE v2")};
        Snapshot old = withNccl(table(Map.of(), t), "2.20.5");
        List<Finding> f = findings(old);
        assertThat(f).extracting(Finding::code).containsExactly("ROCE_GID_INDEX_UNSUITABLE");
        assertThat(f.get(0).evidence().get(0)).isEqualTo("NCCL 2.20.5 uses index 0 when NCCL_IB_GID_INDEX is unset (NCCL chooses "
                + "the GID itself only since 2.21.5): index 0 " + LINK_LOCAL + " (IB/RoCE v1), a RoCE v1 GID (no IP header: no "
                + "DSCP, no ECN, not routed)");
        assertThat(findings(withNccl(table(Map.of(), t), "2.21.5"))).isEmpty();
        assertThat(findings(withNccl(table(Map.of("NCCL_IB_GID_INDEX", "3"), t), "2.18.3"))).isEmpty();
    }

    @Test
    void aPinnedIndexWithoutAGidIsTold() {
        Snapshot s = table(Map.of("NCCL_IB_GID_INDEX", "2"), gid(0, LINK_LOCAL, "IB/RoCE v1"), gid(3, IPV4, "RoCE v2"));
        assertThat(findings(s).get(0).evidence().get(0)).isEqualTo("NCCL_IB_GID_INDEX=2: index 2 holds no GID on this port (zero, "
                + "or past the 2 GIDs read): NCCL cannot connect a QP with it");
    }

    @Test
    void aDscpWrittenIntoNcclIbTcIsPointedOut() {
        RdmaDevices.Qos q = new RdmaDevices.Qos(Fact.of("dscp"), Fact.of(List.of(3)), Fact.absent("default"), Fact.of("OS controlled"));
        RdmaDevices.Netdev nic = new RdmaDevices.Netdev("eth0", Fact.absent("x"), Fact.absent("x"), Fact.absent("x"), Fact.absent("x"),
                Fact.of("up"), Fact.of(q));
        RdmaDevices.RdmaPort p = new RdmaDevices.RdmaPort(1, Fact.of("ACTIVE"), Fact.of("LinkUp"), Fact.of(100.0), Fact.of("100"),
                Fact.of("Ethernet"), Fact.of(List.of(gid(3, IPV4, "RoCE v2"))), Fact.of(List.of(nic)), Fact.absent("x"),
                Fact.absent("x"), Fact.absent("x"), Fact.absent("x"), Fact.absent("no tc"));
        RdmaDevices.RdmaDevice d = new RdmaDevices.RdmaDevice("mlx5_0", Fact.absent("x"), Fact.of("28.39.1002"), Fact.absent("x"),
                Fact.of(List.of(p)), Fact.of(4129));
        Snapshot s = new Snapshot(Snapshot.SCHEMA_VERSION, "test", "node", "now", "test", List.of(), Map.of("NCCL_IB_TC", "26"),
                Map.of(RdmaProbe.KEY, new RdmaDevices(Fact.of(List.of(d)))));
        Finding f = findings(s).get(0);
        assertThat(f.code()).isEqualTo("ROCE_PFC_OFF");
        assertThat(f.evidence()).contains("NCCL_IB_TC=26 looks like a DSCP: NCCL_IB_TC is the whole traffic class byte, DSCP times 4 "
                + "plus the ECN bits, so DSCP 26 is NCCL_IB_TC=104 (106 with ECT(0))");
    }

    private static Snapshot withNccl(Snapshot s, String version) {
        NativeLibrary nccl = new NativeLibrary("NCCL", List.of("libnccl.so.2"), List.of("/usr/lib"), List.of(new NativeLibrary.Copy(
                "/usr/lib/libnccl.so.2", "/usr/lib/libnccl.so." + version, "ldconfig", true, Fact.of(version), Fact.of(version))));
        NativeLibrary none = new NativeLibrary("CUDA", List.of("libcudart.so.12"), List.of(), List.of());
        Map<String, Object> sections = new HashMap<>(s.sections());
        sections.put(LibrariesProbe.KEY, new Libraries(none, none, nccl));
        return new Snapshot(s.schemaVersion(), s.toolVersion(), s.hostName(), s.createdAt(), s.source(), s.argv(), s.env(), sections);
    }
}
