package io.nccldoctor.reports.tune;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;
import static org.assertj.core.api.Assertions.tuple;

import io.nccldoctor.core.InputException;
import io.nccldoctor.reports.compare.CompareThresholds;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The decisions: where a switch is real, merged into rows; what stays with NCCL and why; what is never judged. */
class TunerTest {

    static final Map<String, String> DEFAULT = Map.of();
    static final Map<String, String> LL128 = Map.of("NCCL_PROTO", "LL128");
    static final String[] SIMPLE_LOG = Measurements.all("RING/SIMPLE");
    static final String[] LL128_LOG = Measurements.all("RING/LL128");

    static Tuning tune(Measurements m, boolean asEnv) {
        return Tuner.tune(List.of("synthetic.jsonl"), m.read(), new Tuner.Options(CompareThresholds.DEFAULTS, null), asEnv);
    }

    /** NCCL_PROTO=LL128 x1.6 at the three middle sizes, x0.75 at the two outer ones: the field report's trap, per size. */
    static Measurements planted(int reps) {
        return new Measurements().add("allreduce", DEFAULT, reps, Measurements.all(10), SIMPLE_LOG)
                .add("allreduce", LL128, reps, new double[] {7.5, 16, 16, 16, 7.5}, LL128_LOG);
    }

    @Test
    void thePlantedRangeBecomesOneRowAndTheOuterSizesStayWithNccl() {
        Tuning t = tune(planted(5), false);
        assertThat(t.rows()).containsExactly(new TunerRow("allreduce", 1L << 18, 1L << 20, "ring", "ll128", -1, 1, 2));
        List<Tuning.SizeDecision> sizes = t.shapes().get(0).sizes();
        assertThat(sizes).extracting(Tuning.SizeDecision::decision).containsExactly(Tuning.Decision.KEEP, Tuning.Decision.SWITCH,
                Tuning.Decision.SWITCH, Tuning.Decision.SWITCH, Tuning.Decision.KEEP);
        assertThat(sizes.get(0).reason()).isEqualTo("NCCL's choice is the fastest measured (next: NCCL_PROTO=LL128 x0.75)");
        Tuning.Candidate c = sizes.get(2).best().get();
        assertThat(c.ratio()).as("median ratio 16/10").isCloseTo(1.6, offset(1e-9));
        assertThat(c.interval().get().low()).as("the interval is above 1.03").isGreaterThan(1.03);
        assertThat(c.p().get()).as("5 against 5, every run faster: the exact U test's 2/252").isCloseTo(2.0 / 252,
                offset(1e-9));
        assertThat(sizes.get(2).ncclChoice().get().label()).isEqualTo("ring/simple");
        assertThat(t.lacking()).isEmpty();
    }

    @Test
    void nothingFasterMeansNoRowsAndAFileThatSaysSo() {
        Measurements m = new Measurements().add("allreduce", DEFAULT, 3, Measurements.all(10), SIMPLE_LOG)
                .add("allreduce", LL128, 3, Measurements.all(7.5), LL128_LOG);
        Tuning t = tune(m, false);
        assertThat(t.rows()).isEmpty();
        assertThat(t.shapes().get(0).sizes()).allMatch(d -> d.decision() == Tuning.Decision.KEEP);
        String file = TunerFile.render(t);
        assertThat(file).contains("# no rows: nothing measured beats NCCL's own choice");
        assertThat(ExampleTunerConfig.read(file)).isEmpty();
    }

    @Test
    void tooFewRunsAreNamedAndNeverJudged() {
        // LL128 looks 60 % faster everywhere, but with two runs at the third size and NCCL's defaults with two at the fifth
        Measurements m = new Measurements().add("allreduce", DEFAULT, 3, new double[] {10, 10, 10, 10, Double.NaN}, SIMPLE_LOG)
                .add("allreduce", DEFAULT, 2, new double[] {Double.NaN, Double.NaN, Double.NaN, Double.NaN, 10}, SIMPLE_LOG)
                .add("allreduce", LL128, 3, new double[] {16, 16, Double.NaN, 16, 16}, LL128_LOG)
                .add("allreduce", LL128, 2, new double[] {Double.NaN, Double.NaN, 16, Double.NaN, Double.NaN}, LL128_LOG);
        Tuning t = tune(m, false);
        assertThat(t.lacking()).containsExactly(new Tuning.Lacking("allreduce", 2, 1, "NCCL_PROTO=LL128", 1L << 19, 2, 3),
                new Tuning.Lacking("allreduce", 2, 1, "default", 1L << 21, 2, 3));
        List<Tuning.SizeDecision> sizes = t.shapes().get(0).sizes();
        assertThat(sizes.get(2).decision()).isEqualTo(Tuning.Decision.KEEP);
        assertThat(sizes.get(2).reason()).isEqualTo("no other setting was judged at this size");
        assertThat(sizes.get(4).decision()).isEqualTo(Tuning.Decision.NOT_JUDGED);
        assertThat(sizes.get(4).reason()).isEqualTo("2 run(s) with NCCL's defaults; 3 needed");
        assertThat(t.rows()).as("the unjudged sizes split the range").containsExactly(
                new TunerRow("allreduce", 1L << 17, 1L << 18, "ring", "ll128", -1, 1, 2),
                new TunerRow("allreduce", 1L << 20, 1L << 20, "ring", "ll128", -1, 1, 2));
        assertThat(TuneText.render(t)).contains("Too few runs, not judged (3 needed per setting and size):",
                "allreduce on 2 ranks, 1 node, NCCL_PROTO=LL128: 512 KiB (2 runs)", "allreduce on 2 ranks, 1 node, default: 2 MiB (2 runs)");
    }

    @Test
    void adjacentSizesWithDifferentChoicesAreSeparateRows() {
        Measurements m = new Measurements().add("allgather", DEFAULT, 3, Measurements.all(10), SIMPLE_LOG)
                .add("allgather", LL128, 3, new double[] {14, 14, 8, 8, 8}, LL128_LOG)
                .add("allgather", Map.of("NCCL_PROTO", "LL"), 3, new double[] {8, 8, 13, 8, 8}, Measurements.all("RING/LL"));
        Tuning t = tune(m, false);
        assertThat(t.rows()).containsExactly(new TunerRow("allgather", 1L << 17, 1L << 18, "ring", "ll128", -1, 1, 2),
                new TunerRow("allgather", 1L << 19, 1L << 19, "ring", "ll", -1, 1, 2));
    }

    @Test
    void aFasterSettingThatNoLogNamesIsNotWritten() {
        Measurements m = new Measurements().add("allreduce", DEFAULT, 3, Measurements.all(10), null)
                .add("allreduce", LL128, 3, Measurements.all(16), null);
        Tuning t = tune(m, false);
        assertThat(t.rows()).isEmpty();
        assertThat(t.shapes().get(0).sizes().get(0).reason()).startsWith("NCCL_PROTO=LL128 is faster (busbw x1.60")
                .contains("but what it ran is not known (no NCCL log; NCCL_ALGO unset: NCCL chooses)");
    }

    @Test
    void bothPinsNameWhatRanWithoutALog() {
        Measurements m = new Measurements().add("allreduce", DEFAULT, 3, Measurements.all(10), null)
                .add("allreduce", Map.of("NCCL_PROTO", "LL128", "NCCL_ALGO", "Tree", "NCCL_MAX_NCHANNELS", "4"), 3, Measurements.all(16), null);
        Tuning t = tune(m, false);
        assertThat(t.rows()).containsExactly(new TunerRow("allreduce", 1L << 17, 1L << 21, "tree", "ll128", 4, 1, 2));
    }

    @Test
    void aChannelCountAloneIsAChange() {
        Measurements m = new Measurements().add("allreduce", DEFAULT, 3, Measurements.all(10), SIMPLE_LOG)
                .add("allreduce", Map.of("NCCL_MAX_NCHANNELS", "8"), 3, Measurements.all(12), SIMPLE_LOG)
                .add("allreduce", Map.of("NCCL_PROTO", "Simple"), 3, Measurements.all(12), SIMPLE_LOG);
        Tuning t = tune(m, false);
        assertThat(t.rows()).as("NCCL_PROTO=Simple runs what NCCL runs; the channel count is what differs")
                .containsExactly(new TunerRow("allreduce", 1L << 17, 1L << 21, "ring", "simple", 8, 1, 2));
    }

    @Test
    void whatATunerRowCannotSayIsLeftOutWithWhy() {
        Measurements m = new Measurements().add("alltoall", DEFAULT, 3, Measurements.all(10), null)
                .add("alltoall", LL128, 3, Measurements.all(16), null)
                .add("allreduce", DEFAULT, 3, Measurements.all(10), SIMPLE_LOG)
                .add("allreduce", Map.of("NCCL_NET_GDR_LEVEL", "PHB"), 3, Measurements.all(16), SIMPLE_LOG)
                .add("allreduce", Map.of("NCCL_MIN_NCHANNELS", "4"), 3, Measurements.all(16), SIMPLE_LOG);
        Tuning t = tune(m, false);
        assertThat(t.rows()).isEmpty();
        assertThat(t.leftOut()).containsExactly(
                "alltoall: NCCL's example tuner has no row for it (plugin.c reads any other name as allreduce)",
                "allreduce on 2 ranks, 1 node, NCCL_MIN_NCHANNELS=4: NCCL_MIN_NCHANNELS=4 NCCL_MAX_NCHANNELS=null: a tuner row gives one "
                        + "channel count, so only NCCL_MAX_NCHANNELS=N (NCCL_MIN_NCHANNELS unset or the same) can be written",
                "allreduce on 2 ranks, 1 node, NCCL_NET_GDR_LEVEL=PHB: sets NCCL_NET_GDR_LEVEL, which a tuner row cannot express");
    }

    @Test
    void asEnvRefusesAPinThatLosesSomewhere() {
        Tuning t = tune(planted(5), true);
        assertThat(t.pins()).hasSize(1);
        Tuning.PinCost p = t.pins().get(0);
        assertThat(p.pin()).isEqualTo("NCCL_PROTO=LL128");
        assertThat(p.refused()).isTrue();
        assertThat(p.losses()).extracting(Tuning.PinRange::fromBytes, Tuning.PinRange::toBytes)
                .containsExactly(tuple(1L << 17, 1L << 17), tuple(1L << 21, 1L << 21));
        assertThat(p.gains()).extracting(Tuning.PinRange::fromBytes, Tuning.PinRange::toBytes)
                .containsExactly(tuple(1L << 18, 1L << 20));
        assertThat(TuneFindings.of(t)).singleElement().satisfies(f -> {
            assertThat(f.code()).isEqualTo("NCCL_GLOBAL_PIN");
            assertThat(f.severity().label()).isEqualTo("warn");
            assertThat(f.evidence()).containsExactly("slower on allreduce (2 ranks, 1 node) at 128 KiB: busbw x0.75 (intervals 0.75 to 0.75)",
                    "slower on allreduce (2 ranks, 1 node) at 2 MiB: busbw x0.75 (intervals 0.75 to 0.75)",
                    "faster on allreduce (2 ranks, 1 node) from 256 KiB to 1 MiB: busbw x1.60 (intervals 1.59 to 1.61)");
        });
        assertThat(TuneText.render(t)).contains("NCCL_PROTO=LL128: REFUSED, it loses on allreduce (2 ranks, 1 node) at 128 KiB: busbw x0.75");
    }

    @Test
    void aPinThatLosesNowhereIsNotRefused() {
        Measurements m = new Measurements().add("allreduce", DEFAULT, 3, Measurements.all(10), SIMPLE_LOG)
                .add("allreduce", LL128, 3, new double[] {10, 16, 16, 10, 10}, LL128_LOG);
        Tuning t = tune(m, true);
        assertThat(t.pins().get(0).refused()).isFalse();
        assertThat(t.pins().get(0).losses()).isEmpty();
        assertThat(TuneFindings.of(t)).isEmpty();
    }

    @Test
    void aSettingThatReturnsWrongElementsIsNeverARow() {
        Measurements m = new Measurements().add("allreduce", DEFAULT, 3, Measurements.all(10), SIMPLE_LOG)
                .add("allreduce", LL128, 3, Measurements.all(16), LL128_LOG).wrong(1L << 19, 3);
        Tuning t = tune(m, false);
        assertThat(t.rows()).containsExactly(new TunerRow("allreduce", 1L << 17, 1L << 18, "ring", "ll128", -1, 1, 2),
                new TunerRow("allreduce", 1L << 20, 1L << 21, "ring", "ll128", -1, 1, 2));
        assertThat(t.leftOut()).containsExactly("allreduce on 2 ranks, 1 node, NCCL_PROTO=LL128 at 512 KiB: 9 wrong element(s) in its runs; "
                + "a setting that corrupts data is never a row");
    }

    @Test
    void twoNcclVersionsAreRefused() {
        Measurements m = new Measurements().add("allreduce", DEFAULT, 3, Measurements.all(10), SIMPLE_LOG)
                .add("allreduce", LL128, 3, Measurements.all(16), LL128_LOG, "2.21.5");
        assertThatThrownBy(() -> tune(m, false)).isInstanceOf(InputException.class)
                .hasMessage("the runs used NCCL 2.21.5, 2.28.3: a tuner file is for one NCCL version; tune each on its own (--arm NAME picks "
                        + "one arm of an A/B sweep)");
    }

    @Test
    void noDefaultsNothingToJudgeAgainst() {
        Tuning t = tune(new Measurements().add("allreduce", LL128, 3, Measurements.all(16), LL128_LOG), false);
        assertThat(t.shapes()).isEmpty();
        assertThat(t.leftOut()).containsExactly("allreduce on 2 ranks, 1 node: no run with NCCL's defaults (every axis of the matrix "
                + "needs 'default'): nothing to judge against");
    }
}
