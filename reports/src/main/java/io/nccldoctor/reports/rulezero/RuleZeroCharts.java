package io.nccldoctor.reports.rulezero;

import io.nccldoctor.reports.chart.SizeLabels;
import io.nccldoctor.reports.chart.SizeSweep;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The charts of a rule-zero report, one per collective and world size among the suspect rows, named "COLLECTIVE-Nranks"
 * ("alltoall-3ranks"): the suspect's busbw and every reference sweep of that collective and world size against size on
 * the log2 axis, the narrowest ceiling as a horizontal line, and the suspect sizes with misaligned chunks shaded.
 */
public final class RuleZeroCharts {

    private RuleZeroCharts() {
    }

    public static Map<String, SizeSweep> all(RuleZero z) {
        Map<String, List<Judgement>> groups = new LinkedHashMap<>();
        z.rows().forEach(j -> groups.computeIfAbsent(j.suspect().collective() + "-" + j.suspect().ranks() + "ranks", k -> new ArrayList<>())
                .add(j));
        Map<String, SizeSweep> charts = new LinkedHashMap<>();
        groups.forEach((name, rows) -> charts.put(name, chart(z, rows)));
        return charts;
    }

    private static SizeSweep chart(RuleZero z, List<Judgement> rows) {
        SuspectRow first = rows.get(0).suspect();
        List<SizeSweep.Series> series = new ArrayList<>();
        boolean mixed = rows.stream().anyMatch(j -> j.audit().misaligned()) && rows.stream().anyMatch(j -> !j.audit().misaligned());
        if (mixed) { // one line through aligned and misaligned sizes would zigzag: two series, as `report` draws them
            series.add(new SizeSweep.Series("suspect, aligned chunks", points(rows, false)));
            series.add(new SizeSweep.Series("suspect, misaligned chunks", points(rows, true)));
        } else {
            series.add(new SizeSweep.Series("suspect", rows.stream().map(RuleZeroCharts::point).toList()));
        }
        z.references().stream().filter(c -> c.covers(first.collective(), first.ranks()))
                .forEach(c -> series.add(new SizeSweep.Series(c.tool() + ": " + c.label(), c.points().stream()
                        .filter(p -> Double.isFinite(p.busBwGBps())).map(p -> new SizeSweep.Point(p.bytes(), p.busBwGBps())).toList())));
        List<SizeSweep.Ceiling> ceilings = z.ceiling().isValue()
                ? List.of(new SizeSweep.Ceiling(z.ceiling().get().label(), z.ceiling().get().busBwGBps())) : List.of();
        return new SizeSweep("Rule zero: " + first.collective() + " on " + Fmt.ranks(first.ranks()) + ", suspect against nccl-tests",
                "busbw (GB/s)", series, ceilings, misaligned(rows));
    }

    private static List<SizeSweep.Point> points(List<Judgement> rows, boolean misaligned) {
        return rows.stream().filter(j -> j.audit().misaligned() == misaligned).map(RuleZeroCharts::point).toList();
    }

    private static SizeSweep.Point point(Judgement j) {
        return new SizeSweep.Point(j.suspect().bytes(), j.suspect().busBw().get());
    }

    /** One band per run of consecutive suspect sizes (by size) whose chunks are misaligned. */
    static List<SizeSweep.Region> misaligned(List<Judgement> rows) {
        List<Judgement> sorted = rows.stream().sorted(Comparator.comparingLong(j -> j.suspect().bytes())).toList();
        List<SizeSweep.Region> out = new ArrayList<>();
        int i = 0;
        while (i < sorted.size()) {
            if (!sorted.get(i).audit().misaligned()) {
                i++;
                continue;
            }
            int k = i;
            while (k + 1 < sorted.size() && sorted.get(k + 1).audit().misaligned()) {
                k++;
            }
            long from = sorted.get(i).suspect().bytes();
            long to = sorted.get(k).suspect().bytes();
            out.add(new SizeSweep.Region(from, to, "misaligned chunks: " + SizeLabels.format(from)
                    + (from == to ? "" : " to " + SizeLabels.format(to))));
            i = k + 1;
        }
        return out;
    }
}
