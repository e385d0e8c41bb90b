package io.nccldoctor.reports.rulezero;

import static io.nccldoctor.reports.render.MarkdownText.text;

import io.nccldoctor.collectives.coll.Alignment;
import io.nccldoctor.core.Fact;
import io.nccldoctor.reports.chart.SizeLabels;
import io.nccldoctor.reports.results.Ceiling;
import java.util.List;
import java.util.Locale;

/**
 * The rule-zero report as GitHub-flavoured Markdown, to paste into a ticket: the verdict line first, the inputs and
 * thresholds, one table row per suspect size, then each size's reasoning. Every string from a file goes through the
 * Markdown escaping of the other reports.
 */
public final class RuleZeroMarkdown {

    private final StringBuilder out = new StringBuilder();

    private RuleZeroMarkdown() {
    }

    public static String render(RuleZero z) {
        RuleZeroMarkdown m = new RuleZeroMarkdown();
        m.header(z);
        m.table(z);
        m.sizes(z);
        return m.out.toString();
    }

    private void header(RuleZero z) {
        line("# Rule zero: the harness against nccl-tests");
        line("");
        line("**" + text(z.verdictLine()) + "**");
        line("");
        line("Rule zero: before blaming the hardware, run the reference tool (nccl-tests) on the same sizes and read how it "
                + "conditions its inputs.");
        line("");
        line("- Suspect: " + z.rows().size() + (z.rows().size() == 1 ? " size" : " sizes"));
        if (z.references().isEmpty()) {
            line("- Reference: none given");
        }
        for (ReferenceCurve c : z.references()) {
            line("- Reference: " + text(c.tool()) + " '" + text(c.label()) + "' (" + text(c.collective().orElse("collective unknown")) + ", "
                    + c.ranks().map(Fmt::ranks).orElse("ranks unknown") + ", " + range(c) + ") from " + text(c.source()));
        }
        line("- Ceiling: " + ceiling(z.ceiling()));
        line("- Thresholds: a harness artifact below " + Fmt.pct(z.cliffFraction()) + " of nccl-tests' busbw (cliffFraction); the "
                + "fabric when both are below " + Fmt.pct(z.farBelowFraction()) + " of the ceiling (farBelowFraction)");
        line("");
    }

    private static String range(ReferenceCurve c) {
        return c.points().isEmpty() ? "no sizes" : SizeLabels.format(c.points().get(0).bytes()) + " to "
                + SizeLabels.format(c.points().get(c.points().size() - 1).bytes()) + ", " + c.points().size() + " sizes";
    }

    private static String ceiling(Fact<Ceiling> c) {
        return c.isValue() ? text(c.get().label()) + " = " + Fmt.gb(c.get().busBwGBps()) + " (" + text(c.get().link()) + ")"
                : text(c.reason());
    }

    private void table(RuleZero z) {
        line("## Sizes");
        line("");
        line("| Size | Collective | Type | Ranks | Count | Chunk (B) | Chunks aligned | nccl-tests count | nccl-tests chunk (B) "
                + "| Suspect busbw (GB/s) | nccl-tests busbw (GB/s) | Reference | Suspect / nccl-tests | Of ceiling | Verdict |");
        line("|---:|---|---|---:|---:|---:|---|---:|---:|---:|---:|---|---:|---:|---|");
        for (Judgement j : z.rows()) {
            SuspectRow r = j.suspect();
            Audit a = j.audit();
            line("| " + SizeLabels.format(r.bytes()) + " | " + r.collective() + " | " + r.dtype() + " | " + r.ranks() + " | "
                    + Fmt.grouped(r.count()) + " | " + chunk(a.asGiven()) + " | " + aligned(a) + " | " + Fmt.grouped(a.asNcclTests().count())
                    + " | " + chunk(a.asNcclTests()) + " | " + Fmt.num(r.busBw().get()) + " | "
                    + j.reference().map(m -> Fmt.num(m.busBwGBps())).orElse("none") + " | "
                    + j.reference().map(m -> m.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ')).orElse("none") + " | "
                    + j.ratio().map(Fmt::pct).orElse("n/a") + " | " + j.suspectOfCeiling().map(Fmt::pct).orElse("unknown") + " | "
                    + j.verdict() + " |");
        }
        line("");
    }

    static String chunk(Alignment a) {
        return a.chunked() ? Fmt.grouped(a.chunkBytes()) : "whole buffer";
    }

    static String aligned(Audit a) {
        if (!a.asGiven().chunked()) {
            return "n/a (whole buffer)";
        }
        List<Integer> bad = a.asGiven().misalignedChunks();
        return bad.isEmpty() ? "yes" : bad.size() == 1 ? "no: chunk " + bad.get(0) + " off"
                : bad.size() <= 6 ? "no: chunks " + String.join(", ", bad.stream().map(String::valueOf).toList()) + " off"
                : "no: " + bad.size() + " of " + a.asGiven().ranks() + " chunks off";
    }

    private void sizes(RuleZero z) {
        line("## Size by size");
        line("");
        for (Judgement j : z.rows()) {
            SuspectRow r = j.suspect();
            line("### " + Fmt.size(r.bytes()) + ": " + j.verdict());
            line("");
            line("- Suspect: " + r.collective() + ", " + r.dtype() + ", " + Fmt.ranks(r.ranks()) + ", " + Fmt.grouped(r.count())
                    + " elements, " + Fmt.gb(r.busBw().get()) + r.timeUs().map(t -> " (" + Fmt.num(t) + " us)").orElse("") + "; from "
                    + text(r.source()));
            line("- Reference: " + text(j.reference().fold(ReferenceMatch::how, s -> "none")));
            line("- Conditioning: " + text(j.audit().line()));
            line("- Why: " + text(j.why()));
            line("");
        }
    }

    private void line(String s) {
        out.append(s).append('\n');
    }
}
