package io.nccldoctor.gdr.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.InputException;
import io.nccldoctor.gdr.RdmaDevices;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Real RDMA pastes of corpus/rdma (its README cites each) that hold another tool's output too, a section without its
 * header, values elided by hand, or a device ibstat could not read: what is readable is read, the rest counted.
 */
class MixedPasteSectionsTest {

    private static RdmaPaste parse(String file) throws IOException {
        return RdmaTextReader.parse(Files.readAllLines(Path.of("../corpus/rdma", file)), file);
    }

    private static List<Integer> unread(RdmaPaste p) {
        return p.notUnderstood().stream().map(RdmaPaste.Unread::line).toList();
    }

    /** `ip addr` after `rdma link`: each net device's MTU and state; the lspci lines are the only ones not read. */
    @Test
    void ipAddrGivesEachNetDevicesMtuAndState() throws IOException {
        RdmaPaste p = parse("lspci-rdma-link-ip-addr-cx6dx-netdev-mtu1500.txt");
        assertThat(p.kinds()).containsExactly(RdmaKind.RDMA_LINK, RdmaKind.IP);
        Map<String, String> f = PasteFactsView.of(p);
        assertThat(f).containsEntry("mlx5_0/1 netdevs", "p1p1").containsEntry("mlx5_1/1 netdevs", "p1p2")
                .containsEntry("netdev p1p1 mtu", "1500").containsEntry("netdev p1p1 link", "up")
                .containsEntry("netdev p1p2 mtu", "1500").containsEntry("netdev p1p2 link", "up")
                .containsEntry("netdev lo mtu", "65536").containsEntry("netdev lo link", "unknown");
        assertThat(unread(p)).containsExactly(2, 3);
        assertThat(p.lines().skipped()).as("three commands and the prompt with nothing typed").isEqualTo(4);
        RdmaDevices.Netdev p1p1 = p.rdma().devices().get().get(0).ports().get().get(0).netdevs().get().get(0);
        assertThat(p1p1.ipv4().reason()).contains("printed by ip addr (ip, line 17)").contains("arp_ignore");
    }

    /** `ip addr` alone (20 real lines of corpus/rdma's Soft-RoCE paste) names no RDMA device: not RDMA state. */
    @Test
    void ipAddrAloneIsNotRdmaState() throws IOException {
        List<String> ip = Files.readAllLines(Path.of("../corpus/rdma/rdma-link-rxe-softroce-with-ip-addr.txt")).subList(3, 23);
        assertThatThrownBy(() -> RdmaTextReader.parse(ip, "ip.txt")).isInstanceOf(InputException.class)
                .hasMessageContaining("(only `ip addr` or `ip link`, which names no RDMA device)")
                .hasMessageNotContaining("mlxfwmanager, ip)");
    }

    /** mlxfwmanager is read; mlxlink's port lines, which name no RDMA device, are counted as not understood. */
    @Test
    void mlxfwmanagerIsReadAndMlxlinkCounted() throws IOException {
        RdmaPaste p = parse("mlxfwmanager-spectrum-switch-then-mlxlink.txt");
        assertThat(p.kinds()).containsExactly(RdmaKind.MLXFWMANAGER);
        assertThat(p.adapters()).singleElement().satisfies(a -> {
            assertThat(a.fw().get()).isEqualTo("13.1703.0000");
            assertThat(a.psid().get()).isEqualTo("MT_2860112033");
            assertThat(a.pci().get()).isEqualTo("/dev/mst/mt52100_pci_cr0");
        });
        assertThat(p.notUnderstood()).extracting(RdmaPaste.Unread::text).contains("Operational Info",
                "State                           : Active", "Physical state                  : LinkUp");
        assertThat(p.lines().notUnderstood()).isEqualTo(p.notUnderstood().size()).isGreaterThan(p.lines().facts());
    }

    /** rdma_cm's default_roce_mode read, written, read again: the last reading is the setting, the change a note. */
    @Test
    void configfsDefaultRoceModeIsAFact() throws IOException {
        RdmaPaste p = parse("ibstat-unindented-then-configfs-default-roce-mode.txt");
        assertThat(p.rdmaCm()).singleElement().satisfies(c -> {
            assertThat(c.device() + "/" + c.port() + " " + c.setting()).isEqualTo("mlx5_0/1 default_roce_mode");
            assertThat(c.value()).isEqualTo("RoCE v1");
            assertThat(c.line()).isEqualTo(31);
        });
        assertThat(p.notes()).anyMatch(n -> n.equals("mlx5_0 port 1 default_roce_mode: RoCE v2 (sysfs, line 28), then written "
                + "RoCE v1 (line 29), then RoCE v1 (sysfs, line 31); the last reading is taken"));
        assertThat(p.notes()).anyMatch(n -> n.startsWith("mlx5_0 port 1: rdma_cm gives its connections RoCE v1")
                && n.contains("NCCL does not use rdma_cm"));
        assertThat(PasteFactsView.of(p)).containsEntry("mlx5_0 fw", "12.17.1010").containsEntry("mlx5_0/1 link layer", "Ethernet");
    }

    /** A port section without "hca_id:": read, its device unnamed; "**GID[ 14]" (Markdown bold) is a GID line. */
    @Test
    void aPortSectionWithoutItsDeviceIsRead() throws IOException {
        RdmaPaste p = parse("ibv-devinfo-v-port-section-without-hca-id.txt");
        String port = RdmaPaste.UNNAMED + "/1";
        assertThat(PasteFactsView.of(p)).containsEntry("devices", "1").containsEntry(port + " state", "ACTIVE")
                .containsEntry(port + " phys", "LinkUp").containsEntry(port + " link layer", "Ethernet")
                .containsEntry(port + " active mtu", "4096").containsEntry(port + " gbps", "25.0").containsEntry(port + " gids", "2");
        assertThat(p.notUnderstood()).isEmpty();
        assertThat(p.notes()).anyMatch(n -> n.startsWith("ibv_devinfo port 1 without the hca_id line above it (ibv_devinfo, line 1)"));
    }

    /** "Firmware version: ..." is an elision, not a firmware; ibpanic's "stat … failed" says the next HCA is missing. */
    @Test
    void elidedValuesAndAMissingDevice() throws IOException {
        RdmaPaste p = parse("ibstat-elided-values-then-ibpanic-missing-device.txt");
        Map<String, String> f = PasteFactsView.of(p);
        assertThat(f).doesNotContainKeys("mlx5_7 fw", "mlx5_7 guid").containsEntry("mlx5_7/1 state", "ACTIVE")
                .containsEntry("mlx5_7/1 lid", "13305").containsEntry("devices", "2");
        assertThat(p.notes()).anyMatch(n -> n.equals("mlx5_7 Firmware version: elided as '...' in the input (ibstat, line 6), not read"));
        RdmaDevices.RdmaDevice missing = p.rdma().devices().get().get(1);
        assertThat(missing.name()).isEqualTo("mlx5_8");
        assertThat(missing.ports().isAbsent()).isTrue();
        assertThat(missing.ports().reason()).contains("stat of IB device 'mlx5_8' failed: No such file or directory")
                .contains("the HCA is missing there");
        assertThat(unread(p)).as("only the author's '...' line above the output").containsExactly(1);
    }
}
