package io.nccldoctor.reports.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.pcie.PciReading;
import io.nccldoctor.reports.Evaluation;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.ImportedSnapshot;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RulesConfig;
import io.nccldoctor.reports.inputs.ReportInput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * GDR_DISABLED_BY_DISTANCE where the text hides the exact path, on real pastes of the corpus (sources in
 * corpus/lspci-tree/README.md and corpus/nvidia-smi-topo/README.md): an `lspci -tv` tree without NUMA nodes bounds a
 * cross-root pair at PHB, which decides against NCCL's default threshold (ncclTopoCheckGdr,
 * src/graph/paths.cc@v2.30.7-1 L511, L528) but not against NCCL_NET_GDR_LEVEL=PHB; a fragment of NIC rows holds the
 * GPU cells in the NIC rows, and the outcome says so.
 */
class GdrBoundAndNicRowsTest {

    private static final Path ASUS = Path.of("../corpus/lspci-tree/lspci-tree-asus-esc8000a-genoa-rtx6000ada-cx7.txt");
    private static final Path H20 = Path.of("../corpus/nvidia-smi-topo/nvidia-smi-topo-h20-nic30-33-rows-fragment.txt");

    private static Evaluation asus(Map<String, String> env) throws IOException {
        PciReading r = PciReading.lspciTree(Files.readString(ASUS, StandardCharsets.UTF_8), ASUS.toString());
        Snapshot s = ImportedSnapshot.of(r, "lspci text " + ASUS, List.of("test"), "test", "not recorded");
        Snapshot withEnv = new Snapshot(s.schemaVersion(), s.toolVersion(), s.hostName(), s.createdAt(), s.source(), s.argv(),
                env, s.sections());
        return Evaluation.of(withEnv, List.of(new GdrDisabledByDistance()),
                new RuleContext(RulesConfig.defaults(), NodeShape.none(), Optional.empty()));
    }

    private static String waived(Evaluation e) {
        return e.notChecked().stream().filter(n -> n.code().equals("GDR_DISABLED_BY_DISTANCE")).findFirst().orElseThrow().reason();
    }

    /** Every GPU is below another root bus than every ConnectX-7 port: at least PHB (8) > P2C (6), off for all four. */
    @Test
    void aTreeWithoutNumaIsJudgedOnTheBoundPhbAgainstTheDefault() throws IOException {
        Evaluation e = asus(Map.of());
        assertThat(e.findings()).extracting(Finding::subject).containsExactly("GPU0-NIC0", "GPU1-NIC0", "GPU2-NIC0", "GPU3-NIC0");
        Finding f = e.findings().get(2);
        assertThat(f.title()).isEqualTo("GPU2 0000:c1:00.0 reaches each of NIC0, NIC1, NIC2, NIC3 (which is nearest is not known) "
                + "through at least PHB (the exact type is not in the text): GPUDirect RDMA off by default");
        assertThat(f.evidence()).contains("ncclTopoCheckGdr: distance 8 or 9 > 6: disabled either way")
                .anySatisfy(x -> assertThat(x).startsWith("path type unknown, at least PHB: the text gives no NUMA node"))
                .anySatisfy(x -> assertThat(x).startsWith("NCCL_NET_GDR_LEVEL=SYS would enable it whichever the type; PHB only if"));
        assertThat(e.findings()).allSatisfy(x -> assertThat(String.join(" ", x.evidence())).doesNotContain("NCCL_NET_GDR_LEVEL=PHB would"));
    }

    @Test
    void aThresholdOfPhbLeavesItNotJudgedAndSysPasses() throws IOException {
        Evaluation phb = asus(Map.of("NCCL_NET_GDR_LEVEL", "PHB"));
        assertThat(phb.findings()).isEmpty();
        assertThat(waived(phb)).startsWith("GPU0-NIC0: the distance is not checked, because the text gives no NUMA node")
                .contains("at least PHB (8) is within PHB (8) and SYS (9) is not, so only the exact type decides");
        Evaluation sys = asus(Map.of("NCCL_NET_GDR_LEVEL", "SYS"));
        assertThat(sys.findings()).isEmpty();
        assertThat(sys.passed()).contains("GDR_DISABLED_BY_DISTANCE");
    }

    /** NIC30-NIC33 rows only (8xH20): the GPU cells are read from the NIC rows; 38 NICs have none, so nothing is judged. */
    @Test
    void aFragmentOfNicRowsSaysItsGpuCellsCameFromTheNicRows() {
        Snapshot s = ReportInput.read(H20).orElseThrow().node().orElseThrow();
        Evaluation e = Evaluation.of(s, List.of(new GdrDisabledByDistance()),
                new RuleContext(RulesConfig.defaults(), NodeShape.none(), Optional.empty()));
        assertThat(e.findings()).isEmpty();
        assertThat(waived(e)).isEqualTo("not judged from nvidia-smi topo -m: GPU0 … GPU3 (4 GPUs) (the GPU row is not in the text; "
                + "cells for NIC30 … NIC33 (4 NICs) read from those NICs' rows; no cell for NIC0 … NIC29, NIC34 … NIC41 (38 NICs); "
                + "the cells read reach SYS at best), GPU4 … GPU7 (4 GPUs) (the GPU row is not in the text; cells for NIC30 … NIC33 "
                + "(4 NICs) read from those NICs' rows; no cell for NIC0 … NIC29, NIC34 … NIC41 (38 NICs); the cells read reach NODE "
                + "at best): the nearest NIC may be one whose cell is not in the text");
    }
}
