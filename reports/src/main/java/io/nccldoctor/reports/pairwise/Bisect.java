package io.nccldoctor.reports.pairwise;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Halving: run each half of the nodes as one job, keep the slower half, and halve it again, until two or three nodes
 * are left; then pair each of them with a node of the last fast half, and judge those pairs ({@link Blame}). About
 * 2·log2(N) runs instead of N(N−1)/2, for one slow node; two slow nodes in different halves stop it, which it says.
 * Every job has a result file named for its group (group_FIRST_to_LAST_N.txt), so a resumed run repeats none.
 */
final class Bisect {

    /** One halving: the two halves' results and what was concluded. */
    record Round(List<String> group, PairResult first, PairResult second, String outcome) {
    }

    /**
     * @param rounds  the halvings done
     * @param pairs   the last few nodes, each with a node of the last fast half; empty when the halving stopped early
     * @param stopped why the halving stopped before the pairs, or empty
     */
    record Outcome(List<Round> rounds, List<PairResult> pairs, String stopped) {
    }

    private Bisect() {
    }

    static Outcome run(PairwiseOptions o, Function<Job, PairResult> exec) {
        List<String> group = o.nodes();
        List<Round> rounds = new ArrayList<>();
        String reference = null;
        while (group.size() >= 4) {
            List<List<String>> h = Plans.halves(group);
            PairResult a = exec.apply(Plans.group(o, h.get(0)));
            PairResult b = exec.apply(Plans.group(o, h.get(1)));
            if (a.status() != PairResult.Status.MEASURED || b.status() != PairResult.Status.MEASURED) {
                PairResult bad = a.status() != PairResult.Status.MEASURED ? a : b;
                String why = "stopped: " + bad.file() + " " + bad.status().name().toLowerCase(Locale.ROOT) + " (" + bad.why() + ")";
                rounds.add(new Round(group, a, b, why));
                return new Outcome(rounds, List.of(), why + "; run --pairwise on " + String.join(",", bad.nodes()));
            }
            double fa = a.busBwGBps().get();
            double fb = b.busBwGBps().get();
            if (Math.min(fa, fb) >= o.slowBelow() * Math.max(fa, fb)) {
                String why = String.format(Locale.ROOT, "neither half is slower (%.2f and %.2f GB/s): no single slow node among these %d, "
                        + "or one in each half; run --pairwise on %s", fa, fb, group.size(), String.join(",", group));
                rounds.add(new Round(group, a, b, why));
                return new Outcome(rounds, List.of(), why);
            }
            boolean firstSlow = fa < fb;
            List<String> halved = group;
            reference = (firstSlow ? h.get(1) : h.get(0)).get(0);
            group = firstSlow ? h.get(0) : h.get(1);
            rounds.add(new Round(halved, a, b, String.format(Locale.ROOT, "the half %s is slower (%.2f < %.2f × %.2f GB/s)",
                    String.join(",", group), Math.min(fa, fb), o.slowBelow(), Math.max(fa, fb))));
        }
        List<PairResult> pairs = new ArrayList<>();
        for (String n : group) {
            pairs.add(exec.apply(Plans.pair(o, reference, n)));
        }
        return new Outcome(rounds, pairs, "");
    }
}
