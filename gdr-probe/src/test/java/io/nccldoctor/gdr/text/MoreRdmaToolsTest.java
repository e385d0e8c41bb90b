package io.nccldoctor.gdr.text;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.gdr.RdmaDevices;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Real pastes of RDMA state that were refused or read in part: a bare `ethtool -i`, `ibportstate` with its peer port,
 * `ls -l` of /dev/infiniband, /sys/class/infiniband and /sys/class/net, ibv_devinfo's "Failed to open device" lines,
 * and an ibv_devinfo excerpt that starts inside a port section. Each is the corpus file copied verbatim from its
 * source (corpus/rdma/README.md).
 */
class MoreRdmaToolsTest {

    private static RdmaPaste read(String file) throws IOException {
        return RealPasteShapesTest.read(file);
    }

    /** isc-projects/ethq#8: mlx5's firmware-version is "%d.%d.%04d (%.16s)", the firmware then the PSID. */
    @Test
    void aBareEthtoolDashIGivesDriverFirmwarePsidAndPciFunction() throws IOException {
        RdmaPaste p = read("ethtool-i-cx4lx-mlx5-core-fw-psid-bare.txt");
        assertThat(p.kinds()).containsExactly(RdmaKind.ETHTOOL_INFO);
        assertThat(p.notUnderstood()).isEmpty();
        assertThat(p.lines().facts()).isEqualTo(3);
        assertThat(p.driverInfo()).singleElement().satisfies(d -> {
            assertThat(d.netdev()).isEqualTo(RdmaPaste.UNNAMED);
            assertThat(d.driver().get()).isEqualTo("mlx5_core");
            assertThat(d.firmware().get()).isEqualTo("14.23.1020");
            assertThat(d.psid().get()).isEqualTo("MT_2420110034");
            assertThat(d.busInfo().get()).isEqualTo("0000:af:00.0");
            assertThat(d.rdmaDevice().isValue()).isFalse();
        });
        assertThat(p.notes()).anyMatch(n -> n.startsWith("ethtool -i (ethtool -i, line 1): driver mlx5_core, firmware 14.23.1020 "
                + "(PSID MT_2420110034), PCI 0000:af:00.0: the input places no RDMA device at that PCI function"));
    }

    /** With the device's PCI function in the same paste, the firmware becomes the device's, as sysfs fw_ver would. */
    @Test
    void ethtoolDashIGivesItsFirmwareToTheRdmaDeviceAtItsPciFunction() {
        RdmaPaste p = RdmaTextReader.parse(List.of("$ ls -l /sys/class/infiniband",
                "lrwxrwxrwx 1 root root 0 Nov 21 02:18 mlx5_0 -> ../../devices/pci0000:ae/0000:ae:00.0/0000:af:00.0/infiniband/mlx5_0",
                "$ ethtool -i ens1f0", "driver: mlx5_core", "version: 5.0-0", "firmware-version: 14.23.1020 (MT_2420110034)",
                "bus-info: 0000:af:00.0"), "mixed");
        assertThat(PasteFactsView.of(p)).containsEntry("mlx5_0 fw", "14.23.1020").containsEntry("mlx5_0 pci", "0000:af:00.0");
        assertThat(p.driverInfo().get(0).netdev()).isEqualTo("ens1f0");
        assertThat(p.driverInfo().get(0).rdmaDevice().get()).isEqualTo("mlx5_0");
    }

    /** tuananh0788/Exadata#2: a QDR switch port and its peer, LinkState Active, PhysLinkState LinkUp, 4X × 10.0 Gbps. */
    @Test
    void ibportstateGivesEachFabricPortItsStatesWidthAndSpeedApartFromTheHostsDevices() throws IOException {
        RdmaPaste p = read("ibportstate-switch-port-qdr-active-with-peer.txt");
        assertThat(p.kinds()).containsExactly(RdmaKind.IBPORTSTATE);
        assertThat(p.rdma().devices().isValue()).isFalse();
        assertThat(p.fabric()).extracting(RdmaDevices.RdmaDevice::name).containsExactly("Lid 1 DR path slid 2; dlid 65535; 0,17", "Lid 1",
                "Lid 1 DR path slid 2; dlid 65535; 0,18");
        RdmaDevices.RdmaPort port18 = p.fabric().get(1).ports().get().get(0);
        assertThat(port18.number()).isEqualTo(18);
        assertThat(port18.state().get()).isEqualTo("ACTIVE");
        assertThat(port18.physState().get()).isEqualTo("LinkUp");
        assertThat(port18.rateGbps().get()).isEqualTo(40.0);
        assertThat(port18.linkLayer().get()).isEqualTo("InfiniBand");
        assertThat(p.fabric().get(2).ports().get().get(0).number()).isEqualTo(17);
        assertThat(p.notes()).contains("ibportstate Lid 1 port 18: ACTIVE (LinkUp), 4X × 10.0 Gbps (LinkWidthActive × LinkSpeedActive); "
                + "a fabric port reached by that address (a switch's, or the far end of a link), not one of this host's RDMA devices: "
                + "kept apart (fabric), not judged by the port rules");
        // the cut last line ("P") is the only one not understood
        assertThat(p.notUnderstood()).extracting(RdmaPaste.Unread::text).containsExactly("P");
    }

    /** Ext speeds: FDR's 14.0625 Gbps signalling is the 14 Gb/s lane the kernel's rate counts (4X FDR = 56). */
    @Test
    void anExtendedSpeedIsReadFromLinkSpeedExtActive() {
        RdmaPaste p = RdmaTextReader.parse(List.of("# Port info: Lid 38 port 1", "LinkState:.......................Down",
                "PhysLinkState:...................Disabled", "LinkWidthActive:.................4X",
                "LinkSpeedActive:.................Extended speed", "LinkSpeedExtActive:..............14.0625 Gbps",
                "# MLNX ext Port info: Lid 38 port 1", "LinkSpeedActive:.................0x00"), "fdr");
        RdmaDevices.RdmaPort port = p.fabric().get(0).ports().get().get(0);
        assertThat(port.state().get()).isEqualTo("DOWN");
        assertThat(port.physState().get()).isEqualTo("Disabled");
        assertThat(port.rateGbps().get()).isEqualTo(56.0);
    }

    /** The corpus file that starts mid-ibportstate: its fields name no port, and say so. */
    @Test
    void ibportstateFieldsWithoutTheirHeaderAreTheToolsButNoPortsFacts() throws IOException {
        RdmaPaste p = read("ibportstate-ibstat-mlx4-port-disabled.txt");
        assertThat(p.kinds()).containsExactly(RdmaKind.IBPORTSTATE, RdmaKind.IBSTAT);
        assertThat(PasteFactsView.of(p)).containsEntry("devices", "1");
        assertThat(p.notes()).anyMatch(n -> n.startsWith("ibportstate fields without their '# Port info:' line (from ibportstate, line 2)"));
    }

    /** Mellanox/k8s-rdma-shared-dev-plugin#64: three folders, each under its heading; PCI addresses from the links. */
    @Test
    void lsDashLOfThreeFoldersReadsEveryRowAndThePciAddressOfEachDevice() throws IOException {
        RdmaPaste p = read("ls-l-dev-infiniband-sys-class-infiniband-net.txt");
        assertThat(p.kinds()).containsExactly(RdmaKind.LS);
        assertThat(p.notUnderstood()).isEmpty();
        assertThat(PasteFactsView.of(p)).containsEntry("devices", "2").containsEntry("mlx5_0 pci", "0000:c3:00.0")
                .containsEntry("mlx5_1 pci", "0000:c3:00.1");
        assertThat(p.lines().facts()).isEqualTo(2);
    }

    /** hustcat/k8s-rdma-device-plugin#8: eight devices the container cannot open, around the one VF it can. */
    @Test
    void failedToOpenDeviceLinesAreCountedAndSaid() throws IOException {
        RdmaPaste p = read("ibv-devinfo-failed-to-open-8-devices-container.txt");
        assertThat(p.notUnderstood()).isEmpty();
        assertThat(p.unopened()).isEqualTo(8);
        assertThat(PasteFactsView.of(p)).containsEntry("devices", "1").containsEntry("mlx4_2/1 state", "ACTIVE");
        assertThat(p.notes()).anyMatch(n -> n.startsWith("ibv_devinfo could not open 8 devices it found (\"Failed to open device\", "
                + "lines 1, 2, 3, 4, 5, 26, 27, 28)"));
    }

    /** deepseek-ai/DeepEP#38: six port lines of a device above the excerpt, then mlx5_2, then mlx5_3 cut at node_guid. */
    @Test
    void anExcerptStartingInsideAPortKeepsItsLinesInANoteAndJudgesNoGuessedPort() throws IOException {
        RdmaPaste p = read("ibv-devinfo-starts-mid-port-cx7-eth.txt");
        assertThat(p.notUnderstood()).isEmpty();
        Map<String, String> f = PasteFactsView.of(p);
        assertThat(f).containsEntry("devices", "2").containsEntry("mlx5_2/1 active mtu", "4096").containsEntry("mlx5_3 fw", "16.35.4030")
                .doesNotContainKey("mlx5_3 guid");
        assertThat(p.notes()).contains("ibv_devinfo lines 1-6 end a port section whose hca_id and port lines are above the input's first "
                + "line (max_mtu 4096 (5), active_mtu 4096 (5), sm_lid 0, port_lid 0, port_lmc 0x00, link_layer Ethernet): device and "
                + "port not named, so not judged");
        assertThat(p.notes()).contains("mlx5_3 node_guid printed without its value (ibv_devinfo, line 30): the input is cut there");
    }
}
