package io.nccldoctor.reports.render;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.Fact;
import io.nccldoctor.reports.Severity;
import io.nccldoctor.reports.baseline.Note;
import io.nccldoctor.reports.parsed.NcclLogText;
import io.nccldoctor.reports.results.Ceiling;
import io.nccldoctor.reports.results.Check;
import io.nccldoctor.reports.results.PortTraffic;
import io.nccldoctor.reports.results.Report;
import io.nccldoctor.reports.results.ResultSet;
import io.nccldoctor.reports.results.Sweep;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A report as GitHub-flavoured Markdown, to paste into a ticket: the verdict first, then the findings by severity,
 * one table per sweep, the ceilings, the per-link traffic and the checks that did not run. Every string that may come
 * from a host or a log goes through {@link #text(String)}, so a log line cannot open HTML, a link or a table cell.
 */
public final class MarkdownReport {

    private static final String[] BINARY_UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

    private final StringBuilder out = new StringBuilder();

    private MarkdownReport() {
    }

    public static String render(Report r) {
        MarkdownReport m = new MarkdownReport();
        m.header(r);
        m.findings(r);
        m.sweeps(r.data());
        m.ceilings(r.data());
        m.ncclLogs(r.data());
        m.inputNotes(r.data());
        m.traffic(r.data().traffic());
        m.checks(r.checks());
        return m.out.toString();
    }

    private void header(Report r) {
        ResultSet d = r.data();
        line("# " + text(d.title()) + (d.example() ? " (EXAMPLE DATA)" : ""));
        line("");
        wrapped("", "**" + text(r.verdictLine()) + "**", "");
        line("");
        if (d.example()) {
            line("> **EXAMPLE DATA**: the shipped example, not a measurement of any cluster.");
            line("");
        }
        wrapped("", "Created " + text(d.createdAt()) + " from " + (d.inputs().isEmpty() ? "no input"
                : d.inputs().stream().map(MarkdownReport::text).collect(Collectors.joining(", "))) + ".", "");
        line("");
    }

    private void findings(Report r) {
        line("## Findings");
        line("");
        if (r.findings().isEmpty()) {
            line("No finding.");
            line("");
        }
        List<ScopedFinding> all = ScopedFinding.of(r);
        for (Severity s : List.of(Severity.ERROR, Severity.WARN, Severity.INFO)) {
            List<ScopedFinding> these = all.stream().filter(f -> f.finding().severity() == s).toList();
            if (!these.isEmpty()) {
                line("### " + heading(s) + " (" + these.size() + ")");
                line("");
                these.forEach(this::finding);
            }
        }
    }

    private static String heading(Severity s) {
        return switch (s) {
            case ERROR -> "Errors";
            case WARN -> "Warnings";
            case INFO -> "Info";
        };
    }

    private void finding(ScopedFinding sf) {
        var f = sf.finding();
        line("#### " + text(f.code()) + ": " + text(f.title()));
        line("");
        wrapped("", "Subject: " + text(f.subject()) + sf.scope().map(s -> "; Scope: " + text(s)).orElse(""), "");
        line("");
        f.evidence().forEach(e -> wrapped("- ", text(e), "  "));
        if (!f.evidence().isEmpty()) {
            line("");
        }
        wrapped("", "Remedy: " + MarkdownText.prose(f.remedy()), "");
        line("");
    }

    private void sweeps(ResultSet d) {
        line("## Sweeps");
        line("");
        if (d.sweeps().isEmpty()) {
            line("No sweep.");
            line("");
        }
        d.sweeps().forEach(this::sweep);
    }

    private void sweep(Sweep s) {
        line("### " + text(s.label()) + (s.repeat() > 0 ? " (repeat " + s.repeat() + ")" : ""));
        line("");
        line("- Collective: " + fact(s.collective(), MarkdownReport::text));
        line("- Ranks: " + fact(s.ranks(), String::valueOf) + "; Nodes: " + fact(s.nodes(), String::valueOf));
        line("- NCCL version: " + fact(s.ncclVersion(), MarkdownReport::text));
        wrapped("- ", "Env: " + (s.env().isEmpty() ? "not recorded" : new TreeMap<>(s.env()).entrySet().stream()
                .map(e -> text(e.getKey()) + "=" + text(e.getValue())).collect(Collectors.joining(", "))), "  ");
        wrapped("- ", "Source: " + text(s.source()) + " (" + text(s.tool()) + ")", "  ");
        line("");
        line("| Size | Count | Type | Time (us) | Algbw (GB/s) | Busbw (GB/s) | #wrong "
                + "| In-place time (us) | In-place algbw (GB/s) | In-place busbw (GB/s) | In-place #wrong |");
        line("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (NcclTestsOutput.Row row : s.rows()) {
            String in = row.inPlace().isValue() ? placement(row.inPlace().get()) : "N/A | N/A | N/A | N/A";
            line("| " + binary(row.sizeBytes()) + " | " + row.count() + " | " + text(row.type()) + " | "
                    + placement(row.outOfPlace()) + " | " + in + " |");
        }
        line("");
    }

    private static String placement(NcclTestsOutput.Placement p) {
        String wrong = p.wrong().isValue() ? String.valueOf(p.wrong().get())
                : p.maxError().isValue() ? "max error " + String.format(Locale.ROOT, "%.2e", p.maxError().get()) : "N/A";
        return number(p.timeUs()) + " | " + number(p.algBwGBps()) + " | " + number(p.busBwGBps()) + " | " + wrong;
    }

    private void ceilings(ResultSet d) {
        line("## Ceilings");
        line("");
        if (d.ceilings().isEmpty()) {
            line("No ceiling.");
            line("");
            return;
        }
        Optional<Ceiling> narrowest = d.narrowest();
        line("| Ceiling | Busbw (GB/s) | Link | Evidence |");
        line("|---|---:|---|---|");
        for (Ceiling c : d.ceilings()) {
            String mark = narrowest.filter(n -> n == c).isPresent() ? " (narrowest)" : "";
            line("| " + text(c.label()) + mark + " | " + number(c.busBwGBps()) + " | " + text(c.link()) + " | "
                    + c.evidence().stream().map(MarkdownReport::text).collect(Collectors.joining("<br>")) + " |");
        }
        line("");
    }

    /** The NCCL logs among the inputs, a row each: what they say when nothing is wrong with them too. */
    private void ncclLogs(ResultSet d) {
        if (d.ncclLogs().isEmpty()) {
            return;
        }
        line("## NCCL logs");
        line("");
        line("| Log | What it says | Processes | Warnings |");
        line("|---|---|---:|---:|");
        d.ncclLogs().forEach((name, log) -> line("| " + text(name) + " | " + text(NcclLogText.summary(log))
                + " | " + log.processes().size() + " | " + log.warnings() + " |"));
        line("");
    }

    private void traffic(List<PortTraffic> sets) {
        line("## Per-link traffic");
        line("");
        if (sets.isEmpty()) {
            line("No traffic counters.");
            line("");
        }
        for (PortTraffic t : sets) {
            line("### " + text(t.label()));
            line("");
            wrapped("", "CV " + number(t.cv()) + " (population standard deviation / mean; 0 is perfectly even); Source: "
                    + text(t.source()), "");
            line("");
            long total = t.txBytes().values().stream().mapToLong(Long::longValue).sum();
            line("| Link | Tx bytes | Tx | Share |");
            line("|---|---:|---:|---:|");
            t.txBytes().forEach((link, bytes) -> line("| " + text(link) + " | " + bytes + " | " + binary(bytes) + " | "
                    + (total == 0 ? "N/A" : String.format(Locale.ROOT, "%.1f %%", 100.0 * bytes / total)) + " |"));
            line("");
        }
    }

    private void checks(List<Check> checks) {
        long waived = checks.stream().filter(Check::waived).count();
        long failed = checks.stream().filter(c -> c.worst() == Severity.ERROR).count();
        line("## Checks");
        line("");
        line(checks.size() + " checks: " + (checks.size() - waived - failed) + " passed, " + failed + " failed, "
                + waived + " not run" + (waived > 0 ? ":" : "."));
        line("");
        for (Check c : checks) {
            if (c.waived()) {
                wrapped("- ", text(c.code()) + " on " + text(c.scope()) + ": " + text(c.title()) + " (waived: "
                        + text(c.waivedBecause()) + ")", "  ");
            }
        }
        if (waived > 0) {
            line("");
        }
    }

    private static <T> String fact(Fact<T> f, Function<T, String> show) {
        return f.isValue() ? show.apply(f.get()) : "unknown (" + text(f.reason()) + ")";
    }

    /** Two decimals as nccl-tests prints them, never with the default locale's decimal comma. */
    static String number(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }

    /** Bytes in binary units: 1048576 is "1 MiB", 1536 is "1.5 KiB". */
    static String binary(long bytes) {
        double v = bytes;
        int u = 0;
        while (Math.abs(v) >= 1024 && u < BINARY_UNITS.length - 1) {
            v /= 1024;
            u++;
        }
        String n = v == Math.rint(v) ? String.valueOf((long) v)
                : String.format(Locale.ROOT, "%.2f", v).replaceAll("0+$", "").replaceAll("\\.$", "");
        return n + " " + BINARY_UNITS[u];
    }

    /**
     * A string from a host or a log, made inert: HTML metacharacters become entities, Markdown metacharacters are
     * backslash-escaped (backslash first, so an escaped pipe stays in its table cell), inner line breaks become
     * {@code <br>}, and other control characters and the surrounding blanks are dropped. An underscore between two
     * letters or digits is left alone: GitHub never reads an intraword underscore as emphasis, and "mlx5_0" stays
     * readable.
     */
    public static String text(String s) {
        return s == null ? "" : inert(s.strip());
    }

    /** {@link #text} without the stripping: for the pieces of a longer string. */
    static String inert(String s) {
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '\\', '`', '*', '[', ']', '|', '~', '#' -> b.append('\\').append(c);
                case '_' -> b.append(intraword(s, i) ? "_" : "\\_");
                case '\r' -> {
                    b.append("<br>");
                    if (i + 1 < s.length() && s.charAt(i + 1) == '\n') {
                        i++;
                    }
                }
                case '\n' -> b.append("<br>");
                case '\t' -> b.append(' ');
                default -> {
                    if (c >= 0x20 && c != 0x7f) {
                        b.append(c);
                    }
                }
            }
        }
        return b.toString();
    }

    /** What the inputs leave out or could not show (a paste's devices not opened, bytes replaced): why a check was not made. */
    private void inputNotes(ResultSet d) {
        List<Note> unread = d.notes().stream().filter(n -> n.is(Note.Kind.UNREAD)).toList();
        if (unread.isEmpty()) {
            return;
        }
        line("## Notes on the inputs");
        line("");
        unread.forEach(n -> wrapped("- ", text(n.source()) + ": " + text(n.text()), "  "));
        line("");
    }

    private static boolean intraword(String s, int i) {
        return i > 0 && i + 1 < s.length() && Character.isLetterOrDigit(s.charAt(i - 1))
                && Character.isLetterOrDigit(s.charAt(i + 1));
    }

    private void line(String s) {
        out.append(s).append('\n');
    }

    /** A paragraph or list item wrapped for a ticket ({@link MarkdownText#wrap}). */
    private void wrapped(String first, String markdown, String indent) {
        MarkdownText.wrap(first, markdown, indent).forEach(this::line);
    }
}
