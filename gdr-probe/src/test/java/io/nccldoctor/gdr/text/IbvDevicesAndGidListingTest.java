package io.nccldoctor.gdr.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * `ibv_devices` read into the device list, and show_gids listings that show a device's whole GID table (so a port
 * without a row has no GID). The texts are corpus files copied verbatim from their sources (corpus/rdma/README.md).
 */
class IbvDevicesAndGidListingTest {

    static List<String> lines(String file) throws IOException {
        return Files.readAllLines(RealPasteShapesTest.CORPUS.resolve(file));
    }

    @Test
    void ibvDevicesGivesNamesAndNodeGuidsThatIbstatAgreesWith() throws IOException {
        RdmaPaste p = RealPasteShapesTest.read("ibv-devices-then-ibstat-mlx4-and-two-irdma.txt");
        assertThat(p.kinds()).containsExactly(RdmaKind.IBV_DEVICES, RdmaKind.IBSTAT);
        Map<String, String> f = PasteFactsView.of(p);
        assertThat(f).containsEntry("devices", "3").containsEntry("mlx4_0 guid", "0002:c903:00b3:82a0")
                .containsEntry("irdma0 guid", "ae1f:6bff:feec:331c").containsEntry("irdma1 guid", "ae1f:6bff:feec:331d")
                .containsEntry("mlx4_0/2 state", "ACTIVE").containsEntry("mlx4_0/1 state", "DOWN");
        assertThat(p.notUnderstood()).isEmpty();
        assertThat(p.notes()).noneMatch(n -> n.contains("node GUID:")) // ibstat's 0x0002c90300b382a0 is the same GUID
                .anyMatch(n -> n.startsWith("ibv_devices lists irdma0, irdma1 with their node GUIDs only: ports, port state"));
        assertThat(p.rdma().devices().get().get(1).ports().reason()).contains("ibv_devices, line 5");
    }

    /** The ibv_devices block alone (the first six lines of the same text): the devices, and that port state is not in it. */
    @Test
    void ibvDevicesAloneGivesTheDevicesAndSaysPortStateIsNotInIt() throws IOException {
        RdmaPaste p = RdmaTextReader.parse(lines("ibv-devices-then-ibstat-mlx4-and-two-irdma.txt").subList(0, 6), "ibv_devices");
        assertThat(p.kinds()).containsExactly(RdmaKind.IBV_DEVICES);
        assertThat(p.headed()).isTrue();
        assertThat(p.rdma().devices().get()).extracting(d -> d.name()).containsExactly("mlx4_0", "irdma0", "irdma1");
        assertThat(p.rdma().devices().get()).allMatch(d -> !d.ports().isValue() && !d.fwVersion().isValue());
        assertThat(p.notes()).singleElement().asString().startsWith("ibv_devices lists mlx4_0, irdma0, irdma1 with their node GUIDs "
                + "only: ports, port state, link layer and firmware are not in its output");
        assertThat(p.lines().facts()).isEqualTo(3);
        assertThat(p.lines().known()).isEqualTo(2);
    }

    /** The header without rows says nothing about the host: an excerpt may be cut there. */
    @Test
    void ibvDevicesHeaderWithoutRowsConcludesNothing() throws IOException {
        RdmaPaste p = RdmaTextReader.parse(lines("ibv-devices-then-ibstat-mlx4-and-two-irdma.txt").subList(0, 3), "cut");
        assertThat(p.rdma().devices().isValue()).isFalse();
        assertThat(p.notes()).anyMatch(n -> n.startsWith("ibv_devices printed its header and no device (ibv_devices, line 2)"));
    }

    @Test
    void showGidsWithNoRowShowsTheDeviceIbvDevicesListsWithoutAGid() throws IOException {
        RdmaPaste p = RealPasteShapesTest.read("show-gids-none-found-in-pod.txt");
        assertThat(p.kinds()).contains(RdmaKind.SHOW_GIDS, RdmaKind.IBV_DEVICES);
        assertThat(PasteFactsView.of(p)).containsEntry("devices", "1").containsEntry("mlx5_0 guid", "9803:9b03:003b:0346");
        assertThat(p.withoutGid()).containsExactly(Map.entry("mlx5_0", "show_gids, line 4"));
        assertThat(p.rdma().devices().get().get(0).ports().reason()).contains("show_gids (show_gids, line 4) lists no GID on any of its ports");
    }

    /**
     * `show_gids mlx5_0` walks mlx5_0's ports only: a device it does not name is not taken to have no GID. The listing
     * is the real one of IBM/SpectrumScale_NETWORK_READINESS PR #4 (the gdr-probe fixture show-gids-cx6.txt) under
     * the command line its source printed; the other device is the ibdev2netdev rows of a real corpus file.
     */
    @Test
    void aListingOfOneNamedDeviceSaysNothingOfAnother() throws IOException {
        List<String> text = new ArrayList<>(List.of("[root@localhost ~]# show_gids mlx5_0"));
        text.addAll(Files.readAllLines(Path.of("src/test/resources/fixtures/public/show-gids-cx6.txt")));
        text.addAll(lines("ibdev2netdev-mlx4-ib0-ib1-up.txt"));
        RdmaPaste p = RdmaTextReader.parse(text, "two");
        Map<String, String> f = PasteFactsView.of(p);
        assertThat(f).containsEntry("mlx5_0/1 gids", "6");
        assertThat(f.get("mlx4_0/1 gids")).startsWith("absent: no GID table of this port in the input");
        assertThat(p.withoutGid()).isEmpty();
    }

    /**
     * Without a device argument show_gids walks every device: a port the input gives (ibdev2netdev) with no row has
     * an empty GID table. Composed of two real texts: the pod's show_gids block (n_gids_found=0, lines 1-4 of
     * show-gids-none-found-in-pod.txt) and the ibdev2netdev rows of ibdev2netdev-mlx4-ib0-ib1-up.txt.
     */
    @Test
    void aPortOfACoveredDeviceWithoutARowHasAnEmptyGidTable() throws IOException {
        List<String> text = new ArrayList<>(lines("show-gids-none-found-in-pod.txt").subList(0, 4));
        text.addAll(lines("ibdev2netdev-mlx4-ib0-ib1-up.txt"));
        RdmaPaste p = RdmaTextReader.parse(text, "composed");
        Map<String, String> f = PasteFactsView.of(p);
        assertThat(f).containsEntry("mlx4_0/1 gids", "0").containsEntry("mlx4_0/2 gids", "0");
        assertThat(p.notes()).anyMatch(n -> n.startsWith("mlx4_0 port 1: show_gids (show_gids, line 4) lists every GID of mlx4_0 "
                + "and none of this port"));
        assertThat(p.withoutGid()).isEmpty(); // its ports are in the input: the port rules judge them
    }
}
