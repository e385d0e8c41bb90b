package io.nccldoctor.reports.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.reports.Evaluation;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RulesConfig;
import io.nccldoctor.reports.inputs.ReportInput;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * GDR_DISABLED_BY_DISTANCE on a GB200's `nvidia-smi topo -m` (corpus/nvidia-smi-topo/README.md, sglang#11208): every
 * GPU-NIC cell is SYS, but a number in the GPU NUMA ID column marks a GPU reached over C2C, whose path to the NIC NCCL
 * may call P2C (ncclTopoCheckGdr, src/graph/paths.cc@v2.30.7-1 L511). Those GPUs are left out, and the outcome names
 * them instead of passing in silence.
 */
class SmiC2cGpusLeftOutTest {

    private static final Path GB200 = Path.of("../corpus/nvidia-smi-topo/nvidia-smi-topo-gb200-4gpu-6nic-gpu-numa-id-row-cut-sglang11208.txt");

    @Test
    void c2cGpusAreNamedAsLeftOutBesideTheCutRow() {
        Snapshot s = ReportInput.read(GB200).orElseThrow().node().orElseThrow();
        Evaluation e = Evaluation.of(s, List.of(new GdrDisabledByDistance()),
                new RuleContext(RulesConfig.defaults(), NodeShape.none(), Optional.empty()));
        assertThat(e.findings()).as("no GPU is judged: three are C2C, one's row is cut").isEmpty();
        String why = e.notChecked().stream().filter(n -> n.code().equals("GDR_DISABLED_BY_DISTANCE")).findFirst().orElseThrow().reason();
        assertThat(why).startsWith("not judged from nvidia-smi topo -m: GPU3 (the GPU row lacks 5 NIC cells")
                .endsWith("; GPU0 … GPU2 (3 GPUs) left out: a number in the GPU NUMA ID column (GPU memory as a NUMA node, "
                        + "a Grace C2C GPU), whose path to the NIC NCCL may call P2C, which the matrix cannot show");
    }
}
