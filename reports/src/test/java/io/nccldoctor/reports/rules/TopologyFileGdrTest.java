package io.nccldoctor.reports.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Json;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.pcie.NcclTopoNets;
import io.nccldoctor.pcie.PciReading;
import io.nccldoctor.pcie.Topology;
import io.nccldoctor.reports.Evaluation;
import io.nccldoctor.reports.ImportedSnapshot;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RulesConfig;
import io.nccldoctor.reports.TopoText;
import io.nccldoctor.reports.TopologyView;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * GDR_DISABLED_BY_DISTANCE and the topo text follow ncclTopoCheckGdr on real NCCL topology files of the corpus
 * (sources in corpus/nccl-topo-xml/README.md): a gdr="0" turns GDR off before the distance counts, a path a snippet
 * does not show is not judged, and a socket net is no nearest NIC.
 */
class TopologyFileGdrTest {

    private static final Path XML = Path.of("../corpus/nccl-topo-xml");

    private static PciReading read(String name) throws IOException {
        return PciReading.ncclTopoXml(Files.readString(XML.resolve(name), StandardCharsets.UTF_8), name);
    }

    private static Snapshot snapshot(PciReading r) {
        return ImportedSnapshot.of(r, "NCCL topology XML " + r.source(), List.of("test"), "test", "not recorded");
    }

    private static Evaluation judge(Snapshot s) {
        return Evaluation.of(s, List.of(new GdrDisabledByDistance()), new RuleContext(RulesConfig.defaults(), NodeShape.none(), Optional.empty()));
    }

    private static String reason(Evaluation e) {
        return e.notChecked().stream().filter(n -> n.code().equals("GDR_DISABLED_BY_DISTANCE")).findFirst().orElseThrow().reason();
    }

    private static String text(Snapshot s, Evaluation e) {
        Topology t = TopologyView.of(s, Optional.empty()).orElseThrow();
        return TopoText.render(t, TopologyView.devices(s).orElseThrow(), Fact.absent("not probed"), e.findings(), Map.of(),
                TopologyView.census(s).orElseThrow(), List.of());
    }

    /** Both nets of the CX-6 Dx say gdr="0": was a WARN blaming PHB/SYS and suggesting NCCL_NET_GDR_LEVEL=PHB. */
    @Test
    void netsWithGdrZeroAreNoDistanceFinding() throws IOException {
        Snapshot s = snapshot(read("nccl-topo-2.30-prose-cx6dx-nets-gdr0-a100-pcie.xml"));
        Evaluation e = judge(s);
        assertThat(e.findings()).isEmpty();
        assertThat(reason(e)).startsWith("GPU0-NIC0: GPUDirect RDMA off whatever the distance: the topology file gives <net mlx5_0> gdr=\"0\"")
                .contains("GPU1-NIC0");
        String text = text(s, e);
        assertThat(text).contains("GPUDirect RDMA by default up to P2C = 6 while NCCL_NET_GDR_C2C is on")
                .contains("GPU0-NIC0  mlx5_0   PHB (8)  GDR off ").contains(" (gdr=\"0\" on <net mlx5_0>, <net mlx5_1> in the file: off whatever the distance)")
                .contains("mlx5_1      0000:16:00.0    gdr=0  RDMA device").doesNotContain("NCCL_NET_GDR_LEVEL=PHB would");
    }

    /** The same file judged by its paths alone (the attributes left out): the WARN the distance gives is kept. */
    @Test
    void withoutTheAttributesTheDistanceStillDecides() throws IOException {
        PciReading r = read("nccl-topo-2.30-prose-cx6dx-nets-gdr0-a100-pcie.xml");
        Evaluation e = judge(ImportedSnapshot.of(r.devices(), r.rdmaNets(), "paths only", List.of("test"), "test", "not recorded"));
        assertThat(e.findings()).extracting(f -> f.subject()).containsExactly("GPU0-NIC0", "GPU1-NIC0");
        assertThat(e.findings().get(0).evidence()).contains("threshold P2C = 6: NCCL's default (P2C while NCCL_NET_GDR_C2C is on)",
                "NCCL_NET_GDR_LEVEL=PHB would enable it for this pair");
    }

    /** GPU b8:00.0 hangs from a bridge above the snippet: was "PHB (8) GDR off" and a WARN on a made-up path. */
    @Test
    void aSnippetsUnseenPathIsNotJudged() throws IOException {
        PciReading r = read("nccl-topo-snippet-h100-unseen-bridge-net-gdr0-simai128.xml");
        Evaluation paths = judge(ImportedSnapshot.of(r.devices(), r.rdmaNets(), "paths only", List.of("test"), "test", "not recorded"));
        assertThat(paths.findings()).isEmpty();
        assertThat(reason(paths)).startsWith("GPU0-NIC0: the distance is not checked, because the text is a snippet");
        Snapshot s = snapshot(r);
        Evaluation e = judge(s);
        assertThat(e.findings()).isEmpty();
        assertThat(reason(e)).contains("GPU0-NIC0: GPUDirect RDMA off whatever the distance", "<net mlx5_5> gdr=\"0\"");
        String text = text(s, e);
        assertThat(text).contains("  ?    = Not in the text").contains("GPU0-NIC0  mlx5_5   ?        GDR off (gdr=\"0\" on <net mlx5_5> in the file: off whatever the distance)")
                .contains("GPU1-NIC0  mlx5_5   PIX (4)  GDR off ");
    }

    /** A GB10's Wi-Fi adapter and a NIC under its CPU (tailscale0): read, listed, and neither is the GPU's nearest NIC. */
    @Test
    void socketNetsAreReadButAreNoNearestNic() throws IOException {
        Snapshot s = snapshot(read("nccl-topo-fenced-gb10-wifi-tailscale-gdr0-nccl2202.xml"));
        NcclTopoNets nets = Json.convert(Json.mapper().valueToTree(s.sections().get(NcclTopoNets.KEY)), NcclTopoNets.class, "test");
        assertThat(nets.nets()).extracting(NcclTopoNets.Net::name).containsExactly("wlP9s9", "tailscale0");
        Evaluation e = judge(s);
        assertThat(e.findings()).isEmpty();
        assertThat(reason(e)).isEqualTo("needs an NVIDIA GPU and a NIC");
        String text = text(s, e);
        assertThat(text).contains("no RDMA-capable NIC on the PCI bus").contains("NCCL topology file: 2 nets, 1 GPUs")
                .contains("tailscale0  no PCI function gdr=0  socket or plugin net").contains("000f:01:00.0    gdr=0  NCCL found no way");
    }
}
