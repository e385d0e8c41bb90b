package io.nccldoctor.reports.pairwise;

import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a pairwise or bisection run found: every job with its launch, every pair's result, the verdict with its
 * evidence, the findings, and notes on what the results folder held besides. `--json` prints this record.
 *
 * @param mode    "pairwise", "bisect" or "read" (a results folder judged without running anything)
 * @param results the results folder
 * @param jobs    the jobs in launch order, each "complete" (its file was there), "ran" or "not run"
 * @param rounds  the bisection's halvings, empty otherwise
 */
public record PairwiseReport(String createdAt, String mode, String results, List<String> nodes, List<JobLine> jobs,
                             List<Round> rounds, List<Pair> pairs, Verdict verdict, List<Finding> findings, List<String> notes) {

    public record JobLine(String name, List<String> nodes, String status, List<String> argv) {
    }

    public record Round(List<String> group, String first, String second, String outcome) {
    }

    /** One result file as judged: busbw and size are null when there is none, {@code why} says why. */
    public record Pair(String pair, String file, String status, Double busBwGBps, Long sizeBytes, String test, boolean slow, String why) {
    }

    /**
     * @param kind    NO_PAIRS, NO_SLOW_PAIR, SLOW_NODE, SLOW_NODES, SLOW_PATHS or INCONCLUSIVE
     * @param summary one line: "slow node: gpu03 …"
     */
    public record Verdict(String kind, String summary, double referenceGBps, double thresholdGBps, List<String> slowNodes,
                          List<String> unresolved, List<String> slowPaths, List<String> evidence) {
    }

    public int exitCode() {
        return findings.stream().anyMatch(f -> f.severity() == Severity.ERROR) ? 1 : 0;
    }

    static Verdict verdict(Blame.Verdict v) {
        String summary = switch (v.kind()) {
            case NO_PAIRS -> "no pair has a finished, validated result";
            case NO_SLOW_PAIR -> String.format(Locale.ROOT, "no slow pair: every pair at %.2f GB/s or more (%.2f × the fastest, %.2f)",
                    v.thresholdGBps(), v.thresholdGBps() / v.referenceGBps(), v.referenceGBps());
            case SLOW_NODE -> "slow node: " + v.slow().get(0).node();
            case SLOW_NODES -> "slow nodes: " + String.join(", ", v.slow().stream().map(Blame.Suspect::node).toList())
                    + " (more than one: each is shown slow by a pair with a fast node)";
            case SLOW_PATHS -> "no slow node; slow pairs between fast nodes: " + String.join(", ", v.slowPaths().stream()
                    .map(PairResult::label).toList());
            case INCONCLUSIVE -> "inconclusive: " + String.join(", ", v.unresolved()) + " in no fast pair, not told apart by these runs"
                    + (v.slow().isEmpty() ? "" : "; shown slow: " + String.join(", ", v.slow().stream().map(Blame.Suspect::node).toList()));
        };
        return new Verdict(v.kind().name(), summary, v.referenceGBps(), v.thresholdGBps(),
                v.slow().stream().map(Blame.Suspect::node).toList(), v.unresolved(), v.slowPaths().stream().map(PairResult::label).toList(),
                v.evidence());
    }

    static Pair pair(PairResult p, Blame.Verdict v) {
        boolean measured = p.status() == PairResult.Status.MEASURED;
        return new Pair(p.label(), p.file(), p.status().name(), p.busBwGBps().isValue() ? p.busBwGBps().get() : null,
                p.sizeBytes().isValue() ? p.sizeBytes().get() : null, p.test().isValue() ? p.test().get() : null,
                measured && v.thresholdGBps() > 0 && p.busBwGBps().get() < v.thresholdGBps(), p.why());
    }

    /** The terminal form. */
    public String text() {
        List<String> out = new ArrayList<>();
        out.add("nccl-doctor cluster --" + (mode.equals("read") ? "pairwise (results read)" : mode) + ": " + nodes.size() + " nodes, "
                + pairs.size() + " results in " + results);
        rounds.forEach(r -> out.add("  round " + String.join(",", r.group()) + ": " + r.first() + "; " + r.second() + " → " + r.outcome()));
        out.add("");
        int width = pairs.stream().mapToInt(p -> p.pair().length()).max().orElse(4);
        for (Pair p : pairs) {
            String figure = p.busBwGBps() == null ? p.status().toLowerCase(Locale.ROOT) + ": " + p.why()
                    : String.format(Locale.ROOT, "%8.2f GB/s at %s%s", p.busBwGBps(), size(p.sizeBytes()), p.slow() ? "  SLOW" : "");
            out.add(String.format(Locale.ROOT, "  %-" + width + "s  %s", p.pair(), figure));
        }
        out.add("");
        out.add("Verdict: " + verdict.summary());
        verdict.evidence().forEach(e -> out.add("  - " + e));
        for (Finding f : findings) {
            out.add(String.format(Locale.ROOT, "  %-5s %s  %s: %s", f.severity().label().toUpperCase(Locale.ROOT), f.code(), f.subject(),
                    f.title()));
        }
        notes.forEach(n -> out.add("  note: " + n));
        out.add("Result: " + (exitCode() == 1 ? "FAIL" : "PASS") + " (" + findings.size() + (findings.size() == 1 ? " finding" : " findings")
                + ", exit " + exitCode() + ")");
        return String.join("\n", out) + "\n";
    }

    private static String size(Long bytes) {
        if (bytes == null) {
            return "?";
        }
        long b = bytes;
        return b >= 1L << 30 && b % (1L << 30) == 0 ? (b >> 30) + " GiB" : b >= 1L << 20 && b % (1L << 20) == 0 ? (b >> 20) + " MiB"
                : b + " B";
    }
}
