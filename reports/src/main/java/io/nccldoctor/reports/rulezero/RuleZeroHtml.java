package io.nccldoctor.reports.rulezero;

import static io.nccldoctor.reports.html.Html.esc;

import io.nccldoctor.reports.chart.Charts;
import io.nccldoctor.reports.chart.Format;
import io.nccldoctor.reports.chart.SizeLabels;
import io.nccldoctor.reports.chart.SizeSweep;
import io.nccldoctor.reports.html.Html;
import io.nccldoctor.reports.results.Ceiling;
import java.util.Locale;

/**
 * The rule-zero report as one self-contained HTML file, on the conventions of the main report: inline CSS, charts as PNG
 * data URIs, no script, and a Content Security Policy that forbids scripts and every request, so that a label or a file
 * name can neither run nor fetch. Sections: verdict, inputs and thresholds, one chart per collective and world size,
 * the table of sizes, and each size's reasoning.
 */
public final class RuleZeroHtml {

    private RuleZeroHtml() {
    }

    private static final String CSS = """
            .verdict{display:flex;gap:16px;align-items:center;background:#fff;border:1px solid #d5d9e0;border-radius:6px;padding:14px}
            .badge{font-weight:bold;font-size:16px;padding:6px 14px;border-radius:4px;color:#fff;white-space:nowrap}
            .HARNESS_ARTIFACT{background:#c62828}.FABRIC{background:#e08a00}.BELOW_BASELINE{background:#e08a00}.CONSISTENT{background:#2e7d32}.AT_BASELINE{background:#2e7d32}.NO_REFERENCE{background:#607080}
            """;

    public static String render(RuleZero z) {
        StringBuilder h = new StringBuilder(1 << 16);
        Html.open(h, "Rule zero: the harness against nccl-tests", CSS)
                .append("<h1>Rule zero: the harness against nccl-tests</h1>\n")
                .append("<p class=\"muted\">Before blaming the hardware, run the reference tool (nccl-tests) on the same sizes and read how it ")
                .append("conditions its inputs.</p>\n");
        h.append("<section id=\"verdict\"><div class=\"verdict\"><span class=\"badge ").append(z.verdict()).append("\">").append(z.verdict())
                .append("</span><span>").append(esc(z.verdictLine())).append("</span></div></section>\n");
        inputs(h, z);
        h.append("<section id=\"charts\"><h2>Bus bandwidth against size</h2>\n");
        RuleZeroCharts.all(z).forEach((name, c) -> image(h, c, name));
        h.append("</section>\n");
        table(h, z);
        sizes(h, z);
        h.append("<p class=\"muted\">nccl-doctor rule-zero report</p>\n</main></body></html>\n");
        return h.toString();
    }

    private static void inputs(StringBuilder h, RuleZero z) {
        h.append("<section id=\"inputs\"><h2>Inputs</h2><ul>\n<li>Suspect: ").append(z.rows().size()).append(z.rows().size() == 1 ? " size" : " sizes")
                .append("</li>\n");
        if (z.references().isEmpty()) {
            h.append("<li>Reference: none given</li>\n");
        }
        for (ReferenceCurve c : z.references()) {
            h.append("<li>Reference: ").append(esc(c.tool())).append(" '").append(esc(c.label())).append("' (")
                    .append(esc(c.collective().orElse("collective unknown"))).append(", ").append(esc(c.ranks().map(Fmt::ranks).orElse("ranks unknown")))
                    .append(", ").append(c.points().size()).append(" sizes) from ").append(esc(c.source())).append("</li>\n");
        }
        h.append("<li>Ceiling: ");
        if (z.ceiling().isValue()) {
            Ceiling c = z.ceiling().get();
            h.append(esc(c.label())).append(" = ").append(esc(Fmt.gb(c.busBwGBps()))).append(" (").append(esc(c.link())).append(")");
        } else {
            h.append(esc(z.ceiling().reason()));
        }
        h.append("</li>\n<li>Thresholds: a harness artifact below ").append(esc(Fmt.pct(z.cliffFraction())))
                .append(" of nccl-tests' busbw (cliffFraction); the fabric when both are below ").append(esc(Fmt.pct(z.farBelowFraction())))
                .append(" of the ceiling (farBelowFraction)</li>\n</ul></section>\n");
    }

    private static void image(StringBuilder h, SizeSweep c, String alt) {
        h.append("<img alt=\"").append(esc(alt)).append("\" width=\"1100\" height=\"600\" src=\"")
                .append(Charts.dataUri(c.render(Format.PNG, 1100, 600))).append("\">\n");
    }

    private static void table(StringBuilder h, RuleZero z) {
        h.append("<section id=\"sizes\"><h2>Sizes</h2>\n<table><tr><th>size</th><th class=\"l\">collective</th><th class=\"l\">type</th>")
                .append("<th>ranks</th><th>count</th><th>chunk (B)</th><th class=\"l\">chunks aligned</th><th>nccl-tests count</th>")
                .append("<th>nccl-tests chunk (B)</th><th>suspect busbw (GB/s)</th><th>nccl-tests busbw (GB/s)</th><th class=\"l\">reference</th>")
                .append("<th>suspect / nccl-tests</th><th>of ceiling</th><th class=\"l\">verdict</th></tr>\n");
        for (Judgement j : z.rows()) {
            SuspectRow r = j.suspect();
            Audit a = j.audit();
            h.append("<tr><td>").append(esc(SizeLabels.format(r.bytes()))).append("</td><td class=\"l\">").append(esc(r.collective()))
                    .append("</td><td class=\"l\">").append(esc(r.dtype())).append("</td><td>").append(r.ranks()).append("</td><td>")
                    .append(Fmt.grouped(r.count())).append("</td><td>").append(esc(RuleZeroMarkdown.chunk(a.asGiven()))).append("</td>")
                    .append(a.misaligned() ? "<td class=\"l bad\">" : "<td class=\"l\">").append(esc(RuleZeroMarkdown.aligned(a)))
                    .append("</td><td>").append(Fmt.grouped(a.asNcclTests().count())).append("</td><td>")
                    .append(esc(RuleZeroMarkdown.chunk(a.asNcclTests()))).append("</td><td>").append(Fmt.num(r.busBw().get()))
                    .append("</td><td>").append(j.reference().map(m -> Fmt.num(m.busBwGBps())).orElse("none")).append("</td><td class=\"l\">")
                    .append(j.reference().map(m -> m.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ')).orElse("none"))
                    .append(j.verdict() == Verdict.HARNESS_ARTIFACT ? "</td><td class=\"bad\">" : "</td><td>")
                    .append(esc(j.ratio().map(Fmt::pct).orElse("n/a"))).append("</td><td>")
                    .append(esc(j.suspectOfCeiling().map(Fmt::pct).orElse("unknown"))).append("</td><td class=\"l\">").append(j.verdict())
                    .append("</td></tr>\n");
        }
        h.append("</table></section>\n");
    }

    private static void sizes(StringBuilder h, RuleZero z) {
        h.append("<section id=\"reasons\"><h2>Size by size</h2>\n");
        for (Judgement j : z.rows()) {
            SuspectRow r = j.suspect();
            h.append("<h3>").append(esc(Fmt.size(r.bytes()))).append(": ").append(j.verdict()).append("</h3>\n<ul>")
                    .append("<li>Suspect: ").append(esc(r.collective() + ", " + r.dtype() + ", " + Fmt.ranks(r.ranks()) + ", "
                            + Fmt.grouped(r.count()) + " elements, " + Fmt.gb(r.busBw().get()))).append("; from ").append(esc(r.source()))
                    .append("</li>\n<li>Reference: ").append(esc(j.reference().fold(ReferenceMatch::how, s -> "none")))
                    .append("</li>\n<li>Conditioning: ").append(esc(j.audit().line()))
                    .append("</li>\n<li>Why: ").append(esc(j.why())).append("</li></ul>\n");
        }
        h.append("</section>\n");
    }
}
