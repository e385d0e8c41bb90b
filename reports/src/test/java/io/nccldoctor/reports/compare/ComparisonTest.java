package io.nccldoctor.reports.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.nccldoctor.reports.results.ResultInputs;
import io.nccldoctor.reports.results.ResultSet;
import io.nccldoctor.reports.results.Sweep;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ComparisonTest {

    static final Path FIXTURES = Path.of("../collectives/src/test/resources/fixtures/public");
    static final Path CSCS = FIXTURES.resolve("nccl-tests-gh200-2node-version-header-cscs.txt");
    static final Path RTX = FIXTURES.resolve("nccl-tests-rtx5090-mpi-tag-output.txt");

    private static Comparison.Row row(Comparison c, String collective, String env, long size) {
        return c.rows().stream().filter(r -> r.collective().equals(collective) && r.env().equals(env) && r.sizeBytes() == size)
                .findFirst().orElseThrow(() -> new AssertionError("no row " + collective + " " + env + " " + size));
    }

    private static Comparison.Summary summary(Comparison c, String collective, String env) {
        return c.summaries().stream().filter(s -> s.collective().equals(collective) && s.env().equals(env)).findFirst().orElseThrow();
    }

    @Test
    void theFieldReportsAllgatherFixIsFaster() {
        Comparison c = Runs.fieldReport();
        for (long size = 1L << 21; size <= 1L << 33; size *= 4) {
            Comparison.Row r = row(c, "allgather", "default", size);
            assertThat(r.verdict()).as("allgather at %d B: %s", size, r.reason()).isEqualTo(Verdict.FASTER);
            assertThat(r.nA()).isEqualTo(3);
            assertThat(r.nB()).isEqualTo(3);
            assertThat(r.interval().get().low()).isGreaterThan(1.03);
            assertThat(r.test().get().p()).as("3 vs 3, every B above every A").isEqualTo(0.1);
        }
        Comparison.Row top = row(c, "allgather", "default", 1L << 33);
        assertThat(top.medianA().get()).isEqualTo(2.31);
        assertThat(top.medianB().get()).isEqualTo(11.37);
        assertThat(top.ratio().get()).as("91 / 18.5 Gbit/s, as printed").isCloseTo(11.37 / 2.31, within(1e-12));
        Comparison.Summary s = summary(c, "allgather", "default");
        assertThat(s.medianRatio().get()).isCloseTo(4.9, within(0.1));
        assertThat(s.line()).startsWith("allgather: B faster ").contains("to 8 GiB, median x4.9");
        assertThat(s.slower()).isEmpty();
        assertThat(c.a().ncclVersions()).containsExactly("2.28.3");
        assertThat(c.b().ncclVersions()).containsExactly("2.30.7");
    }

    @Test
    void anUnchangedCollectiveIsNoChange() {
        Comparison c = Runs.fieldReport();
        Comparison.Summary s = summary(c, "allreduce", "default");
        assertThat(s.faster()).isEmpty();
        assertThat(s.slower()).isEmpty();
        assertThat(s.line()).startsWith("allreduce: no detectable change, median x1.0");
        Comparison.Row r = row(c, "allreduce", "default", 1L << 33);
        assertThat(r.verdict()).isEqualTo(Verdict.NO_CHANGE);
        assertThat(r.ratio().get()).isCloseTo(1, within(0.011));
    }

    @Test
    void oneRunEachIsNotTestedButHasItsRatio() {
        Comparison c = Runs.fieldReport();
        Comparison.Row r = row(c, "allgather", "NCCL_PROTO=Simple", 1L << 33);
        assertThat(r.verdict()).isEqualTo(Verdict.NOT_TESTED);
        assertThat(r.ratio().get()).isCloseTo(11.37 / 2.31, within(1e-12));
        assertThat(r.interval().isValue()).isFalse();
        assertThat(r.test().reason()).contains("1 run of A and 1 of B").contains("need 3 per arm");
        assertThat(summary(c, "allgather", "NCCL_PROTO=Simple").line()).startsWith("allgather (NCCL_PROTO=Simple): not judged (");
    }

    @Test
    void roundedZeroSizesAreKeptButNotJudged() {
        Comparison.Row r = row(Runs.fieldReport(), "allgather", "default", 8);
        assertThat(r.roundedZero()).isTrue();
        assertThat(r.verdict()).isEqualTo(Verdict.NOT_TESTED);
        assertThat(r.ratio().isValue()).as("0.00 / 0.00").isFalse();
        assertThat(r.reason()).contains("rounds to 0.00");
    }

    @Test
    void rowsAreOrderedAndEveryKeyIsThere() {
        Comparison c = Runs.fieldReport();
        assertThat(c.rows()).hasSize(3 * Runs.sizes().size());
        assertThat(c.summaries()).extracting(Comparison.Summary::collective, Comparison.Summary::env)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("allgather", "default"),
                        org.assertj.core.groups.Tuple.tuple("allgather", "NCCL_PROTO=Simple"),
                        org.assertj.core.groups.Tuple.tuple("allreduce", "default"));
        assertThat(Comparison.envLabel(Map.of("NCCL_PROTO", "LL", "NCCL_ALGO", "Ring"))).isEqualTo("NCCL_ALGO=Ring NCCL_PROTO=LL");
    }

    @Test
    void slowerIsTheMirrorImage() {
        Comparison c = Comparison.of("NCCL 2.30.7", Runs.after("b"), "NCCL 2.28", Runs.before("a"), null);
        assertThat(row(c, "allgather", "default", 1L << 33).verdict()).isEqualTo(Verdict.SLOWER);
        assertThat(summary(c, "allgather", "default").line()).startsWith("allgather: B slower ").contains("median x0.20");
    }

    @Test
    void aChangeBelowMinChangeIsNoChangeEvenWhenSignificant() {
        // 2 % faster, every run of B above every run of A: significant at the floor, but inside 1 +- 3 %.
        List<Sweep> a = List.of(Runs.sweep("a", "allreduce", Map.of(), "2.28.3", 16, 0, 40, 30, 1.000),
                Runs.sweep("a", "allreduce", Map.of(), "2.28.3", 16, 1, 40, 30, 1.001),
                Runs.sweep("a", "allreduce", Map.of(), "2.28.3", 16, 2, 40, 30, 0.999));
        List<Sweep> b = List.of(Runs.sweep("b", "allreduce", Map.of(), "2.30.7", 16, 0, 40, 30, 1.020),
                Runs.sweep("b", "allreduce", Map.of(), "2.30.7", 16, 1, 40, 30, 1.021),
                Runs.sweep("b", "allreduce", Map.of(), "2.30.7", 16, 2, 40, 30, 1.019));
        Comparison c = Comparison.of("A", a, "B", b, null);
        Comparison.Row r = row(c, "allreduce", "default", 1L << 33);
        assertThat(r.test().get().significant(0.05)).isTrue();
        assertThat(r.verdict()).isEqualTo(Verdict.NO_CHANGE);
        assertThat(r.reason()).contains("does not clear 0.97 to 1.03");
        Comparison strict = Comparison.of("A", a, "B", b, new CompareThresholds(0.01, null, null, null, null));
        assertThat(row(strict, "allreduce", "default", 1L << 33).verdict()).as("with minChange 1 %").isEqualTo(Verdict.FASTER);
    }

    @Test
    void differentWorldSizesAreACaveat() {
        List<Sweep> a = List.of(Runs.sweep("a", "allreduce", Map.of(), "2.28.3", 8, 0, 40, 30, 1));
        List<Sweep> b = List.of(Runs.sweep("b", "allreduce", Map.of(), "2.30.7", 16, 0, 40, 30, 1));
        assertThat(Comparison.of("A", a, "B", b, null).notes()).anyMatch(n -> n.startsWith("A ran on 8 ranks, B on 16 ranks"));
    }

    @Test
    void thresholdsAreChecked() {
        assertThatThrownBy(() -> new CompareThresholds(null, 1.5, null, null, null)).hasMessageContaining("alpha");
        assertThatThrownBy(() -> new CompareThresholds(null, null, 10, null, null)).hasMessageContaining("bootstrap");
        assertThatThrownBy(() -> new CompareThresholds(null, null, null, null, 1)).hasMessageContaining("minSamples");
        assertThat(new CompareThresholds(0.05, null, null, null, null).withDefaults())
                .isEqualTo(new CompareThresholds(0.05, 0.05, 2000, 2026L, 3, 4.0));
    }

    private static ResultSet read(Path... files) {
        return new ResultInputs(p -> {
            throw new AssertionError("no capture here");
        }).read(java.util.Arrays.stream(files).map(Path::toString).toList(), "2026-11-30T00:00:00Z");
    }

    /** A published run against itself: the same numbers, so ratio 1 exactly and never a change. */
    @Test
    void aPublishedRunAgainstItself() {
        List<Sweep> once = read(CSCS).sweeps();
        Comparison c = Comparison.of("cscs", once, "cscs again", once, null);
        assertThat(c.rows()).hasSize(8).allSatisfy(r -> {
            assertThat(r.ratio().get()).isEqualTo(1.0);
            assertThat(r.verdict()).isEqualTo(Verdict.NOT_TESTED);
        });
        assertThat(c.a().ncclVersions()).containsExactly("2.30.7");
        List<Sweep> thrice = read(CSCS, CSCS, CSCS).sweeps();
        assertThat(thrice).extracting(Sweep::repeat).containsExactly(0, 1, 2);
        Comparison repeated = Comparison.of("cscs", thrice, "cscs again", thrice, null);
        assertThat(repeated.rows()).hasSize(8).allSatisfy(r -> {
            assertThat(r.ratio().get()).isEqualTo(1.0);
            assertThat(r.interval().get()).isEqualTo(new Stats.Interval(1, 1));
            assertThat(r.test().get().p()).as("all tied").isEqualTo(1);
            assertThat(r.verdict()).isEqualTo(Verdict.NO_CHANGE);
        });
        assertThat(repeated.summaries()).singleElement().extracting(Comparison.Summary::line)
                .isEqualTo("allreduce: no detectable change, median x1.00");
    }

    /**
     * NCCL 2.29.7 on one RTX 5090 shared by two ranks over sockets (A) against NCCL 2.30.7 on two GH200 nodes (B):
     * both all_reduce_perf from 1 MiB to 128 MiB on 2 ranks. The files' busbw at 128 MiB is 2.30 and 22.86.
     */
    @Test
    void twoPublishedAllreduceRuns() {
        Comparison c = Comparison.of("rtx5090", read(RTX).sweeps(), "gh200", read(CSCS).sweeps(), null);
        assertThat(c.a().ncclVersions()).containsExactly("2.29.7");
        assertThat(c.b().ncclVersions()).containsExactly("2.30.7");
        assertThat(c.a().ranks()).containsExactly(2);
        assertThat(c.notes()).noneMatch(n -> n.contains("world sizes"));
        Comparison.Row top = row(c, "allreduce", "default", 134217728);
        assertThat(top.medianA().get()).isEqualTo(2.30);
        assertThat(top.medianB().get()).isEqualTo(22.86);
        assertThat(top.ratio().get()).isEqualTo(22.86 / 2.30);
        assertThat(row(c, "allreduce", "default", 1048576).ratio().get()).isEqualTo(3.09 / 0.24);
        assertThat(top.verdict()).as("one run each").isEqualTo(Verdict.NOT_TESTED);
        // ratios at 1 MiB … 128 MiB, sorted: 15.06/1.91, 8.81/0.96, 19.96/2.17, 21.82/2.24, 22.50/2.29, 22.86/2.30,
        // 5.90/0.48, 3.09/0.24; the median is the mean of the 4th and 5th
        assertThat(summary(c, "allreduce", "default").medianRatio().get()).isCloseTo((21.82 / 2.24 + 22.50 / 2.29) / 2, within(1e-12));
    }

    @Test
    void emptyArmsGiveAnEmptyComparison() {
        Comparison c = Comparison.of("A", Collections.emptyList(), "B", List.of(), null);
        assertThat(c.rows()).isEmpty();
        assertThat(c.summaries()).isEmpty();
    }
}
