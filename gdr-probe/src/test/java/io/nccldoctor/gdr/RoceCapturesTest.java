package io.nccldoctor.gdr;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.TestHosts;
import io.nccldoctor.core.capture.Capture;
import io.nccldoctor.core.exec.CommandResult;
import io.nccldoctor.gdr.text.QosText;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the live RDMA probe reads from the RoCE captures (fixtures/roce/README.md states each value). */
class RoceCapturesTest {

    static final Path ROCE = Path.of("src/test/resources/fixtures/roce");

    static RdmaDevices.RdmaPort port(String scenario) {
        RdmaDevices rdma = new RdmaProbe().run(Capture.open(ROCE.resolve(scenario)).host());
        return rdma.devices().get().get(0).ports().get().get(0);
    }

    static RdmaDevices.Netdev netdev(RdmaDevices.RdmaPort p, String name) {
        return p.netdevs().get().stream().filter(n -> n.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void theRecordedMlnxQosOutputIsReadAsTrustDscpWithPfcOnPriorityThree() {
        RdmaDevices.Netdev nic = netdev(port("healthy"), "ens1f0");
        RdmaDevices.Qos q = nic.qos().get();
        assertThat(q.trust().get()).isEqualTo("dscp");
        assertThat(q.pfcPriorities().get()).containsExactly(3);
        assertThat(q.dscpPriority().get()).containsEntry(26, 3).containsEntry(0, 0).hasSize(64);
        assertThat(q.dcbx().get()).isEqualTo("OS controlled");
    }

    @Test
    void dcqcnSwitchesAreReadPerPriority() {
        RdmaDevices.Dcqcn on = netdev(port("healthy"), "ens1f0").dcqcn().get();
        assertThat(on.notificationPoint().get()).containsExactly(3);
        assertThat(on.reactionPoint().get()).containsExactly(3);
        RdmaDevices.Dcqcn rpOff = netdev(port("dcqcn-rp-off"), "ens1f0").dcqcn().get();
        assertThat(rpOff.reactionPoint().get()).as("roce_rp/enable/0..7 all 0").isEmpty();
    }

    @Test
    void aRoceLagPortNamesTheBondWithItsModeHashPolicyAndMembers() {
        RdmaDevices.RdmaPort p = port("bond-layer2");
        assertThat(p.netdevs().get()).extracting(RdmaDevices.Netdev::name).containsExactly("bond0", "ens1f0");
        RdmaDevices.Bond b = netdev(p, "bond0").bond().get();
        assertThat(b.mode()).isEqualTo("802.3ad");
        assertThat(b.xmitHashPolicy().get()).isEqualTo("layer2");
        assertThat(b.slaves().get()).containsExactly("ens1f0", "ens1f1");
        assertThat(netdev(p, "ens1f0").bond().reason()).startsWith("not a bond");
        assertThat(netdev(p, "bond0").dcqcn().reason()).contains("no /sys/class/net/bond0/ecn");
        assertThat(netdev(p, "bond0").qos().reason()).as("mlnx_qos of the bond was not recorded")
                .isEqualTo("not in the capture: mlnx_qos -i bond0");
    }

    @Test
    void theGidTableIsTheRealShowGidsListingWithItsTypes() {
        List<RdmaDevices.Gid> gids = port("healthy").gids().get();
        assertThat(gids).extracting(RdmaDevices.Gid::index).containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(gids.get(5).gid()).isEqualTo("0000:0000:0000:0000:0000:ffff:ac13:003c");
        assertThat(gids.get(5).type().get()).isEqualTo("RoCE v2");
        assertThat(gids.get(4).type().get()).isEqualTo("IB/RoCE v1");
    }

    @Test
    void mlnxQosThatPrintsNoTableIsAnErrorNamingTheLine() {
        Fact<RdmaDevices.Qos> q = QosText.parse("eth9", List.of("Netlink error: Operation not supported"));
        assertThat(q.isError()).isTrue();
        assertThat(q.describe()).contains("printed no trust state and no PFC table").contains("Netlink error");
    }

    @Test
    void anInfinibandPortIsNotAskedForQosAndMlnxQosIsTriedWhereItLives(@TempDir Path root) {
        var h = TestHosts.at(root).link("/sys/class/infiniband/mlx5_0", "../../devices/pci0000:00/0000:00:01.1/0000:02:00.0/infiniband/mlx5_0")
                .link("/sys/devices/pci0000:00/0000:00:01.1/0000:02:00.0/infiniband/mlx5_0/device", "../../../0000:02:00.0")
                .file("/sys/devices/pci0000:00/0000:00:01.1/0000:02:00.0/infiniband/mlx5_0/ports/1/link_layer", "InfiniBand\n")
                .dir("/sys/devices/pci0000:00/0000:00:01.1/0000:02:00.0/net/ib0")
                .file("/sys/class/net/ib0/mtu", "4092\n");
        RdmaDevices.Netdev ib0 = new RdmaProbe().run(h.host()).devices().get().get(0).ports().get().get(0).netdevs().get().get(0);
        assertThat(ib0.name()).isEqualTo("ib0");
        assertThat(ib0.qos().reason()).startsWith("not run: PFC and trust are Ethernet settings");
        h.file("/sys/devices/pci0000:00/0000:00:01.1/0000:02:00.0/infiniband/mlx5_0/ports/1/link_layer", "Ethernet\n")
                .command(new CommandResult.NotRun(List.of("mlnx_qos", "-i", "ib0"), "command not found: mlnx_qos"));
        ib0 = new RdmaProbe().run(h.host()).devices().get().get(0).ports().get().get(0).netdevs().get().get(0);
        assertThat(ib0.qos().reason()).as("after PATH, /usr/sbin/mlnx_qos is tried")
                .isEqualTo("not in the capture: /usr/sbin/mlnx_qos -i ib0");
    }
}
