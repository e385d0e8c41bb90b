package io.nccldoctor.reports.results;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.baseline.Note;
import io.nccldoctor.reports.parsed.NcclLogText;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** The terminal form of a report: one screen, verdict first, then what it rests on. */
public final class ReportText {

    private ReportText() {
    }

    public static String render(Report r) {
        StringBuilder s = new StringBuilder();
        s.append(r.data().title()).append('\n');
        if (r.data().example()) {
            s.append("EXAMPLE DATA: not a measurement of a real cluster\n");
        }
        s.append('\n').append(r.verdictLine()).append("\n\n");
        if (!r.findings().isEmpty()) {
            s.append("Findings (evidence and remedy: nccl-doctor explain CODE, or the -o report.html / .md)\n");
            for (Finding f : r.findings()) {
                s.append(String.format(Locale.ROOT, "  %-5s %-20s %s%n", f.severity().label().toUpperCase(Locale.ROOT), f.code(),
                        oneLine(f.title())));
            }
            s.append('\n');
        }
        if (!r.data().sweeps().isEmpty()) {
            s.append("Sweeps: peak bus bandwidth\n");
            for (Sweep w : r.data().sweeps()) {
                String peak = w.rows().stream().max(Comparator.comparingDouble(x -> x.outOfPlace().busBwGBps()))
                        .map(ReportText::peak).orElse("no rows");
                s.append(String.format(Locale.ROOT, "  %-32s %-13s %-17s %s%n", oneLine(w.label()) + (w.repeat() > 0 ? " #" + (w.repeat() + 1) : ""),
                        w.collective().orElse("?"), w.ranks().map(n -> n + (n == 1 ? " rank" : " ranks")).orElse("? ranks")
                                + w.nodes().map(n -> "/" + n + (n == 1 ? " node" : " nodes")).orElse(""),
                        peak));
            }
            s.append('\n');
        }
        if (!r.data().ceilings().isEmpty()) {
            s.append("Ceilings (per rank, across nodes)\n");
            for (Ceiling c : r.data().ceilings()) {
                s.append(String.format(Locale.ROOT, "  %-32s %7.2f GB/s  %s%n", oneLine(c.label()), c.busBwGBps(), oneLine(c.link())));
            }
            s.append('\n');
        }
        if (!r.data().ncclLogs().isEmpty()) {
            s.append("NCCL logs\n");
            r.data().ncclLogs().forEach((name, log) -> s.append("  ").append(oneLine(name)).append(": ")
                    .append(NcclLogText.summary(log)).append('\n'));
            s.append('\n');
        }
        for (PortTraffic p : r.data().traffic()) {
            s.append(String.format(Locale.ROOT, "Traffic %s: CV %.2f over %d links%n", oneLine(p.label()), p.cv(), p.txBytes().size()));
        }
        List<Note> unread = r.data().notes().stream().filter(n -> n.is(Note.Kind.UNREAD)).toList();
        if (!unread.isEmpty()) {
            s.append("Notes on the inputs (what they leave out or could not show: why a check was not made)\n");
            unread.forEach(n -> s.append("  ").append(oneLine(n.source())).append(": ").append(oneLine(n.text())).append('\n'));
            s.append('\n');
        }
        long waived = r.checks().stream().filter(Check::waived).count();
        if (waived > 0) {
            s.append("Not checked: ").append(waived).append(" check").append(waived == 1 ? "" : "s")
                    .append(" (listed with their reasons in the HTML, Markdown and JSON reports)\n");
        }
        return s.toString();
    }

    private static String peak(NcclTestsOutput.Row x) {
        return String.format(Locale.ROOT, "%7.2f GB/s at %s", x.outOfPlace().busBwGBps(), SweepMath.size(x.sizeBytes()));
    }

    /** Host and log strings can hold newlines or control characters; a terminal line must not. */
    private static String oneLine(String v) {
        return v == null ? "" : v.replaceAll("[\\p{Cntrl}]", " ");
    }
}
