package io.nccldoctor.pcie;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Shapes of lspci text and NCCL topology XML as they are pasted into issues and docs, on the real texts of the
 * corpus (corpus/lspci-tree, corpus/lspci-verbose, corpus/nccl-topo-xml; sources in the READMEs there): what the text
 * shows is read, what it does not show stays unknown.
 */
class PastedShapesTest {

    private static final Path CORPUS = Path.of("../corpus");

    private static String corpus(String path) throws IOException {
        return Files.readString(CORPUS.resolve(path), StandardCharsets.UTF_8);
    }

    private static PciDevice device(PciReading r, String address) {
        return r.devices().stream().filter(d -> d.address().equals(address)).findFirst().orElseThrow();
    }

    @Test
    void aPlainListingShowsNoHierarchySoEveryPathIsUnknown() throws IOException {
        PciReading r = PciReading.lspciVerbose(corpus("lspci-verbose/lspci-listing-grep-hgx-b300-cx7-fm-guide.txt"), "b300");
        assertThat(r.devices()).hasSize(12);
        assertThat(r.census().byKind().get(DeviceKind.GPU)).isEqualTo(8);
        assertThat(r.census().byKind().get(DeviceKind.NIC)).as("05:00.0-3, InfiniBand class: the text cannot tell a management PF").isEqualTo(4);
        assertThat(r.devices()).allMatch(d -> d.sysfsPath().isAbsent());
        assertThat(device(r, "0000:1b:00.0").sysfsPath().reason()).contains("has no tree");
        assertThat(r.notUnderstood()).as("the prompt line is lspci's command").isEmpty();
    }

    @Test
    void aSnippedListingPlacesBus00AndWhatItsBridgeRangesCoverNothingElse() throws IOException {
        PciReading r = PciReading.lspciVerbose(corpus("lspci-verbose/lspci-verbose-vv-partial-snip-markers-gtx970m-laptop.txt"), "laptop");
        assertThat(device(r, "0000:00:1c.0").sysfsPath().get()).isEqualTo("/sys/devices/pci0000:00/0000:00:1c.0");
        assertThat(device(r, "0000:01:00.0").sysfsPath().reason()).as("behind 00:01.0, whose Bus: line the paste snipped")
                .contains("has no tree");
    }

    @Test
    void aTreeWithoutNamesLeavesVendorAndClassUnknownNotZero() throws IOException {
        PciReading r = PciReading.lspciTree(corpus("lspci-tree/lspci-tree-t-no-names-2x-rtx5090-switch-club3090.txt"), "club3090");
        assertThat(r.census().functions()).isEqualTo(44);
        List<PciDevice> endpoints = r.devices().stream().filter(d -> d.kind() != DeviceKind.BRIDGE).toList();
        assertThat(endpoints).hasSize(25).allMatch(d -> !PciIds.vendorKnown(d.vendorId()) && d.classCode().equals("ff0000"));
        assertThat(r.census().notUnderstood()).hasSize(25)
                .allMatch(l -> l.contains("[ids not in the input]") && l.contains("nor vendor or device id"));
        assertThat(device(r, "0000:06:00.0").sysfsPath().get())
                .isEqualTo("/sys/devices/pci0000:00/0000:00:02.1/0000:04:00.0/0000:05:00.0/0000:06:00.0");
    }

    @Test
    void aHeaderlessVerboseTailWithTheNvidiaDriverSaysNvidiaAndAGluedHeaderIsRead() throws IOException {
        PciReading r = PciReading.lspciVerbose(corpus("lspci-verbose/lspci-vvv-tail-and-glued-header-rtx4090-tinygrad6.txt"), "t6");
        assertThat(r.fragments()).hasSize(1);
        LspciFragment tail = r.fragments().get(0);
        assertThat(tail.driver().get()).isEqualTo("nvidia");
        assertThat(tail.vendorId().get()).isEqualTo("10de");
        assertThat(r.devices()).hasSize(1);
        PciDevice gpu = r.devices().get(0);
        assertThat(gpu.address()).isEqualTo("0000:62:00.0");
        assertThat(gpu.vendorId()).isEqualTo("10de");
        assertThat(gpu.kind()).isEqualTo(DeviceKind.GPU);
        assertThat(gpu.names().get().device()).contains("GeForce RTX 4090");
        assertThat(r.notUnderstood()).anyMatch(l -> l.contains(":11: text before a device header, not read: here is my card under load"))
                .noneMatch(l -> l.contains("BAR 3"));
    }

    @Test
    void continuationLinesOfAHeaderlessMiddleAreLspcis() throws IOException {
        PciReading r = PciReading.lspciVerbose(corpus("lspci-verbose/lspci-vvv-middle-continuations-downgraded-quadro-rpi480.txt"), "rpi");
        assertThat(r.notUnderstood()).as("only the Markdown fence").hasSize(1).allMatch(l -> l.endsWith("```"));
        assertThat(r.fragments()).hasSize(1);
        assertThat(r.fragments().get(0).link().speedGTps().get()).isEqualTo(5.0);
        assertThat(r.fragments().get(0).link().width().get()).isEqualTo(1);
    }

    @Test
    void bridgePathListingsGiveTheHierarchy() throws IOException {
        String gpus = corpus("lspci-verbose/lspci-pp-bridge-path-mi300x-8gpu-amd-doc.txt");
        String nics = corpus("lspci-verbose/lspci-pp-bridge-path-cx7-8nic-amd-doc.txt");
        PciReading r = PciReading.lspciVerbose(gpus, "mi300x");
        assertThat(r.census().byKind().get(DeviceKind.AMD_GPU)).isEqualTo(8);
        assertThat(r.census().byKind().get(DeviceKind.BRIDGE)).isEqualTo(40);
        assertThat(device(r, "0000:05:00.0").sysfsPath().get()).isEqualTo(
                "/sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0/0000:02:00.0/0000:03:00.0/0000:04:00.0/0000:05:00.0");
        assertThat(device(r, "0000:e7:00.0").sysfsPath().get()).startsWith("/sys/devices/pci0000:e0/0000:e0:01.1/");
        assertThat(r.notUnderstood()).isEmpty();

        PciReading both = PciReading.lspciVerbose(gpus + nics, "mi300x+cx7");
        PciTree tree = PciTree.of(both.devices());
        assertThat(tree.bridges("0000:09:00.0")).containsExactly("0000:00:01.1", "0000:01:00.0", "0000:02:01.0");
        assertThat(tree.bridgesBetween("0000:05:00.0", "0000:09:00.0"))
                .containsExactly("0000:02:00.0", "0000:03:00.0", "0000:04:00.0", "0000:02:01.0");
    }

    @Test
    void aMidTreeFragmentCountsFunctionsOnUnseenBusesAndLeavesPathsAboveTheCutUnknown() throws IOException {
        PciReading r = PciReading.lspciTree(corpus("lspci-tree/lspci-tree-mid-fragment-cx5-vfs-v100-nccl246.txt"), "nccl246");
        assertThat(r.devices()).extracting(PciDevice::address).containsExactly("0000:5c:00.0", "0000:60:00.0");
        assertThat(r.devices()).allMatch(d -> d.kind() == DeviceKind.GPU && d.sysfsPath().isAbsent());
        assertThat(r.notUnderstood()).anyMatch(l -> l.contains("8 functions on buses whose bracket is above the cut")
                && l.contains("6 × Mellanox Technologies MT27800 Family [ConnectX-5 Virtual Function] (03.4 03.5 03.6 03.7 04.0 04.1)"));

        PciReading tail = PciReading.lspciTree(corpus("lspci-tree/lspci-tree-mid-fragment-skylake-cx5-nccl246.txt"), "nccl246b");
        PciDevice cx5 = device(tail, "0000:58:00.0");
        assertThat(cx5.kind()).isEqualTo(DeviceKind.NIC);
        assertThat(cx5.sysfsPath().get()).isEqualTo(
                "/sys/devices/pci0000:53/0000:53:00.0/0000:54:00.0/0000:55:04.0/0000:56:00.0/0000:57:04.0/0000:58:00.0");
        assertThat(tail.notUnderstood()).anyMatch(l -> l.contains("15 functions on buses whose bracket is above the cut"));
    }

    @Test
    void aNicWithTwoNetsKeepsBoth() throws IOException {
        PciReading r = PciReading.ncclTopoXml(corpus("nccl-topo-xml/nccl-topo-fenced-middle-dgx-a100-two-nets-nccl1505.xml"), "nccl1505");
        assertThat(r.rdmaNets()).isEqualTo(Map.of("0000:61:00.0", List.of("mlx5_4", "mlx5_5")));
        assertThat(r.rdmaNames()).isEqualTo(Map.of("0000:61:00.0", "mlx5_4"));
        assertThat(r.notUnderstood()).anyMatch(l -> l.equals("nccl1505:1: not XML (a line the paste adds around the file), skipped: ```"));
    }

    @Test
    void aFencedTopologyFileIsReadAndTheFenceListed() throws IOException {
        PciReading r = PciReading.ncclTopoXml(corpus("nccl-topo-xml/rccl-topo-fenced-hygon-dcu-rccl1185.xml"), "rccl1185");
        assertThat(r.devices()).extracting(PciDevice::address).containsExactly("0000:31:00.0", "0000:33:00.0", "0000:35:00.0", "0000:37:00.0");
        assertThat(r.notUnderstood()).filteredOn(l -> l.startsWith("rccl1185:")).containsExactly(
                "rccl1185:1: not XML (a line the paste adds around the file), skipped: ```");
        assertThat(NcclTopoXml.holdsXml("$ cat topo.txt\n<system version=\"2\">\n")).isTrue();
        assertThat(NcclTopoXml.holdsXml("GPU0 GPU1\nGPU0 X NV12\n")).isFalse();
    }
}
