package io.nccldoctor.reports.cluster;

import static io.nccldoctor.reports.render.MarkdownReport.text;

import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Severity;
import io.nccldoctor.reports.render.MarkdownReport;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The cluster as GitHub-flavoured Markdown, for a ticket: verdict, findings by severity, the drift table, the lines
 * every node agrees on, bandwidth, notes, and every node with the attributes it is odd in. Every string from a host
 * or a file goes through {@code MarkdownReport.text}, so a host name cannot open HTML, a link or a table cell.
 */
public final class ClusterMarkdown {

    private final StringBuilder out = new StringBuilder();

    private ClusterMarkdown() {
    }

    public static String render(ClusterReport r) {
        ClusterMarkdown m = new ClusterMarkdown();
        m.header(r);
        m.findings(r);
        m.drift(r);
        m.agreeing(r);
        m.bandwidth(r);
        m.notes(r);
        m.nodes(r);
        return m.out.toString();
    }

    private void header(ClusterReport r) {
        line("# nccl-doctor cluster: " + r.nodes().size() + (r.nodes().size() == 1 ? " node" : " nodes"));
        line("");
        line("**" + text(r.verdictLine()) + "**");
        line("");
        line("Created " + text(r.createdAt()) + " from " + (r.inputs().isEmpty() ? "snapshots in memory"
                : r.inputs().stream().map(MarkdownReport::text).collect(Collectors.joining(", "))) + ".");
        line("");
    }

    private void findings(ClusterReport r) {
        line("## Findings");
        line("");
        if (r.findings().isEmpty()) {
            line("No finding.");
            line("");
        }
        for (Severity s : List.of(Severity.ERROR, Severity.WARN, Severity.INFO)) {
            List<Finding> these = r.findings().stream().filter(f -> f.severity() == s).toList();
            if (these.isEmpty()) {
                continue;
            }
            line("### " + (s == Severity.ERROR ? "Errors" : s == Severity.WARN ? "Warnings" : "Info") + " (" + these.size() + ")");
            line("");
            for (Finding f : these) {
                line("#### " + text(f.code()) + ": " + text(f.title()));
                line("");
                line("Subject: " + text(f.subject()));
                line("");
                f.evidence().forEach(e -> line("- " + text(e)));
                line("");
                line("Remedy: " + text(f.remedy()));
                line("");
            }
        }
    }

    private void drift(ClusterReport r) {
        line("## Drift");
        line("");
        List<Lines> lines = Lines.merge(r.drifting());
        if (lines.isEmpty()) {
            line("Every node that knows a value agrees with the others.");
            line("");
            return;
        }
        line("| Attribute | Majority | Nodes | Odd nodes | Unknown |");
        line("|---|---|---:|---|---:|");
        for (Lines l : lines) {
            Row row = l.row();
            String odd = row.odd().stream().map(g -> "**" + text(g.value()) + "**: " + g.nodes().stream().map(MarkdownReport::text)
                    .collect(Collectors.joining(", "))).collect(Collectors.joining("<br>"));
            line("| " + text(l.label()) + " | " + (row.majority().isValue() ? text(row.majority().get()) : "_" + text(row.majority().reason()) + "_")
                    + " | " + row.majorityCount() + " | " + odd + " | " + row.unknownCount() + " |");
        }
        line("");
    }

    private void agreeing(ClusterReport r) {
        line("## Same on every node");
        line("");
        List<Lines> lines = Lines.merge(r.agreeing());
        if (lines.isEmpty()) {
            line("No attribute.");
            line("");
            return;
        }
        line("| Attribute | Value | Nodes | Unknown |");
        line("|---|---|---:|---:|");
        for (Lines l : lines) {
            Row.Group g = l.row().values().get(0);
            line("| " + text(l.label()) + " | " + text(g.value()) + " | " + g.nodes().size() + " | " + l.row().unknownCount() + " |");
        }
        line("");
    }

    private void bandwidth(ClusterReport r) {
        line("## Bandwidth");
        line("");
        if (r.bandwidth().isEmpty()) {
            line("No bandwidth file was given.");
            line("");
            return;
        }
        line("Slow: below median − " + num(r.outlierK()) + " × spread; the spread is 1.4826 × MAD, at least 1 % of the median.");
        line("");
        line("| Label | Nodes | Median (GB/s) | Spread (GB/s) | Threshold (GB/s) | Slow nodes (GB/s) |");
        line("|---|---:|---:|---:|---:|---|");
        for (Spread s : r.bandwidth()) {
            String threshold = s.thresholdGBps().isValue() ? num2(s.thresholdGBps().get()) : "_" + text(s.thresholdGBps().reason()) + "_";
            String slow = s.below().isEmpty() ? "none" : s.below().stream().map(x -> text(x.host()) + " " + num2(x.busBwGBps()))
                    .collect(Collectors.joining(", "));
            line("| " + text(s.label()) + " | " + s.nodeCount() + " | " + num2(s.medianGBps()) + " | " + num2(s.spreadGBps()) + " | " + threshold
                    + " | " + slow + " |");
        }
        line("");
    }

    private void notes(ClusterReport r) {
        if (r.notes().isEmpty()) {
            return;
        }
        line("## Notes");
        line("");
        r.notes().forEach(n -> line("- " + text(n)));
        line("");
    }

    private void nodes(ClusterReport r) {
        line("## Nodes");
        line("");
        Map<String, List<Row>> odd = r.oddIn();
        line("| Host | Odd in | Input | Snapshot taken | Source |");
        line("|---|---|---|---|---|");
        for (ClusterReport.Node n : r.nodes()) {
            List<Row> rows = odd.getOrDefault(n.host(), List.of());
            line("| " + text(n.host()) + " | " + (rows.isEmpty() ? "" : "**" + text(Lines.attributes(rows)) + "**") + " | " + text(n.input())
                    + " | " + text(n.createdAt()) + " | " + text(n.source()) + " |");
        }
        line("");
    }

    private static String num(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.2f", v);
    }

    private static String num2(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private void line(String s) {
        out.append(s).append('\n');
    }
}
