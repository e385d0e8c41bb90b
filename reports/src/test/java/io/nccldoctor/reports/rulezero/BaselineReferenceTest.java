package io.nccldoctor.reports.rulezero;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Fact;
import io.nccldoctor.reports.ResultThresholds;
import io.nccldoctor.reports.baseline.Baselines;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rule zero without a nccl-tests run: a harness table written here (8 H100 in one node) held against the published
 * baseline for that hardware (configs/baselines.yaml: h100-8-allreduce-nvls, 480 GB/s from 2 GiB, healthy from 460).
 */
class BaselineReferenceTest {

    static final Baselines SHIPPED = Baselines.load(Path.of("../configs/baselines.yaml"));

    @TempDir
    Path dir;

    static BaselineReference h100(int nodes) {
        return new BaselineReference(SHIPPED, Fact.of("NVIDIA H100 80GB HBM3"), Fact.of(nodes), Optional.empty());
    }

    private List<SuspectRow> table(String rows) throws IOException {
        Path t = dir.resolve("harness.csv");
        Files.writeString(t, "collective,dtype,count,ranks,busbw\n" + rows);
        return SuspectTable.parse(t);
    }

    @Test
    void belowTheBaselineWithoutNcclTestsSaysSoAndWhatToRun() throws IOException {
        List<SuspectRow> suspect = table("""
                allreduce,float,1048576,8,60.0
                allreduce,float,268435456,8,410.0
                allreduce,float,1073741824,8,190.0
                """);
        RuleZero z = RuleZero.of(suspect, List.of(), List.of(), ResultThresholds.DEFAULTS, h100(1));
        assertThat(z.rows()).extracting(Judgement::verdict).containsExactly(Verdict.NO_REFERENCE, Verdict.NO_REFERENCE,
                Verdict.BELOW_BASELINE);
        assertThat(z.verdict()).isEqualTo(Verdict.BELOW_BASELINE);
        assertThat(z.verdictLine()).startsWith("BELOW_BASELINE: no nccl-tests run given, so the reference is a published baseline "
                + "(configs/baselines.yaml): 1 of 3 sizes held against it, 1 below its healthy range (down to 40 % at 4 GiB); run "
                + "all_reduce_perf -d float -b 4194304 -e");
        assertThat(z.rows().get(2).why()).contains("h100-8-allreduce-nvls").contains("https://github.com/NVIDIA/nccl-tests/issues/212")
                .contains("Run nccl-tests on the same ranks to tell the harness from the hardware");
        assertThat(z.rows().get(1).why()).as("1 GiB is under the baseline's 2 GiB: latency still counts").contains("none was given");
    }

    @Test
    void atTheBaselineIsSaidWithItsSource() throws IOException {
        RuleZero z = RuleZero.of(table("allreduce,float,536870912,8,470.0\n"), List.of(), List.of(), ResultThresholds.DEFAULTS, h100(1));
        assertThat(z.verdict()).isEqualTo(Verdict.AT_BASELINE);
        assertThat(z.verdictLine()).startsWith("AT_BASELINE: no nccl-tests run given").contains("all within its healthy range");
    }

    @Test
    void withoutTheHardwareOrOnOtherHardwareThereIsNoReference() throws IOException {
        List<SuspectRow> suspect = table("allreduce,float,536870912,8,190.0\n");
        assertThat(RuleZero.of(suspect, List.of(), List.of(), ResultThresholds.DEFAULTS).verdict()).isEqualTo(Verdict.NO_REFERENCE);
        assertThat(RuleZero.of(suspect, List.of(), List.of(), ResultThresholds.DEFAULTS, h100(2)).verdict())
                .as("8 ranks on 2 nodes: 4 per node, no entry").isEqualTo(Verdict.NO_REFERENCE);
    }
}
