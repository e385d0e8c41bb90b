package io.nccldoctor.pcie;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.InputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Real outputs from public sources (fixtures/public/README.md states each expected fact and its source). */
class PublicFixturesTest {

    private static final Path DIR = Path.of("src/test/resources/fixtures/public");

    private static List<String> lines(String file) throws IOException {
        return Files.readString(DIR.resolve(file), StandardCharsets.UTF_8).lines().toList();
    }

    private static Topology tree(String file) throws IOException {
        LspciText t = LspciText.parse(lines(file), file, null, null);
        return Topology.of(t.devices(), Map.of(), "2.27.5", file);
    }

    private static String path(Topology t, String a, String b) {
        String la = t.endpoints().stream().filter(e -> e.address().equals(a)).findFirst().orElseThrow().label();
        String lb = t.endpoints().stream().filter(e -> e.address().equals(b)).findFirst().orElseThrow().label();
        return t.pair(la, lb).smiPath().name();
    }

    // ---- nvidia-smi topo -m ----

    @Test
    void a100TabSeparatedWithNicLegend() throws IOException {
        SmiTopoMatrix m = SmiTopoMatrix.parse(lines("nvidia-smi-topo-a100-8gpu-10nic-epyc.txt"), "a100");
        assertThat(m.devices()).hasSize(18).startsWith("GPU0").endsWith("NIC9");
        assertThat(m.name("NIC9")).isEqualTo("mlx5_9");
        assertThat(m.cells().get("GPU0").get("GPU7")).isEqualTo("NV12");
        assertThat(m.cells().get("GPU0").get("NIC1")).isEqualTo("PXB");
        assertThat(m.cells().get("GPU0").get("NIC2")).isEqualTo("SYS");
        assertThat(m.cells().get("NIC8").get("NIC9")).isEqualTo("PIX");
        assertThat(m.numaAffinity()).containsEntry("GPU0", "3").containsEntry("GPU2", "1").doesNotContainKey("NIC0");
        assertThat(m.cpuAffinity().get("GPU4")).isEqualTo("112-127,240-255");
        assertThat(m.skipped()).isEmpty();
    }

    @Test
    void h100SpaceSeparatedWithGpuNumaIdColumn() throws IOException {
        SmiTopoMatrix m = SmiTopoMatrix.parse(lines("nvidia-smi-topo-h100-8gpu-8nic-pix.txt"), "h100");
        assertThat(m.devices()).hasSize(16);
        for (int i = 0; i < 8; i++) {
            assertThat(m.cells().get("GPU" + i).get("NIC" + i)).isEqualTo("PIX");
        }
        assertThat(m.cells().get("GPU0").get("NIC1")).isEqualTo("NODE");
        assertThat(m.cells().get("GPU0").get("NIC4")).isEqualTo("SYS");
        assertThat(m.cells().get("GPU3").get("GPU5")).isEqualTo("NV18");
        assertThat(m.numaAffinity()).containsEntry("GPU4", "1");
        assertThat(m.name("NIC7")).isEqualTo("mlx5_7");
    }

    @Test
    void dgx1LegacyLayoutWithMlx5Columns() throws IOException {
        SmiTopoMatrix m = SmiTopoMatrix.parse(lines("nvidia-smi-topo-dgx1-v100-legacy-mlx5-columns.txt"), "dgx1");
        assertThat(m.devices()).hasSize(10).endsWith("mlx5_0", "mlx5_1");
        assertThat(m.nicLegend()).isEmpty();
        assertThat(m.cells().get("GPU0").get("GPU1")).isEqualTo("NV1");
        assertThat(m.cells().get("GPU0").get("GPU2")).isEqualTo("NV2");
        assertThat(m.cells().get("GPU0").get("GPU4")).isEqualTo("SYS");
        assertThat(m.cells().get("GPU2").get("mlx5_0")).isEqualTo("PIX");
        assertThat(m.cells().get("GPU4").get("mlx5_1")).isEqualTo("NODE");
        assertThat(m.cells().get("mlx5_1").get("mlx5_1")).isEqualTo("X");
    }

    @Test
    void garbageIsAnInputError() {
        assertThatThrownBy(() -> SmiTopoMatrix.parse(List.of("hello", "world"), "x.txt"))
                .isInstanceOf(InputException.class).hasMessageStartingWith("x.txt: no nvidia-smi topology header");
    }

    // ---- lspci -tv ----

    @Test
    void lenovoH100BehindTheConnectX7Switch() throws IOException {
        Topology t = tree("lspci-tree-lenovo-sd665n-v3-h100-cx7.txt");
        assertThat(t.endpoints().stream().filter(e -> e.kind() == DeviceKind.GPU)).hasSize(4);
        for (String bus : List.of("03", "23", "a3", "c3")) {
            String gpu = String.format("0000:%02x:00.0", Integer.parseInt(bus, 16) + 3);
            assertThat(path(t, gpu, "0000:" + bus + ":00.0")).as("GPU %s with its ConnectX-7", gpu).isEqualTo("PXB");
        }
        assertThat(path(t, "0000:06:00.0", "0000:26:00.0")).isNotIn("PIX", "PXB");
    }

    @Test
    void h200VmWithoutSwitchesLosesLocality() throws IOException {
        Topology t = tree("lspci-tree-h200-kvm-vm-flat.txt");
        assertThat(t.endpoints().stream().filter(e -> e.kind() == DeviceKind.GPU)).hasSize(8);
        assertThat(t.endpoints().stream().filter(e -> e.kind() == DeviceKind.NIC)).hasSize(8);
        assertThat(t.pairs()).allMatch(p -> p.smiPath() == SmiPath.PHB);
    }

    @Test
    void h200VmWithEmulatedSwitchesAndATruncatedEnd() throws IOException {
        LspciText text = LspciText.parse(lines("lspci-tree-h200-kvm-vm-emulated-switches.txt"), "emu", null, null);
        assertThat(text.problems()).anyMatch(p -> p.contains("..."));
        Topology t = Topology.of(text.devices(), Map.of(), "2.27.5", "emu");
        assertThat(path(t, "0000:cb:00.0", "0000:cc:00.0")).isEqualTo("PIX");
        assertThat(path(t, "0000:cf:00.0", "0000:d0:00.0")).isEqualTo("PIX");
        assertThat(path(t, "0000:cb:00.0", "0000:cf:00.0")).isEqualTo("PHB");
    }

    @Test
    void aFragmentThatStartsMidTree() throws IOException {
        LspciText text = LspciText.parse(lines("lspci-tree-rccl547-epyc-mi100-cx6-fragment.txt"), "rccl", null, null);
        PciTree tree = PciTree.of(text.devices());
        assertThat(tree.switchHops("0000:45:00.0", "0000:4a:00.0")).as("the ConnectX-6 and an MI100 share the top switch").isPresent();
        assertThat(tree.rootComplex("0000:4a:00.0").get()).isEqualTo("pci0000:40");
    }

    // ---- lspci -vvv ----

    @Test
    void lenovoConnectX7Block() throws IOException {
        LspciText t = LspciText.parse(null, null, lines("lspci-verbose-lenovo-sd665n-v3-cx7.txt"), "lenovo");
        PciDevice nic = t.devices().stream().filter(d -> d.address().equals("0000:03:00.0")).findFirst().orElseThrow();
        assertThat(nic.vendorId()).as("lspci without -nn: the vendor from its name").isEqualTo("15b3");
        assertThat(nic.classCode()).as("'Ethernet controller'").isEqualTo("020000");
        assertThat(nic.kind()).isEqualTo(DeviceKind.NIC);
        assertThat(nic.config().maxPayloadSupported().get()).isEqualTo(512);
        assertThat(nic.config().maxPayload().get()).isEqualTo(256);
        assertThat(nic.config().maxReadRequest().get()).isEqualTo(512);
        assertThat(nic.link().speedGTps().get()).isEqualTo(32.0);
        assertThat(nic.link().width().get()).isEqualTo(16);
        assertThat(nic.driver().get()).isEqualTo("mlx5_core");
        assertThat(nic.numaNode().get()).isZero();
        assertThat(nic.config().acsControl().isAbsent()).isTrue();
        assertThat(t.devices()).as("the libkmod stderr line is no device").hasSize(2);
    }

    @Test
    void lenovoTreeAndVerboseTogether() throws IOException {
        LspciText t = LspciText.parse(lines("lspci-tree-lenovo-sd665n-v3-h100-cx7.txt"), "tree",
                lines("lspci-verbose-lenovo-sd665n-v3-cx7.txt"), "verbose");
        Topology top = Topology.of(t.devices(), Map.of(), "2.27.5", "both");
        Topology.Endpoint nic = top.endpoints().stream().filter(e -> e.address().equals("0000:03:00.0")).findFirst().orElseThrow();
        assertThat(nic.link().get().label()).isEqualTo("Gen5 x16");
        assertThat(nic.link().get().usableGbps().get()).isCloseTo(504.128 * 256 / 280, org.assertj.core.data.Offset.offset(0.01));
    }

    @Test
    void acsStatesAndUnprivilegedOutput() throws IOException {
        PciDevice bf2 = LspciText.parse(null, null, lines("lspci-verbose-bluefield2-cx6dx-aarch64.txt"), "bf2").devices().get(0);
        assertThat(bf2.address()).isEqualTo("0000:01:00.0");
        assertThat(bf2.config().acsControl().get()).as("ACS present, everything off").isEmpty();
        assertThat(bf2.link().maxSpeedGTps().get()).isEqualTo(16.0);
        PciDevice gpp = LspciText.parse(null, null, lines("lspci-verbose-rccl547-amd-gpp-bridge-acs-fragment.txt"), "gpp").devices().get(0);
        assertThat(gpp.config().acsControl().get()).containsExactly("SrcValid", "ReqRedir", "CmpltRedir", "UpstreamFwd");
        assertThat(gpp.numaNode().get()).isEqualTo(1);
        PciDevice h100 = LspciText.parse(null, null, lines("lspci-verbose-h100-access-denied-nonroot.txt"), "h100").devices().get(0);
        assertThat(h100.config().maxPayload().reason()).contains("access denied");
        assertThat(h100.link().width().isAbsent()).as("unknown, never x0").isTrue();
        assertThat(h100.driver().get()).isEqualTo("nvidia");
    }

    // ---- NCCL topology XML ----

    @Test
    void azureNdv4AndNdv5VendorFiles() throws IOException {
        NcclTopoXml v4 = NcclTopoXml.parse(Files.readString(DIR.resolve("nccl-topo-azure-ndv4.xml")), "ndv4");
        Topology t4 = Topology.of(v4.devices(), v4.rdmaNames(), "2.27.5", "ndv4");
        assertThat(path(t4, "0003:00:00.0", "0103:00:00.0")).isEqualTo("PIX");
        assertThat(path(t4, "0003:00:00.0", "0104:00:00.0")).isEqualTo("PIX");
        assertThat(path(t4, "0003:00:00.0", "0101:00:00.0")).isEqualTo("SYS");
        assertThat(t4.endpoint("GPU0").link().get().label()).as("'16 GT/s' without the PCIe suffix").isEqualTo("Gen4 x16");
        NcclTopoXml v5 = NcclTopoXml.parse(Files.readString(DIR.resolve("nccl-topo-azure-ndv5.xml")), "ndv5");
        Topology t5 = Topology.of(v5.devices(), v5.rdmaNames(), "2.27.5", "ndv5");
        assertThat(t5.endpoints().stream().filter(e -> e.kind() == DeviceKind.GPU)).hasSize(8);
        assertThat(path(t5, "0008:00:00.0", "0104:00:00.0")).isEqualTo("PIX");
        assertThat(path(t5, "0008:00:00.0", "0103:00:00.0")).isEqualTo("PHB");
        assertThat(path(t5, "0009:00:00.0", "0105:00:00.0")).isEqualTo("PIX");
    }

    @Test
    void ibmCloudDumpPairsGpusWithNicsInReverseOrder() throws IOException {
        NcclTopoXml x = NcclTopoXml.parse(Files.readString(DIR.resolve("nccl-topo-ibm-cloud-h100-vsi.xml")), "ibm");
        assertThat(x.rdmaNames()).containsEntry("0000:a3:00.0", "mlx5_7").containsEntry("0000:e9:00.0", "mlx5_0");
        Topology t = Topology.of(x.devices(), x.rdmaNames(), "2.27.5", "ibm");
        assertThat(path(t, "0000:a4:00.0", "0000:a3:00.0")).isEqualTo("PIX");
        assertThat(path(t, "0000:ea:00.0", "0000:e9:00.0")).isEqualTo("PIX");
        assertThat(t.endpoints().stream().filter(e -> e.address().equals("0000:a3:00.0")).findFirst().orElseThrow().name()).isEqualTo("mlx5_7");
    }

    @Test
    void aTruncatedDumpKeepsWhatItHoldsAndSaysWhereItWasCut() throws IOException {
        String xml = Files.readString(DIR.resolve("nccl-topo-h200-baremetal-truncated.xml"));
        NcclTopoXml x = NcclTopoXml.parse(xml, "dump.xml");
        assertThat(x.devices()).as("every <pci> start tag before the cut, the cut NIC included").hasSize(11)
                .anyMatch(d -> d.address().equals("0000:5c:00.0") && d.kind() == DeviceKind.NIC);
        assertThat(x.devices().stream().filter(d -> d.kind() == DeviceKind.GPU)).hasSize(3);
        assertThat(x.rdmaNames()).containsEntry("0000:19:00.0", "mlx5_0").doesNotContainKey("0000:5c:00.0");
        assertThat(x.notRead()).anyMatch(l -> l.startsWith("line 52: the text ends inside <system>")
                && l.contains("<pci 0000:5a:00.0> > <pci 0000:5c:00.0> > <nic>"));
    }
}
