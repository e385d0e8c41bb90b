package io.nccldoctor.gdr.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * `mst status -v` read per PCI function, `rdma res` rows kept apart from `rdma link` ports, libibverbs' own warnings
 * said, and ibv_devices as it prints (a tab between columns). Each text is a corpus file copied verbatim from its
 * source (corpus/rdma/README.md).
 */
class MstStatusAndResTest {

    @Test
    void mstStatusGivesEachFunctionsRdmaDevicePciAddressAndNetDevice() throws IOException {
        RdmaPaste p = RealPasteShapesTest.read("mst-status-v-cx7-6hca-h100-ib.txt");
        assertThat(p.kinds()).containsExactly(RdmaKind.MST_STATUS);
        assertThat(p.headed()).as("the DEVICE_TYPE … NUMA header is mst's own").isTrue();
        Map<String, String> f = PasteFactsView.of(p);
        assertThat(f).containsEntry("devices", "6").containsEntry("mlx5_5 pci", "0000:e5:00.0").containsEntry("mlx5_0 pci", "0000:41:00.0")
                .containsEntry("mlx5_5/1 netdevs", "ibp229s0").containsEntry("mlx5_0/1 netdevs", "ibp65s0");
        assertThat(p.rdma().devices().get()).allMatch(d -> d.ports().get().get(0).state().isAbsent(), "mst prints no port state");
        assertThat(p.notUnderstood()).isEmpty();
        assertThat(p.lines().facts()).isEqualTo(6);
    }

    /** Rows with a blank line between them, the last one cut after its NET column: all seven read, none shifted. */
    @Test
    void mstStatusRowsWithBlankLinesBetweenThemAndACutLastRow() throws IOException {
        RdmaPaste p = RealPasteShapesTest.read("mst-status-v-cx7-8hca-blank-rows-cut.txt");
        Map<String, String> f = PasteFactsView.of(p);
        assertThat(f).containsEntry("devices", "7").containsEntry("mlx5_10 pci", "0000:e3:00.0").containsEntry("mlx5_10/1 netdevs", "ib7")
                .containsEntry("mlx5_9/1 netdevs", "ib8").containsEntry("mlx5_2 pci", "0000:3b:00.0").containsEntry("mlx5_2/1 netdevs", "ib2");
        assertThat(p.notUnderstood()).isEmpty();
    }

    /** An empty RDMA column (mst's VMware build): the function is said, no device is made of its net device's name. */
    @Test
    void mstStatusRowWithoutAnRdmaDeviceMakesNoDevice() throws IOException {
        RdmaPaste p = RealPasteShapesTest.read("mst-status-vv-vmware-no-rdma-column.txt");
        assertThat(p.rdma().devices().isValue()).isFalse();
        assertThat(p.notes()).hasSize(4).first().asString()
                .startsWith("mst status lists no RDMA device for the ConnectX4(rev:0) function at 0000:03:00.0 (mst status, line 4)");
        assertThat(p.notUnderstood()).isEmpty();
    }

    /** A QP row "link ibp0s9/1 lqpn 0 … state RTS" is rdma res', not a port line: its state is the queue pair's. */
    @Test
    void rdmaResQueuePairRowsAreNotPortLines() throws IOException {
        RdmaPaste p = RealPasteShapesTest.read("rdma-dev-link-res-qp-smi-gsi-two-ports.txt");
        assertThat(p.kinds()).containsExactly(RdmaKind.RDMA_DEV, RdmaKind.RDMA_LINK, RdmaKind.RDMA_RES);
        Map<String, String> f = PasteFactsView.of(p);
        assertThat(f).containsEntry("ibp0s9 fw", "4.4.9999").containsEntry("ibp0s9/1 state", "ACTIVE").containsEntry("ibp0s9/1 lid", "13397");
        assertThat(f.get("ibp0s9/2 state")).as("rdma link printed UNKNOWN: a state outside its table, not known, not misread")
                .contains("rdma link printed state UNKNOWN").doesNotContain("error");
        assertThat(f.get("ibp0s9/2 phys")).contains("rdma link printed physical_state UNKNOWN");
        assertThat(p.notes()).noneMatch(n -> n.contains("lqpn"));
        assertThat(p.lines().known()).isEqualTo(6);
        assertThat(p.notUnderstood()).extracting(RdmaPaste.Unread::text).containsExactly("Before:", "After:");
    }

    @Test
    void libibverbsWarningsSayWhichVerbsDevicesHadNoUserspaceDriver() throws IOException {
        RdmaPaste p = RealPasteShapesTest.read("ibv-devinfo-no-userspace-driver-no-ib-devices.txt");
        assertThat(p.notes()).hasSize(2).first().asString().startsWith("libibverbs found /sys/class/infiniband_verbs/uverbs1 and no "
                + "userspace driver for it (line 8)");
        assertThat(p.notUnderstood()).noneMatch(u -> u.text().startsWith("libibverbs"));
        assertThat(p.rdma().devices().get()).as("ibv_devinfo said No IB devices found").isEmpty();
    }

    /** ibv_devices' rows as device_list.c prints them, a tab before the GUID; then ibv_devinfo failing to open it. */
    @Test
    void ibvDevicesWithTabsThenFailedToOpen() throws IOException {
        RdmaPaste p = RealPasteShapesTest.read("ibv-devices-iwarp-then-ibv-devinfo-failed-to-open.txt");
        assertThat(p.kinds()).containsExactly(RdmaKind.IBV_DEVICES, RdmaKind.IBV_DEVINFO);
        assertThat(PasteFactsView.of(p)).containsEntry("devices", "1").containsEntry("iwp0s3 guid", "9a15:0bce:93c3:3a74");
        assertThat(p.unopened()).isEqualTo(1);
        assertThat(p.notUnderstood()).extracting(RdmaPaste.Unread::text).containsExactly(" Couldn't get context for the device",
                " Couldn't get context for the device");
    }
}
