package io.nccldoctor.reports.tune;

import io.nccldoctor.core.Fact;
import io.nccldoctor.reports.compare.CompareThresholds;
import io.nccldoctor.reports.compare.Verdict;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The decision at one size from the candidates judged there, with the phrase that says why. */
final class Decisions {

    private Decisions() {
    }

    static Tuning.SizeDecision pick(ShapeRuns s, long size, CompareThresholds t, Fact<Choice> ncclChoice, int nDefault, Fact<Double> median,
                                    List<Tuning.Candidate> judged) {
        Comparator<Tuning.Candidate> byRatio = Comparator.comparingDouble(Tuning.Candidate::ratio);
        List<Tuning.Candidate> faster = judged.stream().filter(c -> c.verdict() == Verdict.FASTER).toList();
        Optional<Tuning.Candidate> writable = faster.stream()
                .filter(c -> c.choice().isValue() && (!ncclChoice.isValue() || c.choice().get().changes(ncclChoice.get()))).max(byRatio);
        if (writable.isPresent()) {
            Tuning.Candidate w = writable.get();
            return new Tuning.SizeDecision(size, Tuning.Decision.SWITCH, ncclChoice, nDefault, median, Fact.of(w),
                    w.setting() + " runs " + w.choice().get().label() + ": " + gain(w));
        }
        Optional<Tuning.Candidate> best = judged.stream().max(byRatio);
        String reason;
        if (!faster.isEmpty()) {
            Tuning.Candidate f = faster.stream().max(byRatio).get();
            best = Optional.of(f);
            reason = f.choice().isValue() ? f.setting() + " is faster (" + gain(f) + ") but runs what NCCL chooses anyway ("
                    + f.choice().get().label() + ")" : f.setting() + " is faster (" + gain(f) + ") but what it ran is not known ("
                    + f.choice().reason() + ")";
        } else if (best.isEmpty()) {
            reason = "no other setting was judged at this size";
        } else if (best.get().ratio() <= 1) {
            reason = "NCCL's choice is the fastest measured (next: " + best.get().setting() + String.format(Locale.ROOT, " x%.2f)", best.get().ratio());
        } else {
            reason = best.get().setting() + String.format(Locale.ROOT, " x%.2f: ", best.get().ratio()) + best.get().judgement();
        }
        return new Tuning.SizeDecision(size, Tuning.Decision.KEEP, ncclChoice, nDefault, median,
                best.map(Fact::of).orElseGet(() -> Fact.absent("no other setting judged")), reason);
    }

    /** "x1.66 (interval 1.60 to 1.71, p = 0.008)". */
    static String gain(Tuning.Candidate c) {
        String i = c.interval().fold(v -> String.format(Locale.ROOT, "interval %.2f to %.2f", v.low(), v.high()), r -> "no interval");
        String p = c.p().fold(v -> v < 0.001 ? "p < 0.001" : String.format(Locale.ROOT, "p = %.3f", v), r -> "no test");
        return String.format(Locale.ROOT, "busbw x%.2f (%s, %s)", c.ratio(), i, p);
    }
}
