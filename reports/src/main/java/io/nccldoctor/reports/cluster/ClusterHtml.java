package io.nccldoctor.reports.cluster;

import static io.nccldoctor.reports.html.Html.esc;

import io.nccldoctor.reports.html.Html;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The cluster as one self-contained HTML file: inline CSS, no script, and the Content Security Policy of the report
 * (no script, no request), so a host name or a value from a snapshot can neither run nor fetch; every such string
 * goes through {@code Html.esc}. Sections: verdict, findings, drift, agreeing attributes, bandwidth, notes, nodes.
 */
public final class ClusterHtml {

    static final String CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'";

    private static final String CSS = """
            body{font:14px/1.45 "DejaVu Sans",system-ui,sans-serif;margin:0;color:#1d2430;background:#f6f7f9}
            main{max-width:1180px;margin:0 auto;padding:24px}
            h1{font-size:22px;margin:0 0 4px} h2{font-size:18px;margin:32px 0 8px;border-bottom:1px solid #d5d9e0;padding-bottom:4px}
            .verdict{display:flex;gap:16px;align-items:center;background:#fff;border:1px solid #d5d9e0;border-radius:6px;padding:14px}
            .badge{font-weight:bold;font-size:20px;padding:6px 14px;border-radius:4px;color:#fff}
            .FAIL{background:#c62828}.WARN{background:#e08a00}.PASS{background:#2e7d32}
            .finding{background:#fff;border:1px solid #d5d9e0;border-left:5px solid #888;border-radius:4px;padding:10px 14px;margin:10px 0}
            .finding.error{border-left-color:#c62828}.finding.warn{border-left-color:#e08a00}.finding.info{border-left-color:#1565c0}
            .sev{font-weight:bold;text-transform:uppercase;font-size:12px;margin-right:6px}
            .code{font-family:"DejaVu Sans Mono",monospace;font-size:12px;background:#eef0f4;padding:1px 5px;border-radius:3px}
            .subject{color:#555} ul{margin:6px 0 6px 18px;padding:0} .remedy{margin-top:6px}
            table{border-collapse:collapse;background:#fff;font-size:12.5px;margin:6px 0}
            th,td{border:1px solid #d5d9e0;padding:3px 7px;text-align:left;vertical-align:top} th{background:#eef0f4} td.n{text-align:right}
            td.bad,span.bad{background:#fbe3e3;font-weight:bold}
            .muted{color:#666;font-size:12.5px}
            """;

    private ClusterHtml() {
    }

    public static String render(ClusterReport r) {
        StringBuilder h = new StringBuilder(1 << 16);
        String title = "nccl-doctor cluster: " + r.nodes().size() + (r.nodes().size() == 1 ? " node" : " nodes");
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
                .append("<meta http-equiv=\"Content-Security-Policy\" content=\"").append(CSP).append("\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>").append(esc(title)).append("</title>\n<style>").append(CSS).append("</style></head>\n<body><main>\n");
        h.append("<h1>").append(esc(title)).append("</h1>\n<div class=\"muted\">").append(esc(r.createdAt())).append(" · inputs: ")
                .append(esc(r.inputs().isEmpty() ? "snapshots in memory" : String.join(", ", r.inputs()))).append("</div>\n");
        h.append("<section id=\"verdict\"><div class=\"verdict\"><span class=\"badge ").append(r.verdict()).append("\">").append(r.verdict())
                .append("</span><span>").append(esc(r.verdictLine())).append("</span></div></section>\n");
        findings(h, r);
        drift(h, r);
        agreeing(h, r);
        bandwidth(h, r);
        if (!r.notes().isEmpty()) {
            h.append("<section id=\"notes\"><h2>Notes</h2><ul>\n");
            r.notes().forEach(n -> h.append("<li>").append(esc(n)).append("</li>\n"));
            h.append("</ul></section>\n");
        }
        nodes(h, r);
        h.append("<p class=\"muted\">nccl-doctor cluster · ").append(esc(r.createdAt())).append("</p>\n</main></body></html>\n");
        return h.toString();
    }

    private static void findings(StringBuilder h, ClusterReport r) {
        Html.findings(h, r.findings());
    }

    private static void drift(StringBuilder h, ClusterReport r) {
        h.append("<section id=\"drift\"><h2>Drift</h2>\n");
        List<Lines> lines = Lines.merge(r.drifting());
        if (lines.isEmpty()) {
            h.append("<p>Every node that knows a value agrees with the others.</p></section>\n");
            return;
        }
        h.append("<table><tr><th>attribute</th><th>majority</th><th>nodes</th><th>odd nodes</th><th>unknown</th></tr>\n");
        for (Lines l : lines) {
            Row row = l.row();
            h.append("<tr><td>").append(esc(l.label())).append("</td><td>")
                    .append(esc(row.majority().isValue() ? row.majority().get() : row.majority().reason())).append("</td><td class=\"n\">")
                    .append(row.majorityCount()).append("</td><td>");
            for (Row.Group g : row.odd()) {
                h.append("<div><span class=\"bad\">").append(esc(g.value())).append("</span>: ").append(esc(String.join(", ", g.nodes())))
                        .append("</div>");
            }
            h.append("</td><td class=\"n\">").append(row.unknownCount()).append("</td></tr>\n");
        }
        h.append("</table></section>\n");
    }

    private static void agreeing(StringBuilder h, ClusterReport r) {
        List<Lines> lines = Lines.merge(r.agreeing());
        h.append("<section id=\"agreeing\"><h2>Same on every node</h2>\n");
        if (lines.isEmpty()) {
            h.append("<p>No attribute.</p></section>\n");
            return;
        }
        h.append("<table><tr><th>attribute</th><th>value</th><th>nodes</th><th>unknown</th></tr>\n");
        for (Lines l : lines) {
            Row.Group g = l.row().values().get(0);
            h.append("<tr><td>").append(esc(l.label())).append("</td><td>").append(esc(g.value())).append("</td><td class=\"n\">")
                    .append(g.nodes().size()).append("</td><td class=\"n\">").append(l.row().unknownCount()).append("</td></tr>\n");
        }
        h.append("</table></section>\n");
    }

    private static void bandwidth(StringBuilder h, ClusterReport r) {
        h.append("<section id=\"bandwidth\"><h2>Bandwidth</h2>\n");
        if (r.bandwidth().isEmpty()) {
            h.append("<p>No bandwidth file was given.</p></section>\n");
            return;
        }
        h.append("<p class=\"muted\">Slow: below median − ").append(num(r.outlierK(), 2))
                .append(" × spread; the spread is 1.4826 × MAD, at least 1 % of the median.</p>\n");
        h.append("<table><tr><th>label</th><th>nodes</th><th>median (GB/s)</th><th>spread (GB/s)</th><th>threshold (GB/s)</th>")
                .append("<th>slow nodes (GB/s)</th></tr>\n");
        for (Spread s : r.bandwidth()) {
            h.append("<tr><td>").append(esc(s.label())).append("</td><td class=\"n\">").append(s.nodeCount()).append("</td><td class=\"n\">")
                    .append(num(s.medianGBps(), 2)).append("</td><td class=\"n\">").append(num(s.spreadGBps(), 2)).append("</td><td class=\"n\">")
                    .append(s.thresholdGBps().isValue() ? num(s.thresholdGBps().get(), 2) : esc(s.thresholdGBps().reason())).append("</td>");
            if (s.below().isEmpty()) {
                h.append("<td>none</td></tr>\n");
                continue;
            }
            h.append("<td class=\"bad\">");
            s.below().forEach(x -> h.append("<div>").append(esc(x.host())).append(' ').append(num(x.busBwGBps(), 2)).append("</div>"));
            h.append("</td></tr>\n");
        }
        h.append("</table></section>\n");
    }

    private static void nodes(StringBuilder h, ClusterReport r) {
        Map<String, List<Row>> odd = r.oddIn();
        h.append("<section id=\"nodes\"><h2>Nodes</h2>\n<table><tr><th>host</th><th>odd in</th><th>input</th><th>snapshot taken</th>")
                .append("<th>source</th></tr>\n");
        for (ClusterReport.Node n : r.nodes()) {
            List<Row> rows = odd.getOrDefault(n.host(), List.of());
            h.append("<tr><td>").append(esc(n.host())).append("</td>").append(rows.isEmpty() ? "<td></td>"
                    : "<td class=\"bad\">" + esc(Lines.attributes(rows)) + "</td>").append("<td>").append(esc(n.input())).append("</td><td>")
                    .append(esc(n.createdAt())).append("</td><td>").append(esc(n.source())).append("</td></tr>\n");
        }
        h.append("</table></section>\n");
    }

    private static String num(double v, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }
}
