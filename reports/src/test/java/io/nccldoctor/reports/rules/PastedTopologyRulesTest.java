package io.nccldoctor.reports.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.pcie.PciReading;
import io.nccldoctor.reports.Evaluation;
import io.nccldoctor.reports.ImportedSnapshot;
import io.nccldoctor.reports.NodeShape;
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
 * NO_NVIDIA_GPU and GDR_DISABLED_BY_DISTANCE on pasted lspci text of the corpus (sources in its READMEs): what the
 * text does not show (the hierarchy of a listing, the vendor of a name-less tree) is not checked, never judged absent.
 */
class PastedTopologyRulesTest {

    private static final Path CORPUS = Path.of("../corpus");

    private static Evaluation judge(PciReading r) {
        Snapshot s = ImportedSnapshot.of(r.devices(), r.rdmaNets(), "lspci text " + r.source(), List.of("test"), "test", "not recorded");
        return Evaluation.of(s, List.of(new NoNvidiaGpu(), new GdrDisabledByDistance()),
                new RuleContext(RulesConfig.defaults(), NodeShape.none(), Optional.empty()));
    }

    private static String text(String path) throws IOException {
        return Files.readString(CORPUS.resolve(path), StandardCharsets.UTF_8);
    }

    private static String reason(Evaluation e, String code) {
        return e.notChecked().stream().filter(n -> n.code().equals(code)).findFirst().orElseThrow().reason();
    }

    @Test
    void aPlainListingIsNotJudgedForGdrDistance() throws IOException {
        Evaluation e = judge(PciReading.lspciVerbose(text("lspci-verbose/lspci-listing-grep-hgx-b300-cx7-fm-guide.txt"), "b300"));
        assertThat(e.findings()).isEmpty();
        assertThat(e.passed()).containsExactly("NO_NVIDIA_GPU");
        assertThat(reason(e, "GDR_DISABLED_BY_DISTANCE")).contains("the PCIe path of GPU0, GPU1", "NIC3", "has no tree",
                "cannot be told");
    }

    @Test
    void theH800ListingOfThePublicFixturesIsNotJudgedOnAMadeUpPathEither() throws IOException {
        Path fixture = Path.of("../pcie-inspect/src/test/resources/fixtures/public/lspci-verbose-listing-bcm57508-cx7-h800.txt");
        Evaluation e = judge(PciReading.lspciVerbose(Files.readString(fixture, StandardCharsets.UTF_8), "h800"));
        assertThat(e.findings()).as("was 2 × GDR_DISABLED_BY_DISTANCE through PHB").isEmpty();
        assertThat(reason(e, "GDR_DISABLED_BY_DISTANCE")).contains("has no tree");
    }

    @Test
    void aTreeWithoutNamesDoesNotSayNoGpu() throws IOException {
        Evaluation e = judge(PciReading.lspciTree(text("lspci-tree/lspci-tree-t-no-names-2x-rtx5090-switch-club3090.txt"), "club3090"));
        assertThat(e.findings()).isEmpty();
        assertThat(reason(e, "NO_NVIDIA_GPU")).startsWith("25 of 44 PCI functions have no vendor id in the input");
    }

    @Test
    void aHeaderlessExcerptWithNoFunctionReadDoesNotSayNoGpu() throws IOException {
        Evaluation e = judge(PciReading.lspciVerbose(text("lspci-verbose/lspci-vvv-middle-continuations-downgraded-quadro-rpi480.txt"), "rpi"));
        assertThat(e.findings()).isEmpty();
        assertThat(reason(e, "NO_NVIDIA_GPU")).contains("holds no PCI function");
    }

    @Test
    void aGluedHeaderGivesTheGpu() throws IOException {
        Evaluation e = judge(PciReading.lspciVerbose(text("lspci-verbose/lspci-vvv-tail-and-glued-header-rtx4090-tinygrad6.txt"), "t6"));
        assertThat(e.findings()).isEmpty();
        assertThat(e.passed()).contains("NO_NVIDIA_GPU");
    }
}
