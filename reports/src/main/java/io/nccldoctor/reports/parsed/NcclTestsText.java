package io.nccldoctor.reports.parsed;

import io.nccldoctor.collectives.parse.NcclTestsCommand;
import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.collectives.parse.NcclTestsParameters;
import io.nccldoctor.core.Fact;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The human form of `parse nccl-tests`: versions, the command line and run parameters, the table per placement (with
 * the -S timestamp and the -I columns when the run printed them), why cells say N/A, the footer and what was not read.
 */
public final class NcclTestsText {

    private NcclTestsText() {
    }

    public static String render(NcclTestsOutput r, String file) {
        String library = r.tool().equals("rccl-tests") ? "RCCL" : "NCCL";
        StringBuilder out = new StringBuilder(r.test().orElse(r.tool()) + " from " + file + ": " + r.tool() + " " + r.testsVersion().orElse("?")
                + ", " + library + " headers " + r.ncclHeaders().orElse("?") + ", library " + r.ncclLibrary().orElse("?") + ", "
                + r.devices().size() + " device lines\n");
        r.command().fold(c -> out.append(command(c)), why -> out);
        r.parameters().forEach(p -> out.append("  parameters: ").append(parameters(p)).append('\n'));
        table(r, out);
        if (r.peakBusBw().isValue()) {
            NcclTestsOutput.Row p = r.peakBusBw().get();
            out.append(String.format(Locale.ROOT, "  peak bus bandwidth: %.2f GB/s at %,d bytes (out-of-place)%n", p.outOfPlace().busBwGBps(),
                    p.sizeBytes()));
        }
        out.append("  avg bus bandwidth: ").append(r.avgBusBwGBps().map(v -> v + " GB/s").describe()).append("; out of bounds: ")
                .append(r.outOfBounds().describe()).append("; NCCL INFO/WARN lines skipped: ").append(r.ncclInfoLines()).append('\n');
        notApplicable(r).forEach((why, n) -> out.append("  ").append(n).append(n == 1 ? " cell " : " cells ").append(why).append('\n'));
        r.warnings().forEach(w -> out.append("warning: ").append(w).append('\n'));
        r.failures().forEach(f -> out.append("FAILED: ").append(f).append('\n'));
        r.notUnderstood().forEach(s -> out.append("not understood: ").append(s).append('\n'));
        for (int i = 0; i < r.furtherRuns().size(); i++) { // each run of the text with its own table and summary
            out.append('\n').append("run ").append(i + 2).append(" of ").append(r.furtherRuns().size() + 1).append(": ")
                    .append(render(r.furtherRuns().get(i), file));
        }
        return out.toString();
    }

    private static String command(NcclTestsCommand c) {
        StringBuilder s = new StringBuilder("  command: ").append(c.text()).append('\n');
        List<String> parts = new ArrayList<>();
        c.launcher().fold(l -> parts.add("launcher " + l), why -> false);
        c.env().forEach((k, v) -> parts.add(k + "=" + v));
        c.envForwarded().forEach(v -> parts.add(v + " (forwarded, value not in the text)"));
        if (!parts.isEmpty()) {
            s.append("    environment: ").append(String.join(", ", parts)).append('\n');
        }
        c.binary().fold(b -> s.append("    ").append(b).append(" flags: ").append(c.flags().isEmpty() ? "none (defaults)" : c.flags()).append('\n'),
                why -> s.append("    ").append(why).append('\n'));
        return s.toString();
    }

    private static String parameters(NcclTestsParameters p) {
        StringBuilder s = new StringBuilder();
        s.append("nThread ").append(v(p.threads())).append(", nGpus ").append(v(p.gpusPerThread())).append(", ").append(v(p.minBytes()))
                .append(" to ").append(v(p.maxBytes())).append(" bytes, step ").append(v(p.step())).append(" (").append(v(p.stepKind()))
                .append("), warmup ").append(v(p.warmupIters())).append(", iters ").append(v(p.iters())).append(", validation ")
                .append(p.validation().<String>fold(x -> x == 0 ? "0 (off, -c 0)" : String.valueOf(x), why -> "?"))
                .append(", graph ").append(v(p.graphLaunches()));
        p.other().forEach((k, v) -> s.append(", ").append(k).append(' ').append(v));
        p.modes().forEach(m -> s.append("; ").append(m));
        return s.toString();
    }

    private static String v(Fact<?> f) {
        return f.fold(String::valueOf, why -> "?");
    }

    private static void table(NcclTestsOutput r, StringBuilder out) {
        boolean stamps = r.rows().stream().anyMatch(x -> x.timestamp().isValue());
        boolean iter = r.rows().stream().anyMatch(x -> x.outOfPlace().perIteration().isValue());
        String check = r.errorColumn() ? "error" : "#wrong";
        String extra = iter ? String.format(Locale.ROOT, " %8s %8s %8s %6s", "i_min", "i_max", "i_p99", "i_cv%") : "";
        out.append(String.format(Locale.ROOT, "  %14s %12s %8s  %-" + (37 + extra.length()) + "s  %s", "", "", "", "out-of-place", "in-place")
                .stripTrailing()).append('\n');
        out.append(String.format(Locale.ROOT, "  %14s %12s %8s  %10s %8s %8s %8s%s  %10s %8s %8s %8s%s%s%n", "size (B)", "count", "type",
                "time (us)", "algbw", "busbw", check, extra, "time (us)", "algbw", "busbw", check, extra, stamps ? "  timestamp" : ""));
        for (NcclTestsOutput.Row row : r.rows()) {
            String in = row.inPlace().map(p -> placement(p, r.errorColumn(), iter))
                    .orElse(String.format(Locale.ROOT, "%" + (37 + extra.length()) + "s", "N/A"));
            out.append(String.format(Locale.ROOT, "  %14d %12d %8s  %s  %s%s", row.sizeBytes(), row.count(), row.type(),
                    placement(row.outOfPlace(), r.errorColumn(), iter), in, row.timestamp().fold(t -> "  " + t, why -> "")).stripTrailing())
                    .append('\n');
        }
    }

    private static String placement(NcclTestsOutput.Placement p, boolean errorColumn, boolean iter) {
        String check = errorColumn ? p.maxError().map(String::valueOf).orElse("N/A")
                : p.wrong().map(w -> (p.wrongRounded() ? "~" : "") + w).orElse(p.wrong().isError() ? "?" : "N/A");
        String cells = String.format(Locale.ROOT, "%10.2f %8.2f %8.2f %8s", p.timeUs(), p.algBwGBps(), p.busBwGBps(), check);
        if (!iter) {
            return cells;
        }
        return cells + p.perIteration().fold(i -> String.format(Locale.ROOT, " %8.2f %8.2f %8.2f %6.2f", i.minUs(), i.maxUs(), i.p99Us(),
                i.cvPercent()), why -> String.format(Locale.ROOT, " %8s %8s %8s %6s", "", "", "", ""));
    }

    /** Each reason an N/A (or unreadable) check cell has, with how many cells give it. */
    private static Map<String, Integer> notApplicable(NcclTestsOutput r) {
        Map<String, Integer> why = new LinkedHashMap<>();
        for (NcclTestsOutput.Row row : r.rows()) {
            List<NcclTestsOutput.Placement> ps = new ArrayList<>(List.of(row.outOfPlace()));
            row.inPlace().fold(ps::add, x -> false);
            for (NcclTestsOutput.Placement p : ps) {
                Fact<?> cell = r.errorColumn() ? p.maxError() : p.wrong();
                if (!cell.isValue()) {
                    why.merge(cell.isError() ? "unreadable: " + cell.reason() : cell.reason(), 1, Integer::sum);
                }
            }
        }
        return why;
    }
}
