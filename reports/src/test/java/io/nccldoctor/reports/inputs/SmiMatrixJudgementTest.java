package io.nccldoctor.reports.inputs;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.pcie.SmiTopoMatrix;
import io.nccldoctor.reports.Evaluation;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RulesConfig;
import io.nccldoctor.reports.baseline.Note;
import io.nccldoctor.reports.baseline.Notes;
import io.nccldoctor.reports.parsed.SmiTopoText;
import io.nccldoctor.reports.rules.Registry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * `report` on a pasted `nvidia-smi topo -mp` whose GPU4 row is cut after NIC7 (deepseek-ai/DeepEP#60, corpus): a GPU is
 * judged for GPUDirect RDMA only on a full row, or when a cell that is there already meets the threshold; the others
 * are said as not judged, and the PCIe-only matrix's GPU pairs are no NVLink verdict.
 */
class SmiMatrixJudgementTest {

    private static final Path FILE = Path.of("../corpus/nvidia-smi-topo/nvidia-smi-topo-mp-8gpu-14nic-gpu4-row-cut.txt");

    @Test
    void aGpuWhoseNicCellsWereCutIsNotJudgedOnTheCellsThatSurvived() {
        Snapshot s = ReportInput.read(FILE).orElseThrow().node().orElseThrow();
        Evaluation e = Evaluation.of(s, Registry.topologyRules(), new RuleContext(RulesConfig.defaults(), NodeShape.none()));
        assertThat(e.findings()).as("GPU4's cells up to NIC6 are SYS, but its own PIX NIC is beyond the cut")
                .noneSatisfy(f -> assertThat(f.subject()).startsWith("GPU4"));
        assertThat(e.notChecked()).anySatisfy(n -> {
            assertThat(n.code()).isEqualTo("GDR_DISABLED_BY_DISTANCE");
            assertThat(n.reason()).startsWith("not judged from nvidia-smi topo -mp: GPU4 (the GPU row lacks 7 NIC cells (cut short or "
                    + "unreadable); no NIC row holds them either; no cell for NIC7 … NIC13 (7 NICs); the cells read reach SYS at best), "
                    + "GPU5 … GPU7 (3 GPUs) (the GPU row is not in the text; no NIC row holds them either; no cell for NIC0 … NIC13 "
                    + "(14 NICs))").doesNotContain("GPU0");
        });
        assertThat(e.passed()).doesNotContain("GDR_DISABLED_BY_DISTANCE");
    }

    @Test
    void theFullRowsOfAnUncutMatrixAreJudgedAsBefore() {
        Snapshot s = ReportInput.read(Path.of("../pcie-inspect/src/test/resources/fixtures/public/nvidia-smi-topo-h100-8gpu-8nic-pix.txt"))
                .orElseThrow().node().orElseThrow();
        Evaluation e = Evaluation.of(s, Registry.topologyRules(), new RuleContext(RulesConfig.defaults(), NodeShape.none()));
        assertThat(e.passed()).contains("GDR_DISABLED_BY_DISTANCE");
        assertThat(e.notChecked()).noneSatisfy(n -> assertThat(n.code()).isEqualTo("GDR_DISABLED_BY_DISTANCE"));
    }

    @Test
    void thePcieOnlyMatrixSaysSoAndItsSysPairsAreNoVerdict() throws IOException {
        SmiTopoMatrix m = SmiTopoMatrix.parse(Files.readAllLines(FILE, StandardCharsets.UTF_8), "mp.txt");
        assertThat(SmiTopoText.render(m, "mp.txt")).startsWith("nvidia-smi topo -mp from mp.txt: 22 devices (PCIe paths only: NVLink is not "
                + "shown");
        List<Note> notes = Notes.fromSmiTopo(m, "mp.txt");
        assertThat(notes).noneSatisfy(n -> assertThat(n.kind()).isIn(Note.Kind.SYS_PATH, Note.Kind.NVLINK));
        assertThat(notes).singleElement().satisfies(n -> {
            assertThat(n.kind()).isEqualTo(Note.Kind.UNREAD);
            assertThat(n.text()).startsWith("nvidia-smi topo -mp shows PCIe paths only, not NVLink: GPU0-GPU4 SYS");
        });
    }
}
