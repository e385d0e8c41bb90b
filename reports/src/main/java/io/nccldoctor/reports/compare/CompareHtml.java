package io.nccldoctor.reports.compare;

import static io.nccldoctor.reports.html.Html.esc;

import io.nccldoctor.reports.chart.Charts;
import io.nccldoctor.reports.chart.Format;
import io.nccldoctor.reports.chart.SizeSweep;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A comparison as one self-contained HTML file, on the conventions of
 * {@link io.nccldoctor.reports.html.HtmlReport}: inline CSS, charts as PNG data URIs, no script, and a Content
 * Security Policy that forbids scripts and every request. Every string from an input goes through
 * {@link io.nccldoctor.reports.html.Html#esc}.
 */
public final class CompareHtml {

    private CompareHtml() {
    }

    private static final String CSS = """
            .verdict{background:#fff;border:1px solid #d5d9e0;border-radius:6px;padding:10px 14px;margin:6px 0}
            th,td{white-space:nowrap} td.wrap{white-space:normal}
            td.FASTER{background:#dff0e0;font-weight:bold} td.SLOWER{background:#fbe3e3;font-weight:bold} td.NOT_TESTED{color:#666}
            """;

    public static String render(Comparison c) {
        String title = "A/B: " + c.a().name() + " against " + c.b().name();
        StringBuilder h = new StringBuilder(1 << 16);
        io.nccldoctor.reports.html.Html.open(h, title, CSS);
        h.append("<h1>").append(esc(title)).append("</h1>\n");
        arms(h, c);
        verdicts(h, c);
        Map<String, SizeSweep> charts = CompareCharts.all(c);
        for (Comparison.Summary s : c.summaries()) {
            sizes(h, c, s, charts);
        }
        h.append("<p class=\"muted\">nccl-doctor compare</p>\n</main></body></html>\n");
        return h.toString();
    }

    private static void arms(StringBuilder h, Comparison c) {
        h.append("<table><tr><th class=\"l\">arm</th><th class=\"l\">name</th><th class=\"l\">NCCL</th><th>sweeps</th>")
                .append("<th class=\"l\">ranks</th><th class=\"l\">sources</th></tr>\n");
        for (Comparison.Arm a : List.of(c.a(), c.b())) {
            h.append("<tr><td class=\"l\">").append(a == c.a() ? "A" : "B").append("</td><td class=\"l\">").append(esc(a.name()))
                    .append("</td><td class=\"l\">").append(esc(a.versions())).append("</td><td>").append(a.sweeps())
                    .append("</td><td class=\"l\">").append(a.ranks().isEmpty() ? "unknown"
                            : a.ranks().stream().map(String::valueOf).collect(Collectors.joining(", ")))
                    .append("</td><td class=\"l wrap\">").append(esc(String.join(", ", a.sources()))).append("</td></tr>\n");
        }
        h.append("</table>\n");
    }

    private static void verdicts(StringBuilder h, Comparison c) {
        h.append("<section id=\"verdict\"><h2>Verdict</h2>\n");
        if (c.summaries().isEmpty()) {
            h.append("<p>No size was measured by either arm.</p>\n");
        }
        c.summaries().forEach(s -> h.append("<div class=\"verdict\">").append(esc(s.line())).append("</div>\n"));
        if (!c.notes().isEmpty()) {
            h.append("<ul>");
            c.notes().forEach(n -> h.append("<li>").append(esc(n)).append("</li>"));
            h.append("</ul>\n");
        }
        CompareThresholds t = c.thresholds();
        h.append("<p class=\"muted\">B/A: median out-of-place busbw of B over A at one size. Interval: 95 % bootstrap percentile (")
                .append(t.bootstrap()).append(" resamples, seed ").append(t.seed()).append("). p: two-sided Mann-Whitney U, exact up to ")
                .append(Stats.EXACT_LIMIT).append(" runs. FASTER: interval above ").append(Fmt.ratio(1 + t.minChange()))
                .append(" and p below ").append(t.alpha()).append(" (or at its floor, where too few runs cannot go below ").append(t.alpha())
                .append("); SLOWER: interval below ").append(Fmt.ratio(1 - t.minChange())).append(" and the same p. Fewer than ").append(t.minSamples()).append(" runs in an arm: not tested. Median in a verdict line: sizes from ")
                .append(esc(Fmt.size(Summaries.FROM_BYTES))).append(" up.</p>\n</section>\n");
    }

    private static void sizes(StringBuilder h, Comparison c, Comparison.Summary s, Map<String, SizeSweep> charts) {
        boolean defaultEnv = s.env().equals(Comparison.DEFAULT_ENV);
        h.append("<section><h2>").append(esc(s.collective())).append(defaultEnv ? "" : ", " + esc(s.env())).append("</h2>\n");
        String name = "ratio-" + s.collective() + (defaultEnv ? "" : " " + s.env());
        SizeSweep chart = charts.get(name);
        if (chart != null) {
            h.append("<img alt=\"").append(esc(name)).append("\" width=\"1100\" height=\"560\" src=\"")
                    .append(Charts.dataUri(chart.render(Format.PNG, 1100, 560))).append("\">\n");
        }
        h.append("<table><tr><th>size</th><th>runs A</th><th>runs B</th><th>A (GB/s)</th><th>B (GB/s)</th><th>B/A</th>")
                .append("<th class=\"l\">95 % interval</th><th>p</th><th class=\"l\">verdict</th><th class=\"l\">why</th></tr>\n");
        for (Comparison.Row r : c.rows()) {
            if (!r.collective().equals(s.collective()) || !r.env().equals(s.env())) {
                continue;
            }
            h.append("<tr><td>").append(esc(Fmt.size(r.sizeBytes()))).append("</td><td>").append(r.nA()).append("</td><td>").append(r.nB())
                    .append("</td><td>").append(r.medianA().fold(Fmt::gb, x -> "-")).append("</td><td>").append(r.medianB().fold(Fmt::gb, x -> "-"))
                    .append("</td><td>").append(r.ratio().fold(Fmt::ratio, x -> "-")).append("</td><td class=\"l\">")
                    .append(r.interval().fold(Fmt::interval, x -> "-")).append("</td><td>").append(esc(r.test().fold(u -> Fmt.p(u.p()), x -> "-")))
                    .append("</td><td class=\"l ").append(r.verdict().name()).append("\">").append(r.verdict().name())
                    .append("</td><td class=\"l wrap\">").append(esc(r.reason())).append("</td></tr>\n");
        }
        h.append("</table>\n</section>\n");
    }
}
