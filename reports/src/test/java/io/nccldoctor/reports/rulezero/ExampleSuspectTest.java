package io.nccldoctor.reports.rulezero;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.reports.ResultThresholds;
import io.nccldoctor.reports.results.Sweep;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shipped example data (configs/examples/field-report-cluster) gives what its README says. */
class ExampleSuspectTest {

    @Test
    void theExampleSuspectTableAgainstTheExampleNcclTests() {
        Sweep reference = Inputs.read(Inputs.EXAMPLE.resolve("alltoall-nccl-tests.txt"));
        assertThat(reference.collective().get()).isEqualTo("alltoall");
        assertThat(reference.ranks().get()).isEqualTo(3);
        assertThat(reference.nodes().get()).isEqualTo(3);
        assertThat(reference.largest().get().outOfPlace().busBwGBps()).isEqualTo(5.18);
        List<SuspectRow> suspect = SuspectTable.parse(Inputs.EXAMPLE.resolve("suspect-alltoall.csv"));
        RuleZero z = RuleZero.of(suspect, List.of(reference), List.of(), ResultThresholds.DEFAULTS);
        assertThat(z.rows()).extracting(Judgement::verdict).containsExactly(Verdict.CONSISTENT, Verdict.HARNESS_ARTIFACT,
                Verdict.HARNESS_ARTIFACT, Verdict.HARNESS_ARTIFACT, Verdict.HARNESS_ARTIFACT, Verdict.HARNESS_ARTIFACT,
                Verdict.HARNESS_ARTIFACT, Verdict.CONSISTENT, Verdict.HARNESS_ARTIFACT, Verdict.NO_REFERENCE);
        assertThat(z.rows().stream().filter(j -> j.verdict() == Verdict.HARNESS_ARTIFACT)).as("every hand-sized tensor is misaligned")
                .allMatch(j -> j.audit().conditioningDiffers() && j.reference().get().kind() == ReferenceMatch.Kind.SAME_REQUEST);
        assertThat(z.rows().get(0).reference().get().kind()).isEqualTo(ReferenceMatch.Kind.SAME_SIZE);
        assertThat(z.rows().get(6).audit().asGiven().chunkBytes()).isEqualTo(178_956_968L);
        assertThat(z.verdictLine()).startsWith("HARNESS_ARTIFACT: it is the harness, not the hardware: 7 of 10 sizes run below 50 %")
                .contains("every one splits into chunks off 16-byte boundaries").endsWith("; 1 of 10 sizes without a reference.");
    }
}
