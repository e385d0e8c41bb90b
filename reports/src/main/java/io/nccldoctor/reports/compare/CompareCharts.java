package io.nccldoctor.reports.compare;

import io.nccldoctor.reports.chart.SizeSweep;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One chart per collective and environment: the ratio B/A against message size (log2), the 95 % interval's ends as
 * two more series, a dashed line at 1.0 for "no change", and the sizes where B is slower shaded as flagged (the
 * chart package's bands read as trouble, so a speed-up is left to the line above 1.0). Named
 * "ratio-COLLECTIVE", with " ENV" after it for an environment other than the default.
 */
public final class CompareCharts {

    private CompareCharts() {
    }

    public static Map<String, SizeSweep> all(Comparison c) {
        Map<List<String>, List<Comparison.Row>> groups = new LinkedHashMap<>();
        c.rows().forEach(r -> groups.computeIfAbsent(List.of(r.collective(), r.env()), k -> new ArrayList<>()).add(r));
        Map<String, SizeSweep> charts = new LinkedHashMap<>();
        groups.forEach((key, rows) -> {
            SizeSweep chart = chart(c, key.get(0), key.get(1), rows);
            if (chart != null) {
                charts.put("ratio-" + key.get(0) + (key.get(1).equals(Comparison.DEFAULT_ENV) ? "" : " " + key.get(1)), chart);
            }
        });
        return charts;
    }

    /** Null when no size has a ratio to draw. */
    private static SizeSweep chart(Comparison c, String collective, String env, List<Comparison.Row> rows) {
        List<SizeSweep.Point> ratio = new ArrayList<>();
        List<SizeSweep.Point> low = new ArrayList<>();
        List<SizeSweep.Point> high = new ArrayList<>();
        for (Comparison.Row r : rows) {
            if (r.sizeBytes() < 1 || r.roundedZero() || !r.ratio().isValue()) {
                continue;
            }
            ratio.add(new SizeSweep.Point(r.sizeBytes(), r.ratio().get()));
            if (r.interval().isValue()) {
                low.add(new SizeSweep.Point(r.sizeBytes(), r.interval().get().low()));
                high.add(new SizeSweep.Point(r.sizeBytes(), r.interval().get().high()));
            }
        }
        if (ratio.isEmpty()) {
            return null;
        }
        List<SizeSweep.Series> series = new ArrayList<>(List.of(new SizeSweep.Series("ratio", ratio)));
        if (!low.isEmpty()) {
            series.add(new SizeSweep.Series("95 % low", low));
            series.add(new SizeSweep.Series("95 % high", high));
        }
        List<SizeSweep.Region> regions = new ArrayList<>();
        for (long[] run : Summaries.runs(rows, Verdict.SLOWER)) {
            regions.add(new SizeSweep.Region(run[0], run[1], "B slower: " + Fmt.size(run[0]) + (run[0] == run[1] ? "" : " to "
                    + Fmt.size(run[1]))));
        }
        String where = collective + (env.equals(Comparison.DEFAULT_ENV) ? "" : ", " + env);
        return new SizeSweep("busbw " + c.b().name() + " / " + c.a().name() + ": " + where, "ratio B/A", series,
                List.of(new SizeSweep.Ceiling("no change", 1.0)), regions);
    }
}
