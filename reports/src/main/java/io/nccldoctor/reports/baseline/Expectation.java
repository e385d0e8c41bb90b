package io.nccldoctor.reports.baseline;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.Fact;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * A run against the first baseline of configs/baselines.yaml that matches its hardware, collective and algorithm: its
 * best out-of-place busbw from the entry's minBytes up, the ratio to the published figure, and the verdict.
 *
 * @param verdict     see {@link Verdict}
 * @param baseline    the entry, or why none applies
 * @param figureGBps  the run's largest out-of-place busbw from minBytes up
 * @param atBytes     the size it was measured at
 * @param expectedGBps the published figure (times the NICs per node for a per-NIC entry); for a floor, its low
 * @param lowGBps     the healthy range's low end, scaled likewise
 * @param ratio       figure / expected
 * @param why         one sentence: what was matched and how the run compares, or why it was not judged
 */
public record Expectation(Verdict verdict, Fact<Baselines.Baseline> baseline, Fact<Double> figureGBps, Fact<Long> atBytes,
                          Fact<Double> expectedGBps, Fact<Double> lowGBps, Fact<Double> ratio, String why) {

    public enum Verdict {
        /** No entry matches the hardware the input shows (or it shows too little to match one). */
        NO_BASELINE,
        /** An entry matches, but the run stops below its minBytes: small sizes measure latency, not bandwidth. */
        TOO_SMALL,
        /** At or above the entry's low end. */
        WITHIN,
        /** Below the low end, not below farBelow x expected. */
        BELOW,
        /** Below farBelow x expected. */
        FAR_BELOW
    }

    /** Judges {@code run} against the first entry of {@code b} that applies. */
    public static Expectation of(Baselines b, Run run, double farBelow) {
        Optional<Baselines.Baseline> entry = b.baselines().stream().filter(x -> applies(x, run)).findFirst();
        if (entry.isEmpty()) {
            String why = "no baseline in " + b.source() + " for " + run.collective().orElse("an unnamed collective") + " on "
                    + run.hardware().summary() + nicText(run) + ". " + recognised(run);
            return none(Verdict.NO_BASELINE, Fact.absent(why), why);
        }
        Baselines.Baseline x = entry.get();
        double n = x.perNic() ? run.nics().orElseThrow().perNode() : 1;
        Optional<NcclTestsOutput.Row> best = run.rows().stream().filter(r -> r.sizeBytes() >= x.minBytes())
                .max(Comparator.comparingDouble(r -> r.outOfPlace().busBwGBps()));
        if (best.isEmpty()) {
            long largest = run.rows().stream().mapToLong(NcclTestsOutput.Row::sizeBytes).max().orElse(0);
            String why = "baseline " + x.id() + " holds from " + Fmt.size(x.minBytes()) + " up, and the run stops at " + Fmt.size(largest)
                    + ": smaller sizes measure latency more than bandwidth";
            return none(Verdict.TOO_SMALL, Fact.of(x), why);
        }
        double figure = best.get().outOfPlace().busBwGBps();
        double low = x.low() * n;
        double expected = (x.expectedGBps() != null ? x.expectedGBps() : x.low()) * n;
        double ratio = figure / expected;
        Verdict v = figure >= low ? Verdict.WITHIN : ratio < farBelow ? Verdict.FAR_BELOW : Verdict.BELOW;
        String why = Fmt.gb(figure) + " at " + Fmt.size(best.get().sizeBytes()) + " is " + Fmt.pct(ratio) + " of baseline " + x.id() + " ("
                + x.kind() + ", " + Fmt.gb(expected) + (x.perNic() ? " = " + Fmt.num(n) + " NICs x " + Fmt.gb(x.expectedGBps()) : "")
                + "; healthy from " + Fmt.gb(low) + ")";
        return new Expectation(v, Fact.of(x), Fact.of(figure), Fact.of(best.get().sizeBytes()), Fact.of(expected), Fact.of(low),
                Fact.of(ratio), why);
    }

    private static Expectation none(Verdict v, Fact<Baselines.Baseline> b, String why) {
        Fact<Double> no = Fact.absent(why);
        return new Expectation(v, b, no, Fact.absent(why), no, no, no, why);
    }

    /** Whether an entry applies: collective, algorithm, then every key of its match. */
    static boolean applies(Baselines.Baseline x, Run run) {
        if (!run.collective().isValue() || !x.collectives().contains(run.collective().get())) {
            return false;
        }
        boolean allreduce = run.collective().get().equals("allreduce");
        if (x.algorithm().equals("nvls") && (!allreduce || run.nvlsOff())) {
            return false;
        }
        if (x.algorithm().equals("ring") && allreduce && !run.nvlsOff()) {
            return false;
        }
        return matches(x.match(), run);
    }

    /** Every key the match sets agrees with what the input shows; a key the input does not show does not match. */
    static boolean matches(Baselines.Match m, Run run) {
        Hardware h = run.hardware();
        if (m.gpuModel() != null && !h.gpuModel().fold(g -> Baselines.gpuMatches(m.gpuModel(), g), why -> false)) {
            return false;
        }
        if (m.ranks() != null && !h.ranks().fold(r -> r.equals(m.ranks()), why -> false)) {
            return false;
        }
        if (m.nodes() != null && !h.nodes().fold(r -> r.equals(m.nodes()), why -> false)) {
            return false;
        }
        if (m.nodesAtLeast() != null && !h.nodes().fold(r -> r >= m.nodesAtLeast(), why -> false)) {
            return false;
        }
        if (m.gpusPerNode() != null && !h.gpusPerNode().fold(r -> r.equals(m.gpusPerNode()), why -> false)) {
            return false;
        }
        if (m.nicRateGbps() != null && !run.nics().map(n -> n.rateGbps().fold(r -> Math.abs(r - m.nicRateGbps()) <= 0.01 * m.nicRateGbps(),
                why -> false)).orElse(false)) {
            return false;
        }
        return m.nicsPerNode() == null || run.nics().map(n -> n.perNode() == m.nicsPerNode()).orElse(false);
    }

    private static String nicText(Run run) {
        return run.nics().map(n -> ", " + n.perNode() + " NIC" + (n.perNode() == 1 ? "" : "s") + " per node"
                + n.rateGbps().fold(r -> " at " + Fmt.num(r) + " Gbit/s", why -> "")).orElse("");
    }

    /** What was read, and what was not: the sentence that tells the reader what to add to get a baseline. */
    static String recognised(Run run) {
        List<String> missing = new ArrayList<>();
        Hardware h = run.hardware();
        h.gpuModel().fold(g -> null, why -> missing.add("the GPU model (" + why + ")"));
        h.nodes().fold(g -> null, why -> missing.add("the hosts (" + why + ")"));
        if (run.nics().isEmpty()) {
            missing.add("the NICs (give a capture, or a bundle's hardware: nicsPerNode and nicRateGbps)");
        }
        return missing.isEmpty() ? "Recognised: " + h.summary() + nicText(run) + "."
                : "Not in the input: " + String.join("; ", missing) + ".";
    }
}
