package io.nccldoctor.gdr;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.TestHosts;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RdmaProbeTest {

    @TempDir
    Path root;

    /** A RoCE port laid out as drivers/infiniband/core/sysfs.c writes it (reference/peers-and-platform.md B4). */
    static TestHosts roce(TestHosts h, String ib, String bdf, String netdev, String rate, int mtu) {
        String dev = "/sys/devices/pci0000:00/0000:00:01.1/" + bdf;
        String ibdir = dev + "/infiniband/" + ib;
        String port = ibdir + "/ports/1";
        h.link("/sys/class/infiniband/" + ib, "../../devices/pci0000:00/0000:00:01.1/" + bdf + "/infiniband/" + ib)
                .link(ibdir + "/device", "../../../" + bdf)
                .file(ibdir + "/fw_ver", "16.35.2000\n").file(ibdir + "/node_guid", "b859:9f03:00d4:1e42\n")
                .file(port + "/state", "4: ACTIVE\n").file(port + "/phys_state", "5: LinkUp\n")
                .file(port + "/rate", rate + "\n").file(port + "/link_layer", "Ethernet\n")
                .file(port + "/gids/0", "fe80:0000:0000:0000:ba59:9fff:fed4:1e42\n")
                .file(port + "/gid_attrs/types/0", "IB/RoCE v1\n").file(port + "/gid_attrs/ndevs/0", netdev + "\n")
                .file(port + "/gids/1", "fe80:0000:0000:0000:ba59:9fff:fed4:1e42\n")
                .file(port + "/gid_attrs/types/1", "RoCE v2\n").file(port + "/gid_attrs/ndevs/1", netdev + "\n")
                .file(port + "/gids/2", "0000:0000:0000:0000:0000:0000:0000:0000\n")
                .file(port + "/gids/3", "0000:0000:0000:0000:0000:ffff:0a00:0005\n")
                .file(port + "/gid_attrs/types/3", "RoCE v2\n").file(port + "/gid_attrs/ndevs/3", netdev + "\n")
                .file(port + "/gids/4", "0000:0000:0000:0000:0000:0000:0000:0000\n")
                .dir(dev + "/net/" + netdev)
                .file("/sys/class/net/" + netdev + "/mtu", mtu + "\n")
                .file("/proc/sys/net/ipv4/conf/" + netdev + "/arp_ignore", "0\n")
                .file("/proc/sys/net/ipv4/conf/" + netdev + "/arp_announce", "0\n");
        return h;
    }

    @Test
    void aRocePortWithGidsNetdevMtuAddressesAndArpSettings() {
        var h = roce(TestHosts.at(root), "mlx5_0", "0000:02:00.0", "enp2s0f0np0", "100 Gb/sec (4X EDR)", 1500)
                .stdout(RdmaProbe.IP_ADDR, "1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever\n"
                        + "6: enp2s0f0np0    inet 10.0.0.5/24 brd 10.0.0.255 scope global enp2s0f0np0\\       valid_lft forever\n");
        RdmaDevices r = new RdmaProbe().run(h.host());
        RdmaDevices.RdmaDevice d = r.devices().get().get(0);
        assertThat(d.pciAddress().get()).isEqualTo("0000:02:00.0");
        assertThat(d.fwVersion().get()).isEqualTo("16.35.2000");
        RdmaDevices.RdmaPort p = d.ports().get().get(0);
        assertThat(p.state().get()).isEqualTo("ACTIVE");
        assertThat(p.physState().get()).isEqualTo("LinkUp");
        assertThat(p.rateGbps().get()).isEqualTo(100.0);
        assertThat(p.linkLayer().get()).isEqualTo("Ethernet");
        assertThat(p.gids().get()).extracting(RdmaDevices.Gid::index).as("zero GIDs are skipped").containsExactly(0, 1, 3);
        assertThat(p.gids().get().get(2).type().get()).isEqualTo("RoCE v2");
        RdmaDevices.Netdev nd = p.netdevs().get().get(0);
        assertThat(nd.name()).isEqualTo("enp2s0f0np0");
        assertThat(nd.mtu().get()).isEqualTo(1500);
        assertThat(nd.ipv4().get()).containsExactly("10.0.0.5/24");
        assertThat(nd.arpIgnore().get()).isZero();
    }

    @Test
    void noClassFolderSaysWhy() {
        RdmaDevices r = new RdmaProbe().run(TestHosts.at(root).host());
        assertThat(r.count()).isZero();
        assertThat(r.devices().reason()).startsWith("/sys/class/infiniband absent");
    }

    @Test
    void ipAddrParsing() {
        assertThat(RdmaProbe.parseIpAddr(List.of("4: eth0    inet 192.0.2.2/24 brd 192.0.2.255 scope global eth0\\ x",
                "4: eth0    inet 192.0.3.2/24 scope global secondary eth0", "garbage")))
                .containsEntry("eth0", List.of("192.0.2.2/24", "192.0.3.2/24"));
        assertThat(RdmaProbe.rateGbps("400 Gb/sec (4X NDR)").get()).isEqualTo(400.0);
        assertThat(RdmaProbe.rateGbps("Unknown").isError()).isTrue();
    }
}
