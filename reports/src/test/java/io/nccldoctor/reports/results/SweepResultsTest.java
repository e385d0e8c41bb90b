package io.nccldoctor.reports.results;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RulesConfig;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The example A/B sweep result (JSONL) read as sweeps, per arm and all together. */
class SweepResultsTest {

    static final Path AB = ExampleReports.EXAMPLE.resolve("ab-nccl-2.28.3-vs-2.30.7.jsonl");

    @Test
    void armsAndLabels() {
        assertThat(SweepResults.arms(AB)).containsExactly("a", "b");
        List<Sweep> b = SweepResults.sweeps(AB, "b");
        assertThat(b).hasSize(6).allMatch(s -> s.ncclVersion().get().equals("2.30.7"));
        assertThat(b).extracting(Sweep::label).containsOnly("allreduce", "allgather");
        assertThat(b).extracting(Sweep::repeat).containsExactly(0, 0, 1, 1, 2, 2);
        List<Sweep> all = SweepResults.sweeps(AB, null);
        assertThat(all).extracting(Sweep::label).contains("allgather [a]", "allgather [b]");
    }

    @Test
    void reportJudgesEachNcclVersionOnItsOwn() {
        ResultSet set = new ResultInputs(p -> {
            throw new AssertionError();
        }).read(List.of(AB.toString()), "2026-11-30T00:00:00Z");
        List<Finding> f = Reports.judge(set, List.of(), new RuleContext(RulesConfig.defaults(), NodeShape.none())).findings();
        assertThat(f).extracting(Finding::subject).containsExactly("allgather [a]");
    }
}
