package io.nccldoctor.pcie;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Fact;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a text without NUMA nodes leaves unknown, what the kernel's numa_node -1 still decides, and classes a name
 * states, on real pastes of the corpus (sources in corpus/lspci-tree/README.md and corpus/lspci-verbose/README.md).
 */
class TextWithoutNumaTest {

    private static final Path CORPUS = Path.of("../corpus");
    private static final String ASUS = "lspci-tree/lspci-tree-asus-esc8000a-genoa-rtx6000ada-cx7.txt";

    private static String read(String name) throws IOException {
        return Files.readString(CORPUS.resolve(name), StandardCharsets.UTF_8);
    }

    private static PciDevice device(List<PciDevice> devices, String address) {
        return devices.stream().filter(d -> d.address().equals(address)).findFirst().orElseThrow();
    }

    /**
     * The ASUS ESC8000A's `lspci -tv` (two Genoa sockets, 8 root buses) has no NUMA node: GPU0 01:00.0 and GPU2 c1:00.0
     * were NODE here while its `nvidia-smi topo -m` says SYS, and GPU2's "nearest NIC" was NIC0 (SYS in topo -m).
     */
    @Test
    void crossRootPathsOfATreeWithoutNumaAreUnknownAndNoNearestNicIsChosen() throws IOException {
        PciReading r = PciReading.lspciTree(read(ASUS), ASUS);
        Topology t = Topology.of(r.devices(), r.rdmaNames(), "2.27.5", "test");
        assertThat(t.endpoint("GPU0").address()).isEqualTo("0000:01:00.0");
        assertThat(t.endpoint("GPU2").address()).isEqualTo("0000:c1:00.0");
        Topology.Pair gpus = t.pair("GPU0", "GPU2");
        assertThat(gpus.shown().isValue()).as("GPU0-GPU2 below root buses 00 and c0, NUMA nodes not in the text").isFalse();
        assertThat(gpus.shown().reason()).contains("no NUMA node").contains("NODE").contains("SYS");
        Topology.Pair ports = t.pair("NIC0", "NIC1");
        assertThat(ports.shown().isValue()).as("the two ports of one ConnectX-7 meet on their port: the text shows it").isTrue();
        assertThat(ports.smiPath()).isEqualTo(SmiPath.PIX);
        assertThat(t.nearestNics("GPU2")).as("no NIC shares a root bus with GPU2: every NIC listed, each path unknown")
                .hasSize(4).allMatch(p -> !p.shown().isValue());
        assertThat(PciTree.of(r.devices()).numaUnknown("0000:c1:00.0")).isTrue();
    }

    /** The kernel's numa_node -1 is an answer: NCCL gives it one CPU node of its own (src/graph/xml.cc@v2.30.7-1 L754-770). */
    @Test
    void sysfsMinusOneStillDecidesAsNcclDoes() {
        // SYNTHETIC: two devices on two root complexes, numa_node as sysfs gives it
        Fact<Integer> none = PciInventoryProbe.numaNode("-1");
        PciTree bothNone = PciTree.of(List.of(dev("0000:01:00.0", "pci0000:00", none), dev("0000:41:00.0", "pci0000:40", none)));
        assertThat(bothNone.path("0000:01:00.0", "0000:41:00.0")).as("both -1: one CPU node, as on one socket").isEqualTo(SmiPath.NODE);
        assertThat(bothNone.shown("0000:01:00.0", "0000:41:00.0").isValue()).isTrue();
        PciTree mixed = PciTree.of(List.of(dev("0000:01:00.0", "pci0000:00", PciInventoryProbe.numaNode("0")),
                dev("0000:41:00.0", "pci0000:40", none)));
        assertThat(mixed.path("0000:01:00.0", "0000:41:00.0")).as("numaid 0 and -1 are two CPU nodes in NCCL: SYS").isEqualTo(SmiPath.SYS);
        PciTree known = PciTree.of(List.of(dev("0000:01:00.0", "pci0000:00", Fact.of(1)), dev("0000:41:00.0", "pci0000:40", Fact.of(1))));
        assertThat(known.path("0000:01:00.0", "0000:41:00.0")).isEqualTo(SmiPath.NODE);
    }

    /** lspci -vv prints "NUMA node" unless the kernel says -1 (lspci.c L904): 8 blocks with Control lines and none. */
    @Test
    void aVerboseBlockWithoutNumaLineIsTheKernelsMinusOne() throws IOException {
        String name = "lspci-verbose/lspci-verbose-vvd-10de-4x-rtx-a6000-8-functions.txt";
        PciReading r = PciReading.lspciVerbose(read(name), name);
        assertThat(r.devices()).hasSize(8).allMatch(d -> !d.numaNode().isValue()
                && !d.numaNode().reason().equals(PciTree.NUMA_NOT_IN_TEXT));
        String tree = "lspci-tree/lspci-tree-asus-esc8000a-genoa-rtx6000ada-cx7.txt";
        assertThat(device(PciReading.lspciTree(read(tree), tree).devices(), "0000:01:00.0").numaNode().reason())
                .isEqualTo(PciTree.NUMA_NOT_IN_TEXT);
    }

    /** The ASUS tree's FCH LPC Bridge is an ISA bridge (06 01), its NVMe SSDs NVM Express (01 08 02); a RAID card stays unknown. */
    @Test
    void classesTheNameStates() throws IOException {
        List<PciDevice> devices = PciReading.lspciTree(read(ASUS), ASUS).devices();
        assertThat(device(devices, "0000:00:14.3").classCode()).isEqualTo("060100");
        assertThat(device(devices, "0000:00:14.3").kind()).isEqualTo(DeviceKind.OTHER);
        assertThat(device(devices, "0000:02:00.0").classCode()).isEqualTo("010802");
        assertThat(devices.stream().filter(d -> d.kind() == DeviceKind.BRIDGE)).as("the corpus fact: 59 bridges").hasSize(59);
        assertThat(devices.stream().filter(d -> d.names().map(n -> n.device().contains("NVMe RAID")).orElse(false)))
                .isNotEmpty().allMatch(d -> d.classCode().equals(LspciClasses.UNKNOWN));
    }

    private static PciDevice dev(String address, String root, Fact<Integer> numa) {
        String why = "synthetic";
        PciLink link = new PciLink(Fact.absent(why), Fact.absent(why), Fact.absent(why), Fact.absent(why));
        PcieConfig config = new PcieConfig(Fact.absent(why), Fact.absent(why), Fact.absent(why), Fact.absent(why), Fact.absent(why));
        return new PciDevice(address, "10de", "2230", "030200", DeviceKind.GPU, Fact.absent(why), Fact.absent(why), numa,
                Fact.of("/sys/devices/" + root + "/" + address), link, config, Fact.absent(why), Fact.absent(why), Fact.absent(why));
    }
}
