package io.nccldoctor.reports.compare;

import io.nccldoctor.core.Fact;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;

/** Turns the samples of one key into a judged row, and the rows into caveats for the whole comparison. */
final class Judge {

    private Judge() {
    }

    static Comparison.Row row(String collective, String env, long size, List<Double> a, List<Double> b, CompareThresholds t) {
        Fact<Double> medianA = a.isEmpty() ? Fact.absent("A did not measure this size") : Fact.of(Stats.median(array(a)));
        Fact<Double> medianB = b.isEmpty() ? Fact.absent("B did not measure this size") : Fact.of(Stats.median(array(b)));
        boolean zero = Stream.concat(a.stream(), b.stream()).anyMatch(v -> v < Comparison.ZERO);
        Fact<Double> ratio = !medianA.isValue() ? medianA : !medianB.isValue() ? medianB
                : medianA.get() < Comparison.ZERO || medianB.get() < Comparison.ZERO ? Fact.absent("busbw rounds to zero")
                : Fact.of(medianB.get() / medianA.get());
        String untested = untested(a.size(), b.size(), zero, t);
        if (untested != null) {
            return new Comparison.Row(collective, env, size, a, b, medianA, medianB, ratio, Fact.absent(untested), Fact.absent(untested),
                    zero, Verdict.NOT_TESTED, untested);
        }
        Stats.Interval interval = Stats.ratioInterval(array(a), array(b), t.bootstrap(), t.seed());
        Stats.UTest test = Stats.mannWhitney(array(a), array(b));
        Verdict v = Verdict.of(interval, test, t);
        return new Comparison.Row(collective, env, size, a, b, medianA, medianB, ratio, Fact.of(interval), Fact.of(test), false, v,
                reason(v, interval, test, t, a.size(), b.size()));
    }

    /** Why a key gets no interval, test or verdict; null when it gets them. */
    private static String untested(int na, int nb, boolean zero, CompareThresholds t) {
        if (na == 0 || nb == 0) {
            return "only " + (na == 0 ? "B" : "A") + " measured this size";
        }
        if (zero) {
            return "busbw rounds to 0.00 GB/s in a run at this size (latency-bound): left out of the verdicts";
        }
        if (na < t.minSamples() || nb < t.minSamples()) {
            return Fmt.runs(na) + " of A and " + nb + " of B; the interval and the test need " + t.minSamples() + " per arm";
        }
        return null;
    }

    private static String reason(Verdict v, Stats.Interval i, Stats.UTest test, CompareThresholds t, int na, int nb) {
        String p = "p = " + Fmt.p(test.p());
        String atFloor = test.p() < t.alpha() ? "" : " (the smallest p " + na + " vs " + nb + " runs allow: every run of "
                + (v == Verdict.FASTER ? "B beat every run of A" : "A beat every run of B") + ")";
        String up = Fmt.ratio(1 + t.minChange());
        String down = Fmt.ratio(1 - t.minChange());
        return switch (v) {
            case FASTER -> "interval " + Fmt.interval(i) + " above " + up + ", " + p + atFloor;
            case SLOWER -> "interval " + Fmt.interval(i) + " below " + down + ", " + p + atFloor;
            case NO_CHANGE -> i.low() > 1 + t.minChange() || i.high() < 1 - t.minChange()
                    ? "interval " + Fmt.interval(i) + " clears " + down + " to " + up + " but " + p + " is not below " + t.alpha()
                    : "interval " + Fmt.interval(i) + " does not clear " + down + " to " + up;
            case NOT_TESTED -> throw new IllegalStateException("a tested key has a verdict");
        };
    }

    /** Caveats for the whole comparison, in a fixed order. */
    static List<String> notes(Comparison.Arm a, Comparison.Arm b, List<Comparison.Row> rows, CompareThresholds t) {
        List<String> notes = new ArrayList<>();
        if (!a.ranks().isEmpty() && !b.ranks().isEmpty() && !a.ranks().equals(b.ranks())) {
            notes.add("A ran on " + ranks(a) + ", B on " + ranks(b) + ": busbw of different world sizes is not like for like");
        }
        for (Comparison.Arm arm : List.of(a, b)) {
            String which = arm == a ? "A" : "B";
            if (arm.ncclVersions().size() > 1) {
                notes.add(which + " mixes NCCL versions " + arm.versions());
            } else if (arm.ncclVersions().isEmpty() && arm.sweeps() > 0) {
                notes.add(which + "'s outputs do not say which NCCL they ran");
            }
        }
        TreeSet<String> floors = new TreeSet<>();
        for (Comparison.Row r : rows) {
            if (r.test().isValue() && r.test().get().floor() >= t.alpha()) {
                floors.add(r.nA() + " vs " + r.nB() + " runs (p at least " + Fmt.p(r.test().get().floor()) + ")");
            }
        }
        if (!floors.isEmpty()) {
            notes.add("With " + String.join(" and ", floors) + " the exact U test cannot give p below alpha " + t.alpha()
                    + ". There FASTER or SLOWER needs p at that floor, which means every run of one arm beat every run of the "
                    + "other (without a change, half the floor's chance in each direction), and the interval to clear "
                    + Fmt.ratio(1 - t.minChange()) + " to " + Fmt.ratio(1 + t.minChange()) + "; 4 runs per arm let p go down to 0.029");
        }
        for (String arm : List.of("A", "B")) {
            List<String> sizes = rows.stream().filter(r -> (arm.equals("A") ? r.interpolatedA() : r.interpolatedB()) > 0)
                    .map(r -> r.collective() + " " + Fmt.size(r.sizeBytes())).toList();
            if (!sizes.isEmpty()) {
                notes.add(arm + "'s runs did not measure " + sizes.size() + (sizes.size() == 1 ? " size" : " sizes") + " the other runs did; "
                        + "they were read between each run's own neighbouring sizes in log2(size) (at most x"
                        + Fmt.ratio(t.interpolateMaxFactor()) + " apart): " + String.join(", ", sizes));
            }
        }
        long few = rows.stream().filter(r -> r.verdict() == Verdict.NOT_TESTED && !r.roundedZero() && r.nA() > 0 && r.nB() > 0).count();
        if (few > 0) {
            notes.add(few + (few == 1 ? " size has" : " sizes have") + " fewer than " + t.minSamples()
                    + " runs in an arm: the ratio is shown, but no interval, test or verdict");
        }
        return notes;
    }

    private static String ranks(Comparison.Arm arm) {
        return String.join(" and ", arm.ranks().stream().map(String::valueOf).toList()) + " ranks";
    }

    static double[] array(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
