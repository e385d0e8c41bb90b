package io.nccldoctor.gdr;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Json;
import io.nccldoctor.core.TestHosts;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The port facts added for pasted RDMA state (LIDs, part id, per-port traffic class, link), live and from old snapshots. */
class RdmaProbePortFieldsTest {

    @TempDir
    Path root;

    @Test
    void lidsPartIdTrafficClassAndLinkAreReadFromSysfs() {
        String ib = "/sys/devices/pci0000:00/0000:00:01.1/0000:02:00.0/infiniband/mlx5_0";
        var h = RdmaProbeTest.roce(TestHosts.at(root), "mlx5_0", "0000:02:00.0", "enp2s0f0np0", "100 Gb/sec (4X EDR)", 9000)
                .file(ib + "/hca_type", "MT4119\n").file(ib + "/ports/1/lid", "0x1a\n").file(ib + "/ports/1/sm_lid", "0x0\n")
                .file(ib + "/tc/1/traffic_class", "Global tclass=106\n").file("/sys/class/net/enp2s0f0np0/operstate", "up\n")
                .stdout(RdmaProbe.IP_ADDR, "");
        RdmaDevices.RdmaDevice d = new RdmaProbe().run(h.host()).devices().get().get(0);
        RdmaDevices.RdmaPort p = d.ports().get().get(0);
        assertThat(d.partId().get()).isEqualTo(4119);
        assertThat(p.lid().get()).as("sysfs prints LIDs in hex").isEqualTo(26);
        assertThat(p.smLid().get()).isZero();
        assertThat(p.trafficClass().get()).isEqualTo(106);
        assertThat(p.activeMtu().isAbsent()).as("sysfs has no active MTU").isTrue();
        assertThat(p.netdevs().get().get(0).link().get()).isEqualTo("up");
        assertThat(p.netdevs().get().get(0).qos().reason()).contains("mlnx_qos");
    }

    @Test
    void theSmallReadersSayWhyWhenTheyCannot() {
        assertThat(RdmaProbe.partId("Broadcom NetXtreme-C/E RoCE Driver HCA").isAbsent()).isTrue();
        assertThat(RdmaProbe.trafficClass("Global tclass=-1").isAbsent()).isTrue();
        assertThat(RdmaProbe.trafficClass("garbage").isError()).isTrue();
        assertThat(RdmaProbe.lid("65535").get()).isEqualTo(65535);
        assertThat(RdmaProbe.lid("0xzz").isError()).isTrue();
    }

    /** A snapshot written before these fields existed still loads; the new fields read as not recorded. */
    @Test
    void anOlderSnapshotsRdmaSectionStillLoads() throws Exception {
        String old = "{\"devices\":{\"value\":[{\"name\":\"mlx5_0\",\"pciAddress\":{\"value\":\"0000:02:00.0\"},"
                + "\"fwVersion\":{\"value\":\"16.35.2000\"},\"nodeGuid\":{\"absent\":\"x\"},\"ports\":{\"value\":[{\"number\":1,"
                + "\"state\":{\"value\":\"ACTIVE\"},\"physState\":{\"value\":\"LinkUp\"},\"rateGbps\":{\"value\":100.0},"
                + "\"rate\":{\"value\":\"100 Gb/sec (4X EDR)\"},\"linkLayer\":{\"value\":\"Ethernet\"},\"gids\":{\"value\":[]},"
                + "\"netdevs\":{\"value\":[{\"name\":\"eth0\",\"mtu\":{\"value\":1500},\"ipv4\":{\"value\":[]},"
                + "\"arpIgnore\":{\"value\":0},\"arpAnnounce\":{\"value\":0}}]}}]}}]}}";
        RdmaDevices r = Json.mapper().readValue(old, RdmaDevices.class);
        RdmaDevices.RdmaDevice d = r.devices().get().get(0);
        assertThat(d.partId().reason()).isEqualTo(RdmaDevices.NOT_RECORDED);
        RdmaDevices.RdmaPort p = d.ports().get().get(0);
        assertThat(p.activeMtu().reason()).isEqualTo(RdmaDevices.NOT_RECORDED);
        assertThat(p.netdevs().get().get(0).qos().reason()).isEqualTo(RdmaDevices.NOT_RECORDED);
        assertThat(r.otherNetdevs()).isEmpty();
        assertThat(Json.mapper().readValue(Json.write(r), RdmaDevices.class)).as("and round-trips").isEqualTo(r);
    }
}
