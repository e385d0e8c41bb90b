package io.nccldoctor.pcie;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.core.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The gdr attributes of NCCL topology files, NICs under a CPU, socket nets, snippet paths and name-only lspci, on the
 * real pastes of the corpus (sources in corpus/nccl-topo-xml/README.md and corpus/lspci-verbose/README.md).
 */
class NcclTopoGdrTest {

    private static final Path CORPUS = Path.of("../corpus");
    private static final String V = "2.30.7";

    private static PciReading xml(String name) throws IOException {
        return PciReading.ncclTopoXml(Files.readString(CORPUS.resolve("nccl-topo-xml").resolve(name), StandardCharsets.UTF_8), name);
    }

    private static Topology topology(PciReading r) {
        return Topology.of(r.devices(), r.rdmaNames(), V, "test", r.ncclNets());
    }

    @Test
    void bothNetsWithGdrZeroTurnGdrOffWhateverTheDistance() throws IOException {
        PciReading r = xml("nccl-topo-2.30-prose-cx6dx-nets-gdr0-a100-pcie.xml");
        assertThat(r.ncclNets().nets()).extracting(NcclTopoNets.Net::name, n -> n.gdr().orElse(-1), NcclTopoNets.Net::role)
                .containsExactly(tuple("mlx5_0", 0, NcclTopoNets.Role.RDMA),
                        tuple("mlx5_1", 0, NcclTopoNets.Role.RDMA));
        assertThat(r.ncclNets().gpus()).extracting(g -> g.gdr().orElse(-1)).containsExactly(1, 1);
        Topology t = topology(r);
        Topology.Pair near = t.pair("GPU0", "NIC0");
        assertThat(near.ncclPath()).isEqualTo("PHB");
        Topology.GdrVerdict v = t.gdr(near, "P2C", NcclPathTypes.number("P2C", V));
        assertThat(v.on().orElse(true)).isFalse();
        assertThat(v.byAttribute()).isTrue();
        assertThat(v.why()).contains("<net mlx5_0> gdr=\"0\" (line 6)", "<net mlx5_1> gdr=\"0\" (line 7)", "whatever the distance");
        // without the file's attributes the same pair is judged by its distance alone: PHB (8) > P2C (6)
        Topology bare = Topology.of(r.devices(), r.rdmaNames(), V, "test");
        Topology.GdrVerdict byPath = bare.gdr(bare.pair("GPU0", "NIC0"), "P2C", 6);
        assertThat(byPath.byAttribute()).isFalse();
        assertThat(byPath.why()).isEqualTo("PHB (8) > P2C (6)");
    }

    @Test
    void aWifiNetAndANicUnderTheCpuAreReadButAreNoRdmaNics() throws IOException {
        PciReading r = xml("nccl-topo-fenced-gb10-wifi-tailscale-gdr0-nccl2202.xml");
        List<NcclTopoNets.Net> nets = r.ncclNets().nets();
        assertThat(nets).extracting(NcclTopoNets.Net::name).containsExactly("wlP9s9", "tailscale0");
        assertThat(nets).allMatch(n -> n.role() == NcclTopoNets.Role.OTHER && n.gdr().get() == 0);
        assertThat(nets.get(0).pciAddress().get()).isEqualTo("0009:01:00.0");
        assertThat(nets.get(1).pciAddress().reason()).contains("directly under <cpu>", "no PCI function");
        assertThat(nets.get(1).line()).isEqualTo(15);
        assertThat(r.notUnderstood()).noneMatch(s -> s.contains("outside a <pci>"));
        assertThat(r.rdmaNames()).as("a Wi-Fi adapter is no RDMA device").isEmpty();
        assertThat(r.ncclNets().gpuGdr("000f:01:00.0").get()).isZero();
        Topology t = topology(r);
        assertThat(t.endpoints()).extracting(Topology.Endpoint::label).containsExactly("GPU0");
    }

    @Test
    void aSnippetDoesNotShowWhereItsTopElementsMeet() throws IOException {
        PciReading r = xml("nccl-topo-snippet-h100-unseen-bridge-net-gdr0-simai128.xml");
        Topology t = topology(r);
        assertThat(t.endpoints()).extracting(Topology.Endpoint::address).containsExactly("0000:b8:00.0", "0000:d9:00.0", "0000:da:00.0");
        assertThat(t.pair("GPU0", "NIC0").shown().reason()).contains("snippet", "0000:b8:00.0", "0000:da:00.0");
        assertThat(t.pair("GPU0", "GPU1").shown().isValue()).isFalse();
        Topology.Pair below = t.pair("GPU1", "NIC0");
        assertThat(below.shown().get()).isTrue();
        assertThat(below.smiPath()).isEqualTo(SmiPath.PIX);
        // mlx5_5's gdr="0" decides both pairs, the unseen one too
        assertThat(t.gdr(t.pair("GPU0", "NIC0"), "P2C", 6).byAttribute()).isTrue();
        assertThat(t.gdr(below, "P2C", 6).on().get()).isFalse();
        // the path alone: unknown where the text does not show it, on below the shared switch
        Topology bare = Topology.of(r.devices(), r.rdmaNames(), V, "test");
        assertThat(bare.gdr(bare.pair("GPU0", "NIC0"), "P2C", 6).on().reason()).contains("snippet");
        assertThat(bare.gdr(bare.pair("GPU1", "NIC0"), "P2C", 6).on().get()).isTrue();
    }

    @Test
    void aFileWithTheTopologyWholeShowsEveryPath() throws IOException {
        Topology t = topology(xml("nccl-topo-2.30-prose-cx6dx-nets-gdr0-a100-pcie.xml"));
        assertThat(t.pairs()).allMatch(p -> p.shown().isValue());
    }

    @Test
    void nameOnlyLspciHasNoDeviceIdAndItsExpressLineGivesThePortType() throws IOException {
        String text = Files.readString(CORPUS.resolve("lspci-verbose/lspci-vvv-no-nn-cx6dx-endpoint-cut-l2fwd-nv6.txt"), StandardCharsets.UTF_8);
        PciDevice d = PciReading.lspciVerbose(text, "l2fwd").devices().get(0);
        assertThat(d.address()).isEqualTo("0000:b3:00.0");
        assertThat(d.ids()).as("the vendor from its name, no device id printed").isEqualTo("15b3:?");
        assertThat(d.config().portType().get()).isEqualTo("endpoint");
        assertThat(d.config().maxPayload().get()).isEqualTo(256);
        JsonNode json = Json.mapper().valueToTree(d);
        assertThat(json.has("deviceId")).isFalse();
        assertThat(json.path("vendorId").asText()).isEqualTo("15b3");
        PciDevice back = Json.convert(json, PciDevice.class, "test");
        assertThat(back.deviceId()).isEqualTo(PciIds.UNKNOWN_DEVICE);
        assertThat(back.kind()).isEqualTo(d.kind());
    }
}
