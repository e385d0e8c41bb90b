package io.nccldoctor.pcie;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Fact;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * GPUDirect RDMA on a pair whose exact path a text without NUMA nodes hides: below two root buses it is PHB or SYS, so
 * at least PHB (NCCL types a path through a CPU PATH_PHB at least, src/graph/paths.cc@v2.30.7-1 L89-90), which decides
 * against NCCL's default threshold (PXB, or P2C from 2.29; ncclTopoCheckGdr L511, L528) and against SYS, not against PHB.
 * On the corpus's ASUS ESC8000A tree (corpus/lspci-tree/README.md), whose four GPUs share no root bus with a ConnectX-7.
 */
class TreeGdrBoundTest {

    private static final Path ASUS = Path.of("../corpus/lspci-tree/lspci-tree-asus-esc8000a-genoa-rtx6000ada-cx7.txt");

    private static Topology asus(String version) throws IOException {
        PciReading r = PciReading.lspciTree(Files.readString(ASUS, StandardCharsets.UTF_8), ASUS.toString());
        return Topology.of(r.devices(), r.rdmaNames(), version, "test");
    }

    @Test
    void theBoundPhbTurnsGdrOffAgainstTheDefaultThresholdWhicheverTheExactType() throws IOException {
        Topology t = asus("2.30.7");
        for (String gpu : List.of("GPU0", "GPU1", "GPU2", "GPU3")) {
            assertThat(t.nearestNics(gpu)).as(gpu + ": every NIC listed, none on its root bus").hasSize(4).allSatisfy(p -> {
                assertThat(p.shown().isValue()).isFalse();
                Topology.GdrVerdict v = t.gdr(p, "P2C", NcclPathTypes.number("P2C", "2.30.7"));
                assertThat(v.on().get()).as(p.a() + "-" + p.b()).isFalse();
                assertThat(v.byAttribute()).isFalse();
                assertThat(v.cause()).isEqualTo("at least PHB (8) > P2C (6)");
                assertThat(v.why()).contains("below different root buses").contains("the exact type is unknown");
            });
        }
        Topology old = asus("2.19.3");
        Topology.GdrVerdict pxb = old.gdr(old.pair("GPU0", "NIC0"), "PXB", NcclPathTypes.number("PXB", "2.19.3"));
        assertThat(pxb.on().get()).isFalse();
        assertThat(pxb.cause()).isEqualTo("at least PHB (" + NcclPathTypes.number("PHB", "2.19.3") + ") > PXB ("
                + NcclPathTypes.number("PXB", "2.19.3") + ")");
    }

    @Test
    void aThresholdOfPhbNeedsTheExactTypeAndSysLetsEitherThrough() throws IOException {
        Topology t = asus("2.30.7");
        Topology.Pair p = t.pair("GPU2", "NIC0");
        Topology.GdrVerdict phb = t.gdr(p, "PHB", 8);
        assertThat(phb.on().isValue()).as("PHB (one NUMA node) is on, SYS (two) is off: the tree cannot tell").isFalse();
        assertThat(phb.on().reason()).contains("at least PHB (8) is within PHB (8) and SYS (9) is not, so only the exact type decides");
        Topology.GdrVerdict sys = t.gdr(p, "SYS", 9);
        assertThat(sys.on().get()).isTrue();
        assertThat(sys.cause()).isEqualTo("PHB (8) or SYS (9) <= SYS (9)");
    }

    @Test
    void aPairTheTextShowsAndASnippetsUnseenTopGetNoBound() throws IOException {
        PciReading r = PciReading.lspciTree(Files.readString(ASUS, StandardCharsets.UTF_8), ASUS.toString());
        PciTree tree = PciTree.of(r.devices());
        Topology t = asus("2.30.7");
        assertThat(tree.atLeast(t.endpoint("NIC0").address(), t.endpoint("NIC1").address())).as("shown: PIX").isEmpty();
        assertThat(tree.atLeast(t.endpoint("GPU0").address(), t.endpoint("NIC0").address())).contains(SmiPath.NODE);
        Path snippet = Path.of("../corpus/nccl-topo-xml/nccl-topo-snippet-h100-unseen-bridge-net-gdr0-simai128.xml");
        PciReading x = PciReading.ncclTopoXml(Files.readString(snippet, StandardCharsets.UTF_8), snippet.toString());
        PciTree xt = PciTree.of(x.devices());
        List<String> unknown = x.devices().stream().map(PciDevice::address)
                .flatMap(a -> x.devices().stream().map(PciDevice::address).filter(b -> !a.equals(b) && !xt.shown(a, b).isValue())
                        .map(b -> a + " " + b)).toList();
        assertThat(unknown).as("the snippet has pairs it does not show").isNotEmpty();
        assertThat(unknown).allSatisfy(ab -> assertThat(xt.atLeast(ab.split(" ")[0], ab.split(" ")[1])).as(ab).isEmpty());
    }

    /** A GPU below an NVIDIA bridge may be a Grace GPU, whose path to the NIC NCCL may call P2C: no bound. */
    @Test
    void aGpuBelowAnNvidiaBridgeGetsNoBound() {
        // SYNTHETIC: a GPU below an NVIDIA root port and a NIC on another root bus, as a tree without NUMA nodes gives them
        List<PciDevice> devices = List.of(
                dev("0009:00:00.0", "10de", DeviceKind.BRIDGE, "/sys/devices/pci0009:00/0009:00:00.0"),
                dev("0009:01:00.0", "10de", DeviceKind.GPU, "/sys/devices/pci0009:00/0009:00:00.0/0009:01:00.0"),
                dev("0000:00:00.0", "10b5", DeviceKind.BRIDGE, "/sys/devices/pci0000:00/0000:00:00.0"),
                dev("0000:01:00.0", "15b3", DeviceKind.NIC, "/sys/devices/pci0000:00/0000:00:00.0/0000:01:00.0"));
        Topology t = Topology.of(devices, Map.of("0000:01:00.0", "mlx5_0"), "2.30.7", "test");
        Topology.GdrVerdict v = t.gdr(t.pair("GPU0", "NIC0"), "P2C", 6);
        assertThat(v.on().isValue()).isFalse();
        assertThat(v.on().reason()).contains("below an NVIDIA bridge").contains("C2C");
    }

    private static PciDevice dev(String address, String vendor, DeviceKind kind, String sysfs) {
        String why = "synthetic";
        PciLink link = new PciLink(Fact.absent(why), Fact.absent(why), Fact.absent(why), Fact.absent(why));
        PcieConfig config = new PcieConfig(Fact.absent(why), Fact.absent(why), Fact.absent(why), Fact.absent(why), Fact.absent(why));
        String cls = kind == DeviceKind.GPU ? "030200" : kind == DeviceKind.NIC ? "020700" : "060400";
        return new PciDevice(address, vendor, "0000", cls, kind, Fact.absent(why), Fact.absent(why), Fact.absent(PciTree.NUMA_NOT_IN_TEXT),
                Fact.of(sysfs), link, config, Fact.absent(why), Fact.absent(why), Fact.absent(why));
    }
}
