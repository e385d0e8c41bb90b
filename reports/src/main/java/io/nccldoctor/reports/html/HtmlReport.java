package io.nccldoctor.reports.html;

import static io.nccldoctor.reports.html.Html.esc;


import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.reports.ResultThresholds;
import io.nccldoctor.reports.baseline.Note;
import io.nccldoctor.reports.chart.Chart;
import io.nccldoctor.reports.chart.Charts;
import io.nccldoctor.reports.chart.Format;
import io.nccldoctor.reports.chart.GpuNicHeatMap;
import io.nccldoctor.reports.chart.PathMatrix;
import io.nccldoctor.reports.chart.SizeLabels;
import io.nccldoctor.reports.parsed.NcclLogText;
import io.nccldoctor.reports.results.Ceiling;
import io.nccldoctor.reports.results.Check;
import io.nccldoctor.reports.results.PortTraffic;
import io.nccldoctor.reports.results.Report;
import io.nccldoctor.reports.results.ReportCharts;
import io.nccldoctor.reports.results.Sweep;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report as one self-contained HTML file: inline CSS, charts as PNG data URIs, no script, and a Content Security
 * Policy that forbids scripts and every request, so a string from a host or a log can neither run nor fetch. Sections:
 * verdict, findings by severity (evidence and remedy), collectives, topology, GPUDirect, link traffic, checks not run.
 */
public final class HtmlReport {

    private HtmlReport() {
    }

    private static final String CSS = """
            .example{background:#fff4ce;border:1px solid #e0c25a;padding:8px 12px;margin:12px 0;font-weight:bold}
            .verdict{display:flex;gap:16px;align-items:center;background:#fff;border:1px solid #d5d9e0;border-radius:6px;padding:14px}
            .badge{font-weight:bold;font-size:20px;padding:6px 14px;border-radius:4px;color:#fff}
            .FAIL{background:#c62828}.WARN{background:#e08a00}.PASS{background:#2e7d32}
            .finding{background:#fff;border:1px solid #d5d9e0;border-left:5px solid #888;border-radius:4px;padding:10px 14px;margin:10px 0}
            .finding.error{border-left-color:#c62828}.finding.warn{border-left-color:#e08a00}.finding.info{border-left-color:#1565c0}
            .sev{font-weight:bold;text-transform:uppercase;font-size:12px;margin-right:6px}
            .code{font-family:"DejaVu Sans Mono",monospace;font-size:12px;background:#eef0f4;padding:1px 5px;border-radius:3px}
            .subject{color:#555} .remedy{margin-top:6px}
            details{margin:6px 0} summary{cursor:pointer}
            """;

    public static String render(Report r, ResultThresholds t) {
        StringBuilder h = new StringBuilder(1 << 16);
        Html.open(h, r.data().title(), CSS);
        h.append("<h1>").append(esc(r.data().title())).append("</h1>\n");
        h.append("<div class=\"muted\">").append(esc(r.data().createdAt())).append(" · inputs: ")
                .append(esc(String.join(", ", r.data().inputs()))).append("</div>\n");
        if (r.data().example()) {
            h.append("<div class=\"example\">EXAMPLE DATA: not a measurement of a real cluster. The numbers are shaped after the field "
                    + "report's cluster to show every chart and every pattern.</div>\n");
        }
        h.append("<section id=\"verdict\"><div class=\"verdict\"><span class=\"badge ").append(r.verdict()).append("\">")
                .append(r.verdict()).append("</span><span>").append(esc(r.verdictLine())).append("</span></div></section>\n");
        findings(h, r);
        Map<String, Chart> charts = ReportCharts.all(r, t);
        collectives(h, r, charts);
        topology(h, r, charts);
        ncclLogs(h, r);
        gpuDirect(h, r, charts);
        traffic(h, r, charts);
        inputNotes(h, r);
        notRun(h, r);
        h.append("<p class=\"muted\">nccl-doctor report · ").append(esc(r.data().createdAt())).append("</p>\n</main></body></html>\n");
        return h.toString();
    }

    private static void findings(StringBuilder h, Report r) {
        Html.findings(h, r.findings());
    }

    private static void image(StringBuilder h, Chart c, String alt, int w, int ht) {
        h.append("<img alt=\"").append(esc(alt)).append("\" width=\"").append(w).append("\" height=\"").append(ht).append("\" src=\"")
                .append(Charts.dataUri(c.render(Format.PNG, w, ht))).append("\">\n");
    }

    private static void collectives(StringBuilder h, Report r, Map<String, Chart> charts) {
        h.append("<section id=\"collectives\"><h2>Collectives</h2>\n");
        if (r.data().sweeps().isEmpty()) {
            h.append("<p>No measured sweep was given.</p>\n");
        }
        charts.forEach((name, c) -> {
            if (name.startsWith("busbw") || name.equals("aligned")) {
                image(h, c, name, 1100, 600);
            }
        });
        for (Sweep s : r.data().sweeps()) {
            h.append("<details><summary>").append(esc(s.label())).append(s.repeat() > 0 ? " (run " + (s.repeat() + 1) + ")" : "")
                    .append(" · ").append(esc(s.collective().orElse("collective unknown"))).append(" · ")
                    .append(esc(s.ranks().map(n -> n + (n == 1 ? " rank" : " ranks")).orElse("? ranks"))).append(" · ")
                    .append(esc(s.nodes().map(n -> n + (n == 1 ? " node" : " nodes")).orElse("? nodes"))).append(" · NCCL ")
                    .append(esc(s.ncclVersion().orElse("?"))).append(s.env().isEmpty() ? "" : " · " + esc(s.env().toString()))
                    .append(" · ").append(esc(s.tool())).append(": ").append(esc(s.source())).append("</summary>\n");
            h.append("<table><tr><th>size</th><th>count</th><th>type</th><th>time (us)</th><th>algbw (GB/s)</th><th>busbw (GB/s)</th>")
                    .append("<th>#wrong</th><th>in-place busbw</th><th>#wrong</th>").append(s.aligned().isEmpty() ? "" : "<th>chunks aligned</th>")
                    .append("</tr>\n");
            for (NcclTestsOutput.Row row : s.rows()) {
                NcclTestsOutput.Placement o = row.outOfPlace();
                h.append("<tr><td>").append(esc(SizeLabels.format(row.sizeBytes()))).append("</td><td>").append(row.count()).append("</td><td class=\"l\">")
                        .append(esc(row.type())).append("</td><td>").append(num(o.timeUs(), 1)).append("</td><td>").append(num(o.algBwGBps(), 2))
                        .append("</td><td>").append(num(o.busBwGBps(), 2)).append("</td>").append(wrong(o)).append("<td>")
                        .append(row.inPlace().isValue() ? num(row.inPlace().get().busBwGBps(), 2) : "N/A").append("</td>")
                        .append(row.inPlace().isValue() ? wrong(row.inPlace().get()) : "<td>N/A</td>");
                if (!s.aligned().isEmpty()) {
                    boolean a = s.aligned().getOrDefault(row.sizeBytes(), true);
                    h.append(a ? "<td>yes</td>" : "<td class=\"bad\">no</td>");
                }
                h.append("</tr>\n");
            }
            h.append("</table></details>\n");
        }
        h.append("</section>\n");
    }

    private static String wrong(NcclTestsOutput.Placement p) {
        if (!p.wrong().isValue()) {
            return "<td>N/A</td>";
        }
        long w = p.wrong().get();
        return w > 0 ? "<td class=\"bad\">" + w + "</td>" : "<td>0</td>";
    }

    /** The NCCL logs among the inputs, a row each; no section without them. */
    private static void ncclLogs(StringBuilder h, Report r) {
        if (r.data().ncclLogs().isEmpty()) {
            return;
        }
        h.append("<section id=\"nccl-logs\"><h2>NCCL logs</h2>\n<table><tr><th class=\"l\">log</th><th class=\"l\">what it says</th>"
                + "<th>processes</th><th>warnings</th></tr>\n");
        r.data().ncclLogs().forEach((name, log) -> h.append("<tr><td class=\"l\">").append(esc(name)).append("</td><td class=\"l\">")
                .append(esc(NcclLogText.summary(log))).append("</td><td>").append(log.processes().size())
                .append("</td><td>").append(log.warnings()).append("</td></tr>\n"));
        h.append("</table>\n</section>\n");
    }

    private static void topology(StringBuilder h, Report r, Map<String, Chart> charts) {
        h.append("<section id=\"topology\"><h2>Topology and ceilings</h2>\n");
        if (r.data().ceilings().isEmpty()) {
            h.append("<p>No ceiling known: give node captures (`nccl-doctor capture`) or ceilings in a bundle.</p>\n");
        } else {
            h.append("<table><tr><th class=\"l\">ceiling</th><th>busbw (GB/s)</th><th class=\"l\">set by</th><th class=\"l\">how</th></tr>\n");
            for (Ceiling c : r.data().ceilings()) {
                h.append("<tr><td class=\"l\">").append(esc(c.label())).append("</td><td>").append(num(c.busBwGBps(), 2)).append("</td><td class=\"l\">")
                        .append(esc(c.link())).append("</td><td class=\"l\">").append(esc(String.join("; ", c.evidence()))).append("</td></tr>\n");
            }
            h.append("</table>\n<p class=\"muted\">An upper bound per rank for collectives across nodes: every node's traffic crosses its NICs.</p>\n");
        }
        for (Snapshot n : r.data().nodes()) {
            Chart c = charts.get("paths-" + n.hostName());
            if (c != null) {
                h.append("<h3>").append(esc(n.hostName())).append("</h3>\n");
                int size = 120 + 56 * (int) Math.sqrt(Math.max(1, ((PathMatrix) c).rows().size()
                        * ((PathMatrix) c).rows().size()));
                image(h, c, "paths-" + n.hostName(), 760, Math.min(900, size));
            }
        }
        h.append("</section>\n");
    }

    private static void gpuDirect(StringBuilder h, Report r, Map<String, Chart> charts) {
        h.append("<section id=\"gpudirect\"><h2>GPUDirect RDMA: NIC reads and writes of GPU memory</h2>\n");
        boolean any = false;
        for (Snapshot n : r.data().nodes()) {
            Chart reads = charts.get("nic-reads-" + n.hostName());
            Chart writes = charts.get("nic-writes-" + n.hostName());
            if (reads != null && writes != null) {
                any = true;
                h.append("<h3>").append(esc(n.hostName())).append("</h3>\n");
                int rows = ((GpuNicHeatMap) reads).gpus().size();
                image(h, reads, "nic-reads-" + n.hostName(), 540, Math.min(900, 150 + 48 * rows));
                image(h, writes, "nic-writes-" + n.hostName(), 540, Math.min(900, 150 + 48 * rows));
            }
        }
        if (!any) {
            h.append("<p>No perftest matrix was given (`nccl-doctor gdr --active --perftest-peer HOST`, or perftest files in a bundle).</p>\n");
        }
        h.append("</section>\n");
    }

    private static void traffic(StringBuilder h, Report r, Map<String, Chart> charts) {
        if (r.data().traffic().isEmpty()) {
            return;
        }
        h.append("<section id=\"traffic\"><h2>Traffic per link</h2>\n");
        for (int i = 0; i < r.data().traffic().size(); i++) {
            PortTraffic p = r.data().traffic().get(i);
            h.append("<h3>").append(esc(p.label())).append(": CV ").append(num(p.cv(), 2)).append("</h3>\n");
            image(h, charts.get(i == 0 ? "traffic" : "traffic-" + (i + 1)), p.label(), 760, 420);
        }
        h.append("</section>\n");
    }

    /** What the inputs leave out or could not show (a paste's devices not opened, bytes replaced): why a check was not made. */
    private static void inputNotes(StringBuilder h, Report r) {
        List<Note> unread = r.data().notes().stream().filter(n -> n.is(Note.Kind.UNREAD)).toList();
        if (unread.isEmpty()) {
            return;
        }
        h.append("<section id=\"input-notes\"><h2>Notes on the inputs</h2><ul>\n");
        unread.forEach(n -> h.append("<li>").append(esc(n.source())).append(": ").append(esc(n.text())).append("</li>\n"));
        h.append("</ul></section>\n");
    }

    private static void notRun(StringBuilder h, Report r) {
        List<Check> waived = r.checks().stream().filter(Check::waived).toList();
        if (waived.isEmpty()) {
            return;
        }
        h.append("<section id=\"not-checked\"><h2>Not checked</h2><ul>\n");
        waived.forEach(c -> h.append("<li><span class=\"code\">").append(esc(c.code())).append("</span> ").append(esc(c.scope()))
                .append(": ").append(esc(c.waivedBecause())).append("</li>\n"));
        h.append("</ul></section>\n");
    }

    private static String num(double v, int decimals) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }
}
