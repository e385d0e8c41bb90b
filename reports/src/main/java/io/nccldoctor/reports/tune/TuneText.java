package io.nccldoctor.reports.tune;

import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.chart.SizeLabels;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The terminal summary: what changes, where, by how much and how sure; what stays and why; what was not judged. */
public final class TuneText {

    private TuneText() {
    }

    public static String render(Tuning t) {
        StringBuilder b = new StringBuilder();
        b.append("nccl-doctor tune: NCCL ").append(t.ncclVersion().orElse("(version not recorded)")).append(", from ")
                .append(String.join(", ", t.inputs())).append('\n');
        b.append(String.format(Locale.ROOT, "  a switch needs busbw above x%.2f of NCCL's own choice (95 %% interval) and p below %s, "
                + "with %d runs or more per setting and size%n", 1 + t.thresholds().minGain(), t.thresholds().alpha(), t.thresholds().minSamples()));
        for (Tuning.Shape s : t.shapes()) {
            shape(b, s);
        }
        if (t.shapes().isEmpty()) {
            b.append("\nNothing could be judged.\n");
        }
        lacking(b, t);
        if (!t.leftOut().isEmpty()) {
            b.append("\nLeft out:\n");
            t.leftOut().forEach(l -> b.append("  ").append(l).append('\n'));
        }
        pins(b, t);
        t.notes().forEach(n -> b.append("\nnote: ").append(n).append('\n'));
        return b.toString();
    }

    private static void shape(StringBuilder b, Tuning.Shape s) {
        long switched = s.sizes().stream().filter(d -> d.decision() == Tuning.Decision.SWITCH).count();
        b.append('\n').append(s.collective()).append(" on ").append(s.ranks()).append(" ranks, ").append(s.nodes())
                .append(s.nodes() == 1 ? " node: " : " nodes: ").append(switched == 0 ? "no size switches" : switched + " of "
                + s.sizes().size() + " sizes switch").append('\n');
        List<Tuning.SizeDecision> run = new ArrayList<>();
        for (Tuning.SizeDecision d : s.sizes()) {
            if (!run.isEmpty() && !sameSwitch(run.get(0), d)) {
                switched(b, run);
                run = new ArrayList<>();
            }
            if (d.decision() == Tuning.Decision.SWITCH) {
                run.add(d);
            }
        }
        if (!run.isEmpty()) {
            switched(b, run);
        }
        Map<String, List<Long>> stays = new LinkedHashMap<>();
        s.sizes().stream().filter(d -> d.decision() != Tuning.Decision.SWITCH)
                .forEach(d -> stays.computeIfAbsent(d.reason(), k -> new ArrayList<>()).add(d.sizeBytes()));
        stays.forEach((why, sizes) -> b.append("  stays with NCCL at ").append(sizes(sizes)).append(": ").append(why).append('\n'));
    }

    private static boolean sameSwitch(Tuning.SizeDecision a, Tuning.SizeDecision d) {
        return d.decision() == Tuning.Decision.SWITCH && a.best().get().choice().get().equals(d.best().get().choice().get());
    }

    /** "64 KiB to 256 KiB: RING/SIMPLE -> ring/ll128 with NCCL_PROTO=LL128, busbw x1.66 to x1.68 (intervals 1.60 to 1.72)". */
    private static void switched(StringBuilder b, List<Tuning.SizeDecision> run) {
        Tuning.SizeDecision first = run.get(0);
        Tuning.SizeDecision last = run.get(run.size() - 1);
        double lo = Double.MAX_VALUE;
        double hi = 0;
        double iLo = Double.MAX_VALUE;
        double iHi = 0;
        for (Tuning.SizeDecision d : run) {
            Tuning.Candidate c = d.best().get();
            lo = Math.min(lo, c.ratio());
            hi = Math.max(hi, c.ratio());
            iLo = Math.min(iLo, c.interval().get().low());
            iHi = Math.max(iHi, c.interval().get().high());
        }
        Tuning.Candidate c = first.best().get();
        String from = first.ncclChoice().fold(Choice::label, why -> "NCCL's choice (not logged)");
        b.append("  ").append(first == last ? "at " + size(first.sizeBytes()) : size(first.sizeBytes()) + " to " + size(last.sizeBytes()))
                .append(": ").append(from).append(" -> ").append(c.choice().get().label()).append(" (measured with ").append(c.setting())
                .append(String.format(Locale.ROOT, "), busbw x%.2f", lo)).append(lo == hi ? "" : String.format(Locale.ROOT, " to x%.2f", hi))
                .append(String.format(Locale.ROOT, ", 95 %% interval%s %.2f to %.2f%n", run.size() == 1 ? "" : "s from", iLo, iHi));
    }

    private static void lacking(StringBuilder b, Tuning t) {
        if (t.lacking().isEmpty()) {
            return;
        }
        b.append("\nToo few runs, not judged (").append(t.thresholds().minSamples()).append(" needed per setting and size):\n");
        Map<String, List<String>> by = new LinkedHashMap<>();
        for (Tuning.Lacking l : t.lacking()) {
            by.computeIfAbsent(l.collective() + " on " + l.ranks() + " ranks, " + l.nodes() + (l.nodes() == 1 ? " node, " : " nodes, ")
                    + l.setting(), k -> new ArrayList<>()).add(size(l.sizeBytes()) + " (" + l.runs() + (l.runs() == 1 ? " run)" : " runs)"));
        }
        by.forEach((k, v) -> b.append("  ").append(k).append(": ").append(String.join(", ", v)).append('\n'));
    }

    private static void pins(StringBuilder b, Tuning t) {
        if (t.pins().isEmpty()) {
            return;
        }
        b.append("\nAs a global pin (--as-env), against NCCL's defaults in the same runs:\n");
        for (Tuning.PinCost p : t.pins()) {
            b.append("  ").append(p.pin()).append(": ").append(p.refused() ? "REFUSED, it loses " + ranges(p.losses())
                    : p.gains().isEmpty() ? "no gain anywhere measured" : "loses nowhere measured") .append('\n');
            if (!p.gains().isEmpty()) {
                b.append("    gains ").append(ranges(p.gains())).append('\n');
            }
            if (p.notJudged() > 0) {
                b.append("    ").append(p.notJudged()).append(p.notJudged() == 1 ? " size" : " sizes").append(" not judged\n");
            }
        }
        for (Finding f : TuneFindings.of(t)) {
            b.append("  ").append(f.code()).append(" (").append(f.severity().label()).append("): ").append(f.title()).append('\n');
        }
    }

    /** "on allreduce (2 ranks, 1 node) from 16 KiB to 32 KiB: x0.74 to x0.75, intervals 0.73 to 0.76; on …". */
    static String ranges(List<Tuning.PinRange> ranges) {
        List<String> out = new ArrayList<>();
        for (Tuning.PinRange r : ranges) {
            out.add("on " + r.collective() + " (" + r.ranks() + " ranks, " + r.nodes() + (r.nodes() == 1 ? " node) " : " nodes) ")
                    + (r.fromBytes() == r.toBytes() ? "at " + size(r.fromBytes()) : "from " + size(r.fromBytes()) + " to " + size(r.toBytes()))
                    + String.format(Locale.ROOT, ": busbw x%.2f", r.ratioLow()) + (r.ratioLow() == r.ratioHigh() ? ""
                    : String.format(Locale.ROOT, " to x%.2f", r.ratioHigh())) + String.format(Locale.ROOT, " (intervals %.2f to %.2f)",
                    r.intervalLow(), r.intervalHigh()));
        }
        return String.join("; ", out);
    }

    private static String sizes(List<Long> sizes) {
        return String.join(", ", sizes.stream().map(TuneText::size).toList());
    }

    static String size(long bytes) {
        return SizeLabels.format(bytes);
    }
}
