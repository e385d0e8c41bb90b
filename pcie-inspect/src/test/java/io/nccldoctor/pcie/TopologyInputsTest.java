package io.nccldoctor.pcie;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * Every PCI function of a real input is counted, and the GPUs and RDMA NICs of every vendor the table knows are
 * matrix endpoints: EFA in AWS's topology file and lspci, AMD Instinct GPUs in RCCL's files, Broadcom and Intel RDMA
 * NICs in pasted lspci listings (fixtures/public/README.md names each source).
 */
class TopologyInputsTest {

    private static final Path DIR = Path.of("src/test/resources/fixtures/public");

    private static String text(String file) throws IOException {
        return Files.readString(DIR.resolve(file));
    }

    private static Stream<String> files(String prefix) throws IOException {
        try (Stream<Path> s = Files.list(DIR)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(prefix)).sorted().toList().stream();
        }
    }

    static Stream<String> xmlFiles() throws IOException {
        return files("nccl-topo");
    }

    static Stream<String> treeFiles() throws IOException {
        return files("lspci-tree");
    }

    @ParameterizedTest
    @MethodSource("xmlFiles")
    void everyPciElementOfATopologyFileIsCounted(String file) throws IOException {
        String xml = text(file);
        long elements = Pattern.compile("<pci\\s").matcher(xml).results().count();
        PciReading r = PciReading.ncclTopoXml(xml, file);
        assertThat(r.census().functions()).as("one function per <pci> element of %s", file).isEqualTo((int) elements);
        int kinds = r.census().byKind().values().stream().mapToInt(Integer::intValue).sum();
        assertThat(kinds).as("every function has a kind").isEqualTo((int) elements);
    }

    @ParameterizedTest
    @MethodSource("treeFiles")
    void everyFunctionOfAnLspciTreeIsCounted(String file) throws IOException {
        String tree = text(file);
        // a function is "xx.f" after a branch ('-') and before its name; a bus bracket "[0000:00]" is none
        Matcher m = Pattern.compile("-([0-9a-f]{2})\\.([0-7])(?=[ -]|$)", Pattern.MULTILINE).matcher(tree);
        long functions = m.results().count();
        PciReading r = PciReading.lspciTree(tree, file);
        assertThat(r.census().functions()).as("functions in %s", file).isEqualTo((int) functions);
    }

    @Test
    void efaNicsOfAwsTopologyFileAreTheMatrixNics() throws IOException {
        PciReading r = PciReading.ncclTopoXml(text("nccl-topo-aws-p4d-24xl-efa.xml"), "p4d");
        Topology t = Topology.of(r.devices(), r.rdmaNames(), "2.27.5", "p4d");
        assertThat(t.endpoints().stream().filter(e -> e.kind() == DeviceKind.NIC).map(Topology.Endpoint::address))
                .containsExactly("0000:10:1b.0", "0000:20:1b.0", "0000:90:1b.0", "0000:a0:1b.0");
        assertThat(t.pair("GPU0", "NIC0").smiPath()).as("GPU 0 and NIC 0 behind switch 0").isEqualTo(SmiPath.PIX);
        assertThat(t.pair("GPU0", "NIC2").smiPath()).isEqualTo(SmiPath.SYS);
        assertThat(r.census().rdmaFamilies()).containsExactly(Map.entry("Amazon Elastic Fabric Adapter", 4));
        assertThat(r.census().outsideMatrix()).isEmpty();
    }

    @Test
    void aTopologyFileWithoutClassesIsCountedAndListedNotGuessed() throws IOException {
        PciReading r = PciReading.ncclTopoXml(text("nccl-topo-aws-g5-48xl-classless.xml"), "g5");
        assertThat(r.census().functions()).isEqualTo(9);
        assertThat(r.census().notUnderstood()).hasSize(9).allMatch(l -> l.contains("class not given by the input"));
        assertThat(r.devices()).allMatch(d -> d.kind() == DeviceKind.OTHER);
        PciReading proposed = PciReading.ncclTopoXml(text("nccl-topo-aws-g5-12xlarge-proposed.xml"), "g5.12xlarge");
        assertThat(proposed.census().notUnderstood()).hasSize(4);
    }

    @Test
    void amdInstinctGpusOfRcclFilesAreGpus() throws IOException {
        PciReading mi300x = PciReading.ncclTopoXml(text("nccl-topo-rccl-mi300x-8p-940.xml"), "mi300x");
        Topology t = Topology.of(mi300x.devices(), mi300x.rdmaNames(), "2.27.5", "mi300x");
        assertThat(t.endpoints().stream().filter(e -> e.kind() == DeviceKind.AMD_GPU)).as("class 0x120000").hasSize(8);
        assertThat(t.endpoint("GPU0").address()).isEqualTo("0000:0c:00.0");
        assertThat(t.endpoint("NIC0").name()).isEqualTo("mlx5_0");
        assertThat(t.pair("GPU0", "NIC0").smiPath()).as("MI300X and its NIC share the ConnectX-7 switch 05:00.0, three switches apart")
                .isEqualTo(SmiPath.PXB);
        assertThat(mi300x.census().byKind()).containsEntry(DeviceKind.DISPLAY, 0).containsEntry(DeviceKind.AMD_GPU, 8);
        PciReading mi250x = PciReading.ncclTopoXml(text("nccl-topo-rccl-mi250x-16p1h.xml"), "mi250x");
        assertThat(mi250x.census().byKind()).as("class 0x038000").containsEntry(DeviceKind.AMD_GPU, 16)
                .containsEntry(DeviceKind.DISPLAY, 0);
        PciReading mi300a = PciReading.ncclTopoXml(text("nccl-topo-rccl-mi300a-slingshot-4p-940.xml"), "mi300a");
        assertThat(mi300a.census().rdmaFamilies()).containsExactly(Map.entry("HPE Slingshot Cassini", 4));
        Topology a = Topology.of(mi300a.devices(), mi300a.rdmaNames(), "2.27.5", "mi300a");
        assertThat(a.endpoints().stream().filter(e -> e.kind() == DeviceKind.NIC).map(Topology.Endpoint::name))
                .containsExactly("cxi2", "cxi3", "cxi0", "cxi1");
    }

    @Test
    void anAmdGpuInAnLspciTreeNamedOnlyByItsId() throws IOException {
        PciReading r = PciReading.lspciTree(text("lspci-tree-rccl547-epyc-mi100-cx6-fragment.txt"), "rccl547");
        assertThat(r.devices().stream().filter(d -> d.kind() == DeviceKind.AMD_GPU).map(PciDevice::address))
                .as("'[AMD/ATI] Device 738c' is an MI100").containsExactly("0000:4a:00.0", "0000:50:00.0");
    }

    @Test
    void efaAndEnaInAnLspciTree() throws IOException {
        PciReading r = PciReading.lspciTree(text("lspci-tree-aws-trn1-efa-neuron.txt"), "trn1");
        assertThat(r.notUnderstood()).as("the shell prompt line is a command, not a tree line").isEmpty();
        Topology t = Topology.of(r.devices(), r.rdmaNames(), "2.27.5", "trn1");
        assertThat(t.endpoints()).hasSize(8).allMatch(e -> e.kind() == DeviceKind.NIC && e.name().contains("Elastic Fabric Adapter"));
        assertThat(r.census().outsideMatrix()).hasSize(8).allMatch(l -> l.contains("Elastic Network Adapter")
                && l.contains("no RDMA NIC family"));
        assertThat(r.census().notUnderstood()).as("16 NeuronDevices, 4 others: no class in lspci -tv (4 NVMe SSD and 2 NVMe EBS are NVM Express by name)")
                .hasSize(20).filteredOn(l -> l.contains("NeuronDevice")).hasSize(16);
    }

    @Test
    void rdmaNicsOfOtherVendorsInPastedListings() throws IOException {
        PciReading h800 = PciReading.lspciVerbose(text("lspci-verbose-listing-bcm57508-cx7-h800.txt"), "h800");
        Topology t = Topology.of(h800.devices(), Map.of(), "2.27.5", "h800");
        assertThat(t.endpoints().stream().map(Topology.Endpoint::label)).containsExactly("GPU0", "GPU1", "NIC0", "NIC1", "NIC2", "NIC3");
        assertThat(h800.census().rdmaFamilies()).containsEntry("Broadcom NetXtreme-C/E", 2)
                .containsEntry("NVIDIA (Mellanox) ConnectX/BlueField", 2);
        assertThat(h800.notUnderstood()).as("'# lspci | grep' lines are commands").isEmpty();
        PciReading e810 = PciReading.lspciVerbose(text("lspci-verbose-listing-e810-epyc-genoa.txt"), "e810");
        assertThat(e810.census().rdmaFamilies()).containsExactly(Map.entry("Intel E810/X722", 4));
        PciReading vmd = PciReading.lspciVerbose(text("lspci-verbose-listing-e810-vmd-domain.txt"), "vmd");
        assertThat(vmd.devices().stream().map(PciDevice::address)).as("a VMD domain has five hex digits")
                .containsExactly("10006:0a:00.0", "10006:0a:00.1");
        assertThat(vmd.notUnderstood()).isEmpty();
        PciReading eks = PciReading.lspciVerbose(text("lspci-verbose-listing-efa-l40s-eks.txt"), "eks");
        assertThat(eks.census().byKind()).containsEntry(DeviceKind.GPU, 8).containsEntry(DeviceKind.NIC, 4);
        assertThat(eks.census().rdmaFamilies()).containsExactly(Map.entry("Amazon Elastic Fabric Adapter", 4));
        assertThat(eks.notUnderstood()).as("the kubectl banner and the 'pod deleted' line").hasSize(3);
    }

    @Test
    void aNicCutOffBeforeItsNameIsListedOutsideTheMatrix() throws IOException {
        PciReading r = PciReading.ncclTopoXml(text("nccl-topo-h200-baremetal-truncated.xml"), "dump");
        assertThat(r.census().outsideMatrix()).singleElement().asString().startsWith("0000:5c:00.0 [15b3:1021]")
                .contains("no RDMA device name, while other NICs have one");
    }

    @Test
    void theSameFunctionsFromEveryReaderOfOneMachine() throws IOException {
        List<PciDevice> tree = PciReading.lspciTree(text("lspci-tree-lenovo-sd665n-v3-h100-cx7.txt"), "t").devices();
        PciCensus c = PciCensus.of(tree, Map.of());
        assertThat(c.byKind()).containsEntry(DeviceKind.GPU, 4);
        assertThat(c.rdmaFamilies()).as("4 ConnectX-7 and the two ConnectX-6 Lx functions")
                .containsExactly(Map.entry("NVIDIA (Mellanox) ConnectX/BlueField", 6));
    }
}
