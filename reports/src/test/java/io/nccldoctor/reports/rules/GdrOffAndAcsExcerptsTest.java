package io.nccldoctor.reports.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.pcie.PciReading;
import io.nccldoctor.reports.Evaluation;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.ImportedSnapshot;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RulesConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * GDR_OFF_IN_NCCL_TOPOLOGY on NCCL topology files whose gdr="0" turns GPUDirect RDMA off (ncclTopoCheckGdr,
 * src/graph/paths.cc@v2.30.7-1 L485-486), and ACS_REDIRECT_ON_P2P_PATH on lspci text without GPUs; real pastes of the
 * corpus (corpus/nccl-topo-xml/README.md, corpus/lspci-verbose/README.md), each PASS or "no NVIDIA GPU" before.
 */
class GdrOffAndAcsExcerptsTest {

    private static final Path CORPUS = Path.of("../corpus");

    private static Snapshot snapshot(String name) throws IOException {
        String text = Files.readString(CORPUS.resolve(name), StandardCharsets.UTF_8);
        PciReading r = name.startsWith("nccl-topo-xml/") ? PciReading.ncclTopoXml(text, name) : PciReading.lspciVerbose(text, name);
        return ImportedSnapshot.of(r, "test " + name, List.of("test"), "test", "not recorded");
    }

    private static Evaluation judge(Snapshot s, Rule rule) {
        return Evaluation.of(s, List.of(rule), new RuleContext(RulesConfig.defaults(), NodeShape.none(), Optional.empty()));
    }

    private static String waived(Evaluation e, String code) {
        return e.notChecked().stream().filter(n -> n.code().equals(code)).findFirst().orElseThrow().reason();
    }

    /** nccl#392: 5 V100 <gpu gdr="0"> and mlx5_0 gdr="0", GPU0-3 PIX to the NIC: was PASS. */
    @Test
    void gdrZeroOnNetAndGpusIsAFindingWithItsPairs() throws IOException {
        Snapshot s = snapshot("nccl-topo-xml/nccl-topo-dump-v100-vm-gdr0-gpus-and-net-cut-nccl392.xml");
        Evaluation e = judge(s, new GdrOffInNcclTopology());
        Finding f = e.findings().stream().filter(x -> x.code().equals("GDR_OFF_IN_NCCL_TOPOLOGY")).findFirst().orElseThrow();
        assertThat(f.subject()).isEqualTo("mlx5_0");
        assertThat(f.title()).contains("<net mlx5_0> and 5 GPUs").contains("for 5 GPU-NIC pairs");
        assertThat(f.evidence()).contains("<net name=\"mlx5_0\"> gdr=\"0\" (line 18) on 0000:1a:00.0",
                "<gpu> of 0000:1b:00.0 gdr=\"0\" (line 5)", "GPU0-NIC0 (mlx5_0, PIX): gdr=\"0\" on <net mlx5_0>",
                "GPU4-NIC0 (mlx5_0, PHB): gdr=\"0\" on <net mlx5_0>");
        Evaluation distance = judge(s, new GdrDisabledByDistance());
        assertThat(distance.findings()).as("the distance decides nothing here").isEmpty();
        assertThat(waived(distance, "GDR_DISABLED_BY_DISTANCE")).contains("GPU0-NIC0: GPUDirect RDMA off whatever the distance");
    }

    /** nccl#1712: a middle of a dump with mlx5_2 gdr="0" and no <gpu> element: NO_NVIDIA_GPU alone before. */
    @Test
    void aNetWithGdrZeroAndNoGpuInTheText() throws IOException {
        Evaluation e = judge(snapshot("nccl-topo-xml/nccl-topo-middle-cx6-net-gdr0-broadcom-switches-nccl1712.xml"), new GdrOffInNcclTopology());
        assertThat(e.findings()).singleElement().satisfies(f -> {
            assertThat(f.subject()).isEqualTo("mlx5_2");
            assertThat(f.evidence()).contains("no GPU in the text: the attribute holds for every GPU that uses this NIC");
        });
    }

    /** A file whose GPUs and net say gdr="1": the rule passes (the H100 snippet's net says 0, its GPU 1). */
    @Test
    void gdrOneEverywherePassesAndNoFileIsNotChecked() throws IOException {
        Evaluation none = judge(snapshot("lspci-verbose/lspci-vvv-tail-plx-pex8725-acs-redirect-rockchip-pcie6.txt"), new GdrOffInNcclTopology());
        assertThat(waived(none, "GDR_OFF_IN_NCCL_TOPOLOGY")).startsWith("no NCCL topology file");
        Evaluation snippet = judge(snapshot("nccl-topo-xml/nccl-topo-snippet-h100-unseen-bridge-net-gdr0-simai128.xml"), new GdrOffInNcclTopology());
        assertThat(snippet.findings()).singleElement().satisfies(f -> assertThat(f.subject()).isEqualTo("mlx5_5"));
    }

    /** Rockchip-pcie-devices#6: a PEX 8725 port's ACSCtl ReqRedir+ CmpltRedir+, no GPU: was waived as "no NVIDIA GPU". */
    @Test
    void acsRedirectOnAPortWithoutGpusInTheText() throws IOException {
        Evaluation e = judge(snapshot("lspci-verbose/lspci-vvv-tail-plx-pex8725-acs-redirect-rockchip-pcie6.txt"), new AcsRedirect());
        assertThat(e.findings()).singleElement().satisfies(f -> {
            assertThat(f.title()).startsWith("ACS redirect on 1 of 1 functions whose ACSCtl the text shows");
            assertThat(f.evidence()).anyMatch(x -> x.contains("ACSCtl SrcValid+ ReqRedir+ CmpltRedir+ UpstreamFwd+"))
                    .contains("the GPUs are not in the text: which GPU-GPU or GPU-NIC paths cross these ports is not shown");
        });
    }

    /** nccl#629's grep: 4 whole lines with redirect of 15 readable (the 16th cut): was PASS. */
    @Test
    void acsRedirectInAGrepExcerpt() throws IOException {
        Evaluation e = judge(snapshot("lspci-verbose/lspci-verbose-grep-acsctl-4-redirect-last-cut-nccl629.txt"), new AcsRedirect());
        assertThat(e.findings()).singleElement().satisfies(f -> {
            assertThat(f.title()).startsWith("ACS redirect on 4 of 15 functions");
            assertThat(f.evidence()).filteredOn(x -> x.startsWith("a function the excerpt does not name")).hasSize(4);
        });
    }

    /** fastfetch#1658: lspci without root shows no ACSCtl: the reason is said, not "no NVIDIA GPU". */
    @Test
    void unprivilegedLspciIsTheReasonAcsIsNotChecked() throws IOException {
        Evaluation e = judge(snapshot("lspci-verbose/lspci-vvv-unprivileged-access-denied-pex890xx-fastfetch1658.txt"), new AcsRedirect());
        assertThat(e.findings()).isEmpty();
        assertThat(waived(e, "ACS_REDIRECT_ON_P2P_PATH")).startsWith("lspci ran without root ('Capabilities: <access denied>' on 1 function)");
    }
}
