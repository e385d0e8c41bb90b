package io.nccldoctor.reports.compare;

import static io.nccldoctor.reports.render.MarkdownReport.text;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A comparison as GitHub-flavoured Markdown, to paste into a ticket: the two arms, one verdict line per collective
 * and environment, the caveats, how to read the numbers, then one table per collective and environment. Every string
 * from an input goes through {@code MarkdownReport.text}.
 */
public final class CompareMarkdown {

    private final StringBuilder out = new StringBuilder();

    private CompareMarkdown() {
    }

    public static String render(Comparison c) {
        CompareMarkdown m = new CompareMarkdown();
        m.header(c);
        m.verdicts(c);
        m.decisions(c);
        m.tables(c);
        return m.out.toString();
    }

    private void header(Comparison c) {
        line("# A/B: " + text(c.a().name()) + " against " + text(c.b().name()));
        line("");
        line("| Arm | Name | NCCL | Sweeps | Ranks | Sources |");
        line("|---|---|---|---:|---|---|");
        arm("A", c.a());
        arm("B", c.b());
        line("");
    }

    private void arm(String which, Comparison.Arm a) {
        line("| " + which + " | " + text(a.name()) + " | " + text(a.versions()) + " | " + a.sweeps() + " | "
                + (a.ranks().isEmpty() ? "unknown" : a.ranks().stream().map(String::valueOf).collect(Collectors.joining(", "))) + " | "
                + a.sources().stream().map(s -> text(s)).collect(Collectors.joining(", ")) + " |");
    }

    private void verdicts(Comparison c) {
        line("## Verdict");
        line("");
        if (c.summaries().isEmpty()) {
            line("No size was measured by either arm.");
            line("");
        }
        c.summaries().forEach(s -> line("- " + text(s.line())));
        line("");
        if (!c.notes().isEmpty()) {
            line("Caveats:");
            line("");
            c.notes().forEach(n -> line("- " + text(n)));
            line("");
        }
        CompareThresholds t = c.thresholds();
        line("How to read: B/A is the median out-of-place busbw of B's runs over A's at one size; the interval is a 95 % "
                + "bootstrap percentile interval of it (" + t.bootstrap() + " resamples, seed " + t.seed() + "); p is the "
                + "two-sided Mann-Whitney U test, exact up to " + Stats.EXACT_LIMIT + " runs. FASTER needs the interval above "
                + Fmt.ratio(1 + t.minChange()) + " and p below " + t.alpha() + " (or at its floor, where too few runs cannot go below "
                + t.alpha() + "), SLOWER the interval below " + Fmt.ratio(1 - t.minChange()) + " and the same p; a size with fewer than " + t.minSamples() + " runs in an arm is not "
                + "tested. The median in a verdict line is over sizes from " + Fmt.size(Summaries.FROM_BYTES) + " up.");
        line("");
    }

    /** NCCL's decisions per arm, side by side, when either arm's inputs hold an NCCL log; the files its folders skipped. */
    private void decisions(Comparison c) {
        if (!c.a().decisions().isEmpty() || !c.b().decisions().isEmpty()) {
            line("## What NCCL decided");
            line("");
            String from = Decisions.origin(c.a().decisions(), c.b().decisions());
            line("From " + from + ".");
            line("");
            line("- A " + text(c.a().name()) + ": " + text(c.a().decisions().line()));
            line("- B " + text(c.b().name()) + ": " + text(c.b().decisions().line()));
            line("");
        }
        for (Comparison.Arm arm : List.of(c.a(), c.b())) {
            if (!arm.skipped().isEmpty()) {
                line("Not read in " + text(arm.name()) + ": " + arm.skipped().stream().map(x -> text(x)).collect(Collectors.joining("; ")));
                line("");
            }
        }
    }

    private void tables(Comparison c) {
        for (Comparison.Summary s : c.summaries()) {
            line("## " + text(s.collective()) + (s.env().equals(Comparison.DEFAULT_ENV) ? "" : ", " + text(s.env())));
            line("");
            line("| Size | Runs A | Runs B | A (GB/s) | B (GB/s) | B/A | 95 % interval | p | Verdict |");
            line("|---:|---:|---:|---:|---:|---:|---|---:|---|");
            List<Comparison.Row> rows = c.rows().stream().filter(r -> r.collective().equals(s.collective()) && r.env().equals(s.env()))
                    .toList();
            rows.forEach(this::row);
            line("");
        }
    }

    private void row(Comparison.Row r) {
        line("| " + Fmt.size(r.sizeBytes()) + " | " + r.nA() + " | " + r.nB() + " | " + r.medianA().fold(Fmt::gb, x -> "-") + " | "
                + r.medianB().fold(Fmt::gb, x -> "-") + " | " + r.ratio().fold(Fmt::ratio, x -> "-") + " | "
                + r.interval().fold(Fmt::interval, x -> "-") + " | " + r.test().fold(u -> Fmt.p(u.p()), x -> "-") + " | "
                + (r.verdict() == Verdict.NOT_TESTED ? "NOT_TESTED: " + text(r.reason()) : r.verdict().name()) + " |");
    }

    private void line(String s) {
        out.append(s).append('\n');
    }
}
