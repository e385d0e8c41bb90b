package io.nccldoctor.reports.tune;

import io.nccldoctor.reports.compare.CompareThresholds;
import io.nccldoctor.reports.compare.Comparison;
import io.nccldoctor.reports.compare.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * `tune --as-env`: each environment measured, taken as a global pin (every job, every collective and size), against
 * NCCL's defaults from the same runs. A pin that is slower for real anywhere (compare's SLOWER: the interval below
 * 1 - minGain, p significant) is refused (NCCL_GLOBAL_PIN): that is the field report's NCCL_PROTO=LL128, 3.5 times
 * faster allgather and 20 to 30 % slower almost everything else.
 */
final class PinCosts {

    private PinCosts() {
    }

    static List<Tuning.PinCost> of(List<ShapeRuns> shapes, CompareThresholds t) {
        Map<String, List<Tuning.PinRange>> gains = new TreeMap<>();
        Map<String, List<Tuning.PinRange>> losses = new TreeMap<>();
        Map<String, Integer> notJudged = new TreeMap<>();
        for (ShapeRuns s : shapes) {
            if (s.defaults.isEmpty()) {
                continue;
            }
            for (String pin : s.settings.keySet()) {
                Map<Long, Comparison.Row> rows = s.compared(pin, t);
                List<Comparison.Row> measured = s.sizes().stream().filter(rows::containsKey).map(rows::get)
                        .filter(r -> r.nB() > 0).toList();
                gains.computeIfAbsent(pin, k -> new ArrayList<>()).addAll(ranges(s, measured, Verdict.FASTER));
                losses.computeIfAbsent(pin, k -> new ArrayList<>()).addAll(ranges(s, measured, Verdict.SLOWER));
                notJudged.merge(pin, (int) measured.stream().filter(r -> r.verdict() == Verdict.NOT_TESTED).count(), Integer::sum);
            }
        }
        List<Tuning.PinCost> out = new ArrayList<>();
        for (String pin : gains.keySet()) {
            out.add(new Tuning.PinCost(pin, !losses.get(pin).isEmpty(), gains.get(pin), losses.get(pin), notJudged.get(pin)));
        }
        return out;
    }

    /** Runs of consecutive measured sizes with the verdict. */
    private static List<Tuning.PinRange> ranges(ShapeRuns s, List<Comparison.Row> rows, Verdict v) {
        List<Tuning.PinRange> out = new ArrayList<>();
        List<Comparison.Row> open = new ArrayList<>();
        for (Comparison.Row r : rows) {
            if (r.verdict() == v) {
                open.add(r);
            } else if (!open.isEmpty()) {
                out.add(range(s, open));
                open = new ArrayList<>();
            }
        }
        if (!open.isEmpty()) {
            out.add(range(s, open));
        }
        return out;
    }

    private static Tuning.PinRange range(ShapeRuns s, List<Comparison.Row> rows) {
        double lo = Double.MAX_VALUE;
        double hi = 0;
        double iLo = Double.MAX_VALUE;
        double iHi = 0;
        for (Comparison.Row r : rows) {
            lo = Math.min(lo, r.ratio().get());
            hi = Math.max(hi, r.ratio().get());
            iLo = Math.min(iLo, r.interval().get().low());
            iHi = Math.max(iHi, r.interval().get().high());
        }
        return new Tuning.PinRange(s.collective, s.ranks, s.nodes, rows.get(0).sizeBytes(), rows.get(rows.size() - 1).sizeBytes(), lo, hi,
                iLo, iHi);
    }
}
