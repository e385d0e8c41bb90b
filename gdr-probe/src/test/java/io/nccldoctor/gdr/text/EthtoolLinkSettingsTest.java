package io.nccldoctor.gdr.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Plain `ethtool IFACE` in RDMA pastes: the two real pastes of corpus/rdma (a pod's veth beside show_gids, Soft-RoCE's
 * eth0 before ibstatus) read line by line, then how its link settings meet the RDMA port of the same net device.
 */
class EthtoolLinkSettingsTest {

    /** Mellanox/k8s-rdma-sriov-dev-plugin#30: its 20 ethtool lines were not understood; only the two foreign lines remain. */
    @Test
    void thePodPasteReadsEveryEthtoolLineAndKeepsTheOtherTwoUnread() throws IOException {
        RdmaPaste p = RealPasteShapesTest.read("show-gids-none-found-in-pod.txt");
        assertThat(p.notUnderstood()).extracting(RdmaPaste.Unread::line).containsExactly(6, 41);
        assertThat(p.kinds()).contains(RdmaKind.ETHTOOL_LINK);
        assertThat(p.linkSettings()).singleElement().satisfies(l -> {
            assertThat(l.netdev()).isEqualTo("eth0");
            assertThat(l.line()).isEqualTo(8);
            assertThat(l.speedMbps().get()).isEqualTo(10000);
            assertThat(l.duplex().get()).isEqualTo("Full");
            assertThat(l.port().get()).isEqualTo("Twisted Pair");
            assertThat(l.linkDetected().get()).isTrue();
            assertThat(l.rdmaPort().isValue()).isFalse();
            assertThat(l.refused()).containsExactly("Cannot get wake-on-lan settings: Operation not permitted (ethtool IFACE, line 25)");
        });
        assertThat(p.notes()).anyMatch(n -> n.startsWith("ethtool eth0 (ethtool IFACE, line 8): speed 10000 Mb/s, duplex Full, port "
                + "Twisted Pair, link detected yes") && n.contains("maps eth0 to no RDMA device"));
        assertThat(p.notes()).anyMatch(n -> n.startsWith("show_gids, run without a device argument, found no GID on any port of "
                + "any device it could see (n_gids_found=0, show_gids, line 4)"));
    }

    /** SoftRoCE/rxe-dev#52: link-mode lists and the message level's names continue on lines without a colon. */
    @Test
    void theSoftRocePasteReadsContinuationLinesAsKnown() throws IOException {
        RdmaPaste p = RealPasteShapesTest.read("ethtool-rxe-softroce-eth0-1000baset-then-ibstatus-cut.txt");
        assertThat(p.notUnderstood()).isEmpty();
        assertThat(p.linkSettings()).singleElement().satisfies(l -> {
            assertThat(l.speedMbps().get()).isEqualTo(1000);
            assertThat(l.linkDetected().get()).isTrue();
        });
        // Settings for, Speed, Duplex, Port, Link detected; the other 15 ethtool lines are known, not needed
        assertThat(p.sections().get(0)).isEqualTo(new RdmaPaste.Section(RdmaKind.ETHTOOL_LINK, 2, 25, 5));
        assertThat(p.lines().known()).isGreaterThanOrEqualTo(15);
    }

    /** openucx/ucx#10430: two nodes' `ethtool bond0`, each in its own fence; the second is said, not merged silently. */
    @Test
    void aBondPrintedByTwoNodesIsReadOnceAndTheSecondSaid() throws IOException {
        RdmaPaste p = RealPasteShapesTest.read("ethtool-bond0-roce-lag-two-nodes-200g.txt");
        assertThat(p.notUnderstood()).isEmpty();
        assertThat(p.linkSettings()).singleElement().satisfies(l -> {
            assertThat(l.speedMbps().get()).isEqualTo(200000);
            assertThat(l.port().get()).isEqualTo("Other");
            assertThat(l.line()).isEqualTo(3);
        });
        assertThat(p.notes()).anyMatch(n -> n.startsWith("ethtool bond0 printed again (ethtool IFACE, line 24) after ethtool IFACE, line 3"));
        assertThat(p.notes()).noneMatch(n -> n.contains("but") && n.contains("bond0"));
    }

    /** ethtool.c prints "Unknown!" for speed 0 or SPEED_UNKNOWN, with the raw value in older versions. */
    @Test
    void anUnknownSpeedIsAnErrorWithItsLineNotAZero() {
        RdmaPaste p = parse(ethtool("ens1f0", "Speed: Unknown! (65535)", "Duplex: Unknown! (255)", "Link detected: no"));
        assertThat(p.notUnderstood()).isEmpty();
        RdmaPaste.LinkSettings l = p.linkSettings().get(0);
        assertThat(l.speedMbps().isError()).isTrue();
        assertThat(l.speedMbps().reason()).contains("Speed: Unknown! (65535)").contains("ethtool IFACE, line 2");
        assertThat(l.duplex().get()).isEqualTo("Unknown! (255)");
        assertThat(l.linkDetected().get()).isFalse();
        assertThat(parse(ethtool("ens1f0", "Speed: fast")).notUnderstood()).extracting(RdmaPaste.Unread::text).containsExactly("\tSpeed: fast");
        // a paste that lost the tabs
        RdmaPaste flat = parse(List.of("Settings for eth1:", "Speed: 100Mb/s", "Link detected: yes", "Wake-on: d", "Colour: blue"));
        assertThat(flat.linkSettings().get(0).speedMbps().get()).isEqualTo(100);
        assertThat(flat.notUnderstood()).extracting(RdmaPaste.Unread::text).containsExactly("Colour: blue");
    }

    /** A RoCE port is DOWN unless its net device has carrier: "Link detected: no" makes it DOWN when no tool printed its state. */
    @Test
    void noLinkOnTheNetDeviceOfAnEthernetPortMakesThePortDown() {
        List<String> lines = new ArrayList<>(List.of("mlx5_0 port 1 ==> ens1f0 (Down)",
                "/sys/class/infiniband/mlx5_0/ports/1/link_layer:Ethernet"));
        lines.addAll(ethtool("ens1f0", "Speed: Unknown!", "Port: Direct Attach Copper", "Link detected: no"));
        RdmaPaste p = parse(lines);
        Map<String, String> f = PasteFactsView.of(p);
        assertThat(f).containsEntry("mlx5_0/1 state", "DOWN").containsEntry("mlx5_0/1 link layer", "Ethernet")
                .doesNotContainKey("mlx5_0/1 phys");
        assertThat(p.linkSettings().get(0).rdmaPort().get()).isEqualTo("mlx5_0 port 1");
        assertThat(p.notes()).anyMatch(n -> n.startsWith("mlx5_0 port 1 state DOWN, from its net device "
                + "ens1f0 (ethtool IFACE, line 3): \"Link detected: no\" (ethtool IFACE, line 6)"));

        // without a link layer the port may be InfiniBand, whose IPoIB carrier drops with the port ACTIVE: a note only
        List<String> unknown = new ArrayList<>(List.of("mlx5_0 port 1 ==> ib0 (Down)"));
        unknown.addAll(ethtool("ib0", "Link detected: no"));
        RdmaPaste u = parse(unknown);
        assertThat(PasteFactsView.of(u)).doesNotContainEntry("mlx5_0/1 state", "DOWN");
        assertThat(u.notes()).anyMatch(n -> n.startsWith("mlx5_0 port 1: its net device ib0 (ethtool IFACE, line 2) has no link detected"));
    }

    @Test
    void anActivePortWithoutLinkAndASpeedBelowTheRateAreNotes() {
        List<String> lines = new ArrayList<>(List.of("CA 'mlx5_0'", "\tCA type: MT4125", "\tNumber of ports: 1", "\tPort 1:",
                "\t\tState: Active", "\t\tPhysical state: LinkUp", "\t\tRate: 100", "\t\tLink layer: Ethernet",
                "mlx5_0 port 1 ==> ens1f0 (Up)"));
        lines.addAll(ethtool("ens1f0", "Speed: 25000Mb/s", "Link detected: no"));
        RdmaPaste p = parse(lines);
        assertThat(PasteFactsView.of(p)).containsEntry("mlx5_0/1 state", "ACTIVE");
        assertThat(p.notes()).anyMatch(n -> n.startsWith("mlx5_0 port 1 is ACTIVE (ibstat, line 5) but its net device ens1f0"));
        assertThat(p.notes()).anyMatch(n -> n.startsWith("mlx5_0 port 1: its net device ens1f0 (ethtool IFACE, line 10) runs at 25000 Mb/s "
                + "(ethtool IFACE, line 11), below the port's active rate"));
        lines.set(lines.size() - 2, "\tSpeed: 100000Mb/s");
        assertThat(parse(lines).notes()).noneMatch(n -> n.contains("below the port's active rate"));
    }

    /** show_gids walks only the devices its command line names: its n_gids_found=0 says which. */
    @Test
    void showGidsNamingADeviceSaysWhichDeviceHasNoGid() {
        RdmaPaste p = parse(List.of("$ show_gids mlx5_1", "DEV\tPORT\tINDEX\tGID\t\t\t\t\tIPv4  \t\tVER\tDEV",
                "---\t----\t-----\t---\t\t\t\t\t------------  \t---\t---", "n_gids_found=0"));
        assertThat(p.notes()).anyMatch(n -> n.startsWith("show_gids mlx5_1 found no GID on any port of mlx5_1 (n_gids_found=0, "
                + "show_gids, line 4): none of its ports has a GID"));
        assertThat(p.notes()).noneMatch(n -> n.contains("any device"));
    }

    private static List<String> ethtool(String netdev, String... settings) {
        List<String> out = new ArrayList<>(List.of("Settings for " + netdev + ":"));
        for (String s : settings) {
            out.add("\t" + s);
        }
        return out;
    }

    private static RdmaPaste parse(List<String> lines) {
        return RdmaTextReader.parse(lines, "test");
    }
}
