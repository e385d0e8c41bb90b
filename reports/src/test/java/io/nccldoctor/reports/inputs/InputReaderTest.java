package io.nccldoctor.reports.inputs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.InputException;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RulesConfig;
import io.nccldoctor.reports.Evaluation;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.rules.Registry;
import io.nccldoctor.core.Snapshot;
import java.util.List;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Telling an input's kind, on real outputs (corpus/ and the public fixtures) and on texts of no kind. */
class InputReaderTest {

    private static final Path ROOT = Path.of("..");
    private final InputReader reader = new InputReader(() -> new RuleContext(RulesConfig.defaults(), NodeShape.none()));

    @TempDir
    Path tmp;

    @Test
    void aReadmeThatQuotesAnNcclLineIsRefusedWithTheKindsTriedAndTheClosest() {
        assertThatThrownBy(() -> reader.read(ROOT.resolve("corpus/nccl-log/README.md"))).isInstanceOf(InputException.class)
                .hasMessageContaining("none of the kinds nccl-doctor reads was recognised (tried nvidia-smi-topo, perftest, nccl-tests, "
                        + "nccl-log, rdma, lspci-tree, lspci-verbose, nccl-topo-xml); the closest, nccl-log, took ")
                .hasMessageContaining("its first line: '# Corpus: ");
    }

    @Test
    void jsonOfAnotherKindIsRefusedByParseAndLeftToReport() throws IOException {
        Path snapshot = ROOT.resolve("reports/src/test/resources/golden/preflight.json");
        assertThatThrownBy(() -> reader.read(snapshot)).hasMessageContaining("JSON that is neither nccl-tests -J output nor perftest --out_json");
        assertThat(ReportInput.read(snapshot)).as("report reads its own JSON itself").isEmpty();
    }

    @Test
    void aTableWithAFewNcclLinesIsNcclTestsAndALogWithItsTableIsALog() {
        ParsedInput table = reader.read(ROOT.resolve("corpus/nccl-tests/nccl-tests-h100-p5-1node-nvls-single-row-silent-cut.txt"));
        assertThat(table.kind()).isEqualTo(InputKind.NCCL_TESTS);
        assertThat(((NcclTestsOutput) table.model()).ncclInfoLines()).as("the NCCL lines between its rows").isEqualTo(3);
        Path log = ROOT.resolve("corpus/nccl-log/nccl-log-efa-p4d-2.9.9-mpi-tag-with-table-16rank.txt");
        ParsedInput parsed = reader.read(log);
        assertThat(parsed.kind()).isEqualTo(InputKind.NCCL_LOG);
        assertThat(parsed.evidence()).isEqualTo("its 529 NCCL lines; nccl-tests also took 24 lines, which `parse nccl-tests FILE` reads");
        ReportInput both = ReportInput.read(log).orElseThrow();
        assertThat(both.log()).isPresent();
        assertThat(both.tests().orElseThrow().rows()).as("report takes the table of a log too").hasSize(30);
    }

    /** A sweep is labelled with the program that printed it (corpus/nccl-tests README for both sources). */
    @Test
    void aSweepIsLabelledWithTheProgramThatPrintedIt() {
        assertThat(ReportInput.read(ROOT.resolve("corpus/nccl-tests/rccl-tests-allreduce-2g-16g-asterisks-line.txt")).orElseThrow().tool())
                .isEqualTo("rccl-tests");
        assertThat(ReportInput.read(ROOT.resolve("corpus/nccl-tests/nccl-tests-h100-p5-1node-nvls-single-row-silent-cut.txt"))
                .orElseThrow().tool()).isEqualTo("nccl-tests");
    }

    @Test
    void aLogLongerThanTheHeadIsToldFromItsHeadAndReadWhole() throws IOException {
        String one = Files.readString(ROOT.resolve("collectives/src/test/resources/fixtures/public/nccl-log-vllm-ray-2.21.5-ib-gdrdma.txt"));
        StringBuilder big = new StringBuilder();
        while (big.length() <= 2 * InputText.HEAD_BYTES) { // synthetic, for size only: one real log repeated
            big.append(one);
        }
        Path file = tmp.resolve("repeated.log");
        Files.writeString(file, big, StandardCharsets.UTF_8);
        ParsedInput parsed = reader.read(file);
        assertThat(parsed.kind()).isEqualTo(InputKind.NCCL_LOG);
        assertThat(((NcclLog) parsed.model()).lines()).as("every line, not the head's").isEqualTo(big.toString().lines().count());
    }

    @Test
    void aNamedKindIsReadAsThatKindAndRefusedInItsParsersWords() {
        Path smi = ROOT.resolve("corpus/nvidia-smi-topo/nvidia-smi-topo-puget-2x-rtx6000ada-phb.txt");
        assertThat(reader.read(smi, InputKind.NVIDIA_SMI_TOPO).evidence()).as("named, not detected").isEmpty();
        assertThatThrownBy(() -> reader.read(smi, InputKind.PERFTEST)).hasMessageContaining("not perftest output");
    }

    @Test
    void emptyTextIsRefused() throws IOException {
        Path blank = Files.writeString(tmp.resolve("blank.txt"), "\n  \n");
        assertThatThrownBy(() -> reader.read(blank)).hasMessageContaining("empty (no line that is not blank)");
    }

    @Test
    void aP2pMatrixIsReadAsWhatItIsAndItsCellsAreNoLinkTypes() {
        ParsedInput p2p = reader.read(ROOT.resolve("corpus/nvidia-smi-topo/nvidia-smi-topo-p2p-p-autodl-2x-rtx2080ti-ns.txt"));
        assertThat(p2p.kind()).isEqualTo(InputKind.NVIDIA_SMI_TOPO);
        assertThat(p2p.text()).startsWith("nvidia-smi topo -p2p from ").contains("(P2P status per pair, not link types)")
                .contains("GPU0-GPU1  NS");
        assertThat(p2p.json().path("matrix").asText()).isEqualTo("topo -p2p");
    }

    @Test
    void reportJudgesAPastedMatrixByItsGpuNicPathsAndNeverAP2pMatrix() {
        Snapshot dgx1 = ReportInput.read(ROOT.resolve("pcie-inspect/src/test/resources/fixtures/public/nvidia-smi-topo-dgx1-v100-legacy-mlx5-columns.txt"))
                .orElseThrow().node().orElseThrow();
        RuleContext ctx = new RuleContext(RulesConfig.defaults(), NodeShape.none());
        List<Finding> f = Evaluation.of(dgx1, Registry.topologyRules(), ctx).findings();
        assertThat(f).extracting(Finding::subject).contains("GPU0-mlx5_0").doesNotContain("GPU2-mlx5_0");
        assertThat(f.get(0).evidence()).contains("nvidia-smi topo -m: GPU0-mlx5_0 NODE")
                .anySatisfy(e -> assertThat(e).startsWith("threshold PXB: NCCL's default (PXB; from 2.29 P2C"));
        Snapshot pix = ReportInput.read(ROOT.resolve("pcie-inspect/src/test/resources/fixtures/public/nvidia-smi-topo-h100-8gpu-8nic-pix.txt"))
                .orElseThrow().node().orElseThrow();
        assertThat(Evaluation.of(pix, Registry.topologyRules(), ctx).findings()).as("every GPU has a NIC behind its own switch").isEmpty();
        Snapshot p2p = ReportInput.read(ROOT.resolve("corpus/nvidia-smi-topo/nvidia-smi-topo-p2p-p-autodl-2x-rtx2080ti-ns.txt"))
                .orElseThrow().node().orElseThrow();
        assertThat(Evaluation.of(p2p, Registry.topologyRules(), ctx).findings()).as("P2P status cells are no paths").isEmpty();
    }
}
