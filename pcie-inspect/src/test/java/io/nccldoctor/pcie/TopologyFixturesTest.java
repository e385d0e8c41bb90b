package io.nccldoctor.pcie;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Host;
import io.nccldoctor.core.capture.Capture;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Every pair of every sysfs fixture against the matrix its README derives by hand. */
class TopologyFixturesTest {

    static final Path CAPTURES = Path.of("src/test/resources/fixtures/captures");

    static Topology topology(String fixture, String ncclVersion) {
        Host host = Capture.open(CAPTURES.resolve(fixture)).host();
        List<PciDevice> devices = new PciInventoryProbe().run(host).devices().get();
        Map<String, String> rdma = new LinkedHashMap<>();
        for (String name : host.files().list("/sys/class/infiniband").orElse(List.of())) {
            String real = host.files().realPath("/sys/class/infiniband/" + name + "/device").get();
            rdma.put(real.substring(real.lastIndexOf('/') + 1), name);
        }
        return Topology.of(devices, rdma, ncclVersion, "test");
    }

    /** The matrix as nvidia-smi prints it: one row per endpoint, cells separated by spaces. */
    static String matrix(Topology t) {
        return t.endpoints().stream().map(a -> a.label() + " " + t.endpoints().stream()
                .map(b -> a == b ? "X" : t.pair(a.label(), b.label()).smiPath().name())
                .collect(Collectors.joining(" "))).collect(Collectors.joining("\n"));
    }

    @Test
    void dgxClass() {
        Topology t = topology("dgx-class", "2.27.5");
        assertThat(matrix(t)).isEqualTo("""
                GPU0 X PIX NODE NODE SYS SYS SYS SYS PIX PIX NODE NODE SYS SYS SYS SYS
                GPU1 PIX X NODE NODE SYS SYS SYS SYS PIX PIX NODE NODE SYS SYS SYS SYS
                GPU2 NODE NODE X PIX SYS SYS SYS SYS NODE NODE PIX PIX SYS SYS SYS SYS
                GPU3 NODE NODE PIX X SYS SYS SYS SYS NODE NODE PIX PIX SYS SYS SYS SYS
                GPU4 SYS SYS SYS SYS X PIX NODE NODE SYS SYS SYS SYS PIX PIX NODE NODE
                GPU5 SYS SYS SYS SYS PIX X NODE NODE SYS SYS SYS SYS PIX PIX NODE NODE
                GPU6 SYS SYS SYS SYS NODE NODE X PIX SYS SYS SYS SYS NODE NODE PIX PIX
                GPU7 SYS SYS SYS SYS NODE NODE PIX X SYS SYS SYS SYS NODE NODE PIX PIX
                NIC0 PIX PIX NODE NODE SYS SYS SYS SYS X PIX NODE NODE SYS SYS SYS SYS
                NIC1 PIX PIX NODE NODE SYS SYS SYS SYS PIX X NODE NODE SYS SYS SYS SYS
                NIC2 NODE NODE PIX PIX SYS SYS SYS SYS NODE NODE X PIX SYS SYS SYS SYS
                NIC3 NODE NODE PIX PIX SYS SYS SYS SYS NODE NODE PIX X SYS SYS SYS SYS
                NIC4 SYS SYS SYS SYS PIX PIX NODE NODE SYS SYS SYS SYS X PIX NODE NODE
                NIC5 SYS SYS SYS SYS PIX PIX NODE NODE SYS SYS SYS SYS PIX X NODE NODE
                NIC6 SYS SYS SYS SYS NODE NODE PIX PIX SYS SYS SYS SYS NODE NODE X PIX
                NIC7 SYS SYS SYS SYS NODE NODE PIX PIX SYS SYS SYS SYS NODE NODE PIX X""");
        assertThat(t.endpoint("NIC5").name()).isEqualTo("mlx5_5");
        assertThat(t.endpoint("GPU6").address()).isEqualTo("0000:ab:00.0");
        Topology.Pair near = t.pair("GPU0", "NIC1");
        assertThat(near.ncclPath()).isEqualTo("PIX");
        assertThat(near.ncclNumber()).isEqualTo(4);
        Topology.Pair node = t.pair("GPU0", "NIC2");
        assertThat(node.ncclPath()).as("NCCL has no NODE: through the CPU within a NUMA node is PHB").isEqualTo("PHB");
        assertThat(node.ncclNumber()).isEqualTo(8);
        assertThat(t.pair("GPU0", "GPU7").ncclNumber()).isEqualTo(9);
        LinkCeiling c = near.narrowest().get();
        assertThat(c.label()).isEqualTo("Gen5 x16");
        assertThat(c.rawGbps()).isCloseTo(504.128, org.assertj.core.data.Offset.offset(0.001));
        assertThat(c.usableGbps().get()).as("x256/280 at MaxPayload 256").isCloseTo(460.917, org.assertj.core.data.Offset.offset(0.01));
    }

    @Test
    void arrowLakeWorkstation() {
        Topology t = topology("arrowlake-ws", "2.27.5");
        assertThat(matrix(t)).isEqualTo("""
                GPU0 X PHB PHB
                NIC0 PHB X PIX
                NIC1 PHB PIX X""");
        assertThat(t.endpoints()).as("the onboard I219 has no RDMA device and is no NCCL endpoint")
                .extracting(Topology.Endpoint::address).containsExactly("0000:01:00.0", "0000:02:00.0", "0000:02:00.1");
        Topology.Pair gdr = t.pair("GPU0", "NIC0");
        assertThat(gdr.ncclNumber()).as("the field report's 'distance 8 > 5'").isEqualTo(8);
        assertThat(t.pair("NIC0", "NIC1").ncclPath()).as("NCCL skips root ports: two functions meet at the CPU").isEqualTo("PHB");
        LinkCeiling nic = gdr.narrowest().get();
        assertThat(nic.device()).isEqualTo("0000:02:00.0");
        assertThat(nic.label()).isEqualTo("Gen3 x8");
        assertThat(nic.rawGbps()).as("a Gen3 x8 slot is ~63 Gbit/s per direction, not 128").isCloseTo(63.016, org.assertj.core.data.Offset.offset(0.001));
        assertThat(nic.usableGbps().get()).isCloseTo(57.615, org.assertj.core.data.Offset.offset(0.01));
        LinkCeiling gpu = t.endpoint("GPU0").link().get();
        assertThat(gpu.maxPayload().get()).isEqualTo(128);
        assertThat(gpu.usableGbps().get()).isCloseTo(252.064 * 128 / 152, org.assertj.core.data.Offset.offset(0.01));
    }

    @Test
    void threadripperProWorkstation() {
        Topology t = topology("threadripper-pro-ws", "2.27.5");
        assertThat(matrix(t)).isEqualTo("""
                GPU0 X NODE NODE NODE
                GPU1 NODE X PHB PHB
                NIC0 NODE PHB X PIX
                NIC1 NODE PHB PIX X""");
        assertThat(t.pairs()).filteredOn(p -> p.a().startsWith("GPU")).allMatch(p -> p.ncclPath().equals("PHB"));
        LinkCeiling idle = t.endpoint("GPU0").link().get();
        assertThat(idle.speedGTps()).as("an idle GPU's ceiling is taken at the speed it returns to under load").isEqualTo(16.0);
        assertThat(idle.usableGbps().get()).isCloseTo(230.459, org.assertj.core.data.Offset.offset(0.01));
    }

    @Test
    void twoSocketEpyc() {
        Topology t = topology("epyc-2s", "2.27.5");
        assertThat(matrix(t)).isEqualTo("""
                GPU0 X NODE SYS
                GPU1 NODE X SYS
                NIC0 SYS SYS X""");
        assertThat(t.pair("GPU1", "NIC0").ncclNumber()).isEqualTo(9);
        assertThat(t.endpoint("NIC0").numaNode().get()).isEqualTo(1);
        assertThat(t.endpoint("NIC0").link().get().usableGbps().get()).isCloseTo(504.128 * 512 / 536, org.assertj.core.data.Offset.offset(0.01));
        assertThat(t.pair("GPU1", "NIC0").narrowest().get().label()).as("the degraded GPU1 link bounds the pair").isEqualTo("Gen4 x8");
    }

    @Test
    void theSameTopologyInOldNcclNumbering() {
        Topology t = topology("arrowlake-ws", "2.18.3");
        assertThat(t.pair("GPU0", "NIC0").ncclNumber()).isEqualTo(6);
        assertThat(topology("epyc-2s", "2.12.12").pair("GPU0", "NIC0").ncclNumber()).isEqualTo(7);
    }
}
