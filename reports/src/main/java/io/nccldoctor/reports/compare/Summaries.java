package io.nccldoctor.reports.compare;

import io.nccldoctor.core.Fact;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One summary per collective and environment: where B is faster or slower, and by how much at sizes that matter. */
final class Summaries {

    /** The median ratio in a summary is over sizes from 1 MiB up: below, launch latency dominates busbw. */
    static final long FROM_BYTES = 1L << 20;

    private Summaries() {
    }

    static List<Comparison.Summary> of(List<Comparison.Row> rows) {
        Map<List<String>, List<Comparison.Row>> groups = new LinkedHashMap<>();
        rows.forEach(r -> groups.computeIfAbsent(List.of(r.collective(), r.env()), k -> new ArrayList<>()).add(r));
        return groups.values().stream().map(Summaries::summary).toList();
    }

    private static Comparison.Summary summary(List<Comparison.Row> rows) {
        Comparison.Row first = rows.get(0);
        List<Long> faster = sizes(rows, Verdict.FASTER);
        List<Long> slower = sizes(rows, Verdict.SLOWER);
        int notTested = (int) rows.stream().filter(r -> r.verdict() == Verdict.NOT_TESTED).count();
        double[] ratios = rows.stream().filter(r -> r.sizeBytes() >= FROM_BYTES && !r.roundedZero() && r.ratio().isValue())
                .mapToDouble(r -> r.ratio().get()).toArray();
        Fact<Double> median = ratios.length == 0 ? Fact.absent("no size from " + Fmt.size(FROM_BYTES) + " up has a ratio")
                : Fact.of(Stats.median(ratios));
        String subject = first.collective() + (first.env().equals(Comparison.DEFAULT_ENV) ? "" : " (" + first.env() + ")");
        List<String> parts = new ArrayList<>();
        if (!faster.isEmpty()) {
            parts.add("B faster " + ranges(rows, Verdict.FASTER));
        }
        if (!slower.isEmpty()) {
            parts.add((parts.isEmpty() ? "B slower " : "slower ") + ranges(rows, Verdict.SLOWER));
        }
        if (parts.isEmpty()) {
            parts.add(notTested == rows.size() ? "not judged (" + rows.get(rows.size() - 1).reason() + ")" : "no detectable change");
        }
        parts.add(median.fold(m -> "median x" + Fmt.ratio(m), reason -> "no median ratio (" + reason + ")"));
        long interpolated = rows.stream().filter(r -> r.interpolatedA() + r.interpolatedB() > 0).count();
        if (interpolated > 0) {
            parts.add(interpolated + (interpolated == 1 ? " size" : " sizes") + " interpolated");
        }
        return new Comparison.Summary(first.collective(), first.env(), faster, slower, rows.size() - notTested, notTested, median,
                subject + ": " + String.join(", ", parts));
    }

    private static List<Long> sizes(List<Comparison.Row> rows, Verdict v) {
        return rows.stream().filter(r -> r.verdict() == v).map(Comparison.Row::sizeBytes).toList();
    }

    /** "from 4 MiB to 8 GiB", "at 1 KiB and from 1 GiB to 8 GiB": runs of consecutive sizes with the verdict. */
    static String ranges(List<Comparison.Row> rows, Verdict v) {
        List<String> out = new ArrayList<>();
        for (long[] run : runs(rows, v)) {
            out.add(run[0] == run[1] ? "at " + Fmt.size(run[0]) : "from " + Fmt.size(run[0]) + " to " + Fmt.size(run[1]));
        }
        return String.join(" and ", out);
    }

    /** [first size, last size] of each run of consecutive rows (sizes ascending) with the verdict. */
    static List<long[]> runs(List<Comparison.Row> rows, Verdict v) {
        List<long[]> out = new ArrayList<>();
        long[] open = null;
        for (Comparison.Row r : rows) {
            if (r.verdict() == v) {
                if (open == null) {
                    open = new long[] {r.sizeBytes(), r.sizeBytes()};
                    out.add(open);
                }
                open[1] = r.sizeBytes();
            } else {
                open = null;
            }
        }
        return out;
    }
}
