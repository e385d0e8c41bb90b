package io.nccldoctor.reports.render;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.Fact;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Severity;
import io.nccldoctor.reports.results.Ceiling;
import io.nccldoctor.reports.results.Check;
import io.nccldoctor.reports.results.PortTraffic;
import io.nccldoctor.reports.results.Report;
import io.nccldoctor.reports.results.Sweep;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BinaryOperator;

/**
 * A report in the Prometheus text exposition format 0.0.4, for node_exporter's textfile collector: every family a
 * gauge named nccl_doctor_*, written in one fixed order with HELP and TYPE first and its samples together, each
 * family with one label set, no sample twice. docs/metrics.md describes every family. No sample carries a
 * timestamp: the textfile collector refuses files that do.
 */
public final class PrometheusReport {

    private static final List<String> SWEEP = List.of("label", "collective", "repeat");

    private PrometheusReport() {
    }

    public static String render(Report r) {
        List<Family> families = new ArrayList<>();
        families.addAll(report(r));
        families.addAll(findings(r));
        families.addAll(checks(r.checks()));
        families.addAll(sweeps(r.data().sweeps()));
        families.add(ceilings(r.data().ceilings()));
        families.addAll(traffic(r.data().traffic()));
        StringBuilder out = new StringBuilder();
        families.forEach(f -> f.writeTo(out));
        return out.toString();
    }

    private static List<Family> report(Report r) {
        Family created = new Family("nccl_doctor_report_created_timestamp_seconds",
                "When the report was made (ResultSet.createdAt), in seconds since the Unix epoch.", List.of(), Family.FIRST);
        CreatedAt.parse(r.data().createdAt()).ifPresent(i -> created.add(i.getEpochSecond() + i.getNano() / 1e9));
        Family info = new Family("nccl_doctor_report_info", "The report's title, and whether it is the shipped example data; always 1.",
                List.of("title", "example"), Family.FIRST);
        info.add(1, r.data().title(), String.valueOf(r.data().example()));
        Family verdict = new Family("nccl_doctor_verdict", "1 for the report's verdict (pass, warn or fail), 0 for the other two.",
                List.of("verdict"), Family.FIRST);
        for (String v : List.of("pass", "warn", "fail")) {
            verdict.add(r.verdict().equalsIgnoreCase(v) ? 1 : 0, v);
        }
        return List.of(created, info, verdict);
    }

    private static List<Family> findings(Report r) {
        Family counts = new Family("nccl_doctor_findings", "Findings in the report, by severity.", List.of("severity"), Family.FIRST);
        for (Severity s : List.of(Severity.ERROR, Severity.WARN, Severity.INFO)) {
            counts.add(r.count(s), s.label());
        }
        Family each = new Family("nccl_doctor_finding",
                "Findings per code, severity, check scope (host name or results) and subject; usually 1.",
                List.of("code", "severity", "scope", "subject"), Family.SUM);
        for (ScopedFinding sf : ScopedFinding.of(r)) {
            Finding f = sf.finding();
            each.add(1, f.code(), f.severity().label(), sf.scope().orElse(""), f.subject());
        }
        return List.of(counts, each);
    }

    private static List<Family> checks(List<Check> checks) {
        Family passed = new Family("nccl_doctor_check_passed",
                "1 when a check that ran raised no error-level finding, else 0; waived checks have no sample.",
                List.of("code", "scope"), Family.MIN);
        Family waived = new Family("nccl_doctor_check_waived", "1 for a check that did not apply (waived) to its scope.",
                List.of("code", "scope"), Family.MAX);
        for (Check c : checks) {
            if (c.waived()) {
                waived.add(1, c.code(), c.scope());
            } else {
                passed.add(c.worst() == Severity.ERROR ? 0 : 1, c.code(), c.scope());
            }
        }
        return List.of(passed, waived);
    }

    /**
     * A few series per sweep, not one per size: a node's textfile stays at a few dozen series, where one series per
     * size and placement gave 940 samples for the example bundle (49 sizes). The size-resolved rows are in the JSON
     * report (data.sweeps[].rows[]). The peak is the out-of-place one, the figure nccl-tests users quote and the one
     * every other output gives (NcclTestsOutput.peakBusBw, the terminal report's sweep lines, the
     * pair judgement of docs/cluster.md); in-place cells are in the JSON rows.
     */
    private static List<Family> sweeps(List<Sweep> sweeps) {
        Family peak = new Family("nccl_doctor_busbw_peak_gbytes_per_second",
                "Highest out-of-place bus bandwidth of a sweep over its sizes, GB/s (1e9 bytes) as nccl-tests prints it.",
                List.of("label", "collective", "repeat", "ranks"), Family.MAX);
        List<String> atSize = new ArrayList<>(SWEEP);
        atSize.add("size_bytes");
        Family largest = new Family("nccl_doctor_busbw_largest_size_gbytes_per_second",
                "Out-of-place bus bandwidth at the largest size of a sweep (size_bytes), GB/s: the plateau a large message sees.",
                atSize, Family.FIRST);
        Family wrong = new Family("nccl_doctor_wrong_elements",
                "Wrong elements over all sizes and placements (#wrong); no sample when the run did not validate.", SWEEP, Family.SUM);
        for (Sweep s : sweeps) {
            String label = s.label();
            String collective = s.collective().orElse("");
            String repeat = String.valueOf(s.repeat());
            String ranks = s.ranks().map(String::valueOf).orElse("");
            for (NcclTestsOutput.Row row : s.rows()) {
                if (Double.isFinite(row.outOfPlace().busBwGBps())) {
                    peak.add(row.outOfPlace().busBwGBps(), label, collective, repeat, ranks);
                }
                for (NcclTestsOutput.Placement m : placements(row)) {
                    if (m.wrong().isValue()) {
                        wrong.add(m.wrong().get(), label, collective, repeat);
                    }
                }
            }
            s.largest().ifPresent(r -> largest.add(r.outOfPlace().busBwGBps(), label, collective, repeat, String.valueOf(r.sizeBytes())));
        }
        return List.of(peak, largest, wrong);
    }

    /** Out-of-place, and in-place where nccl-tests printed it (not N/A). */
    private static List<NcclTestsOutput.Placement> placements(NcclTestsOutput.Row row) {
        Fact<NcclTestsOutput.Placement> in = row.inPlace();
        return in.isValue() ? List.of(row.outOfPlace(), in.get()) : List.of(row.outOfPlace());
    }

    private static Family ceilings(List<Ceiling> ceilings) {
        Family f = new Family("nccl_doctor_ceiling_gbytes_per_second",
                "A physical limit on bus bandwidth per rank (NIC line rate or the PCIe link in front of it), GB/s.",
                List.of("label", "link"), Family.MIN);
        ceilings.forEach(c -> f.add(c.busBwGBps(), c.label(), c.link()));
        return f;
    }

    private static List<Family> traffic(List<PortTraffic> sets) {
        Family bytes = new Family("nccl_doctor_link_traffic_bytes", "Bytes sent per link during the measurement (Tx counters).",
                List.of("set", "link"), Family.FIRST);
        Family cv = new Family("nccl_doctor_link_traffic_cv",
                "Coefficient of variation of the bytes per link of a set: population standard deviation / mean; 0 is even, "
                        + "NaN with no traffic.",
                List.of("set"), Family.FIRST);
        for (PortTraffic t : sets) {
            t.txBytes().forEach((link, tx) -> bytes.add(tx, t.label(), link));
            cv.add(t.cv(), t.label());
        }
        return List.of(bytes, cv);
    }

    /** One metric family: its samples keyed by label values, so a series can never be written twice. */
    private static final class Family {

        static final BinaryOperator<Double> FIRST = (a, b) -> a;
        static final BinaryOperator<Double> SUM = Double::sum;
        static final BinaryOperator<Double> MIN = Math::min;
        static final BinaryOperator<Double> MAX = Math::max;

        private final String name;
        private final String help;
        private final List<String> labels;
        private final BinaryOperator<Double> merge;
        private final Map<List<String>, Double> samples = new LinkedHashMap<>();

        /** @param merge what a second sample of the same series does: keep the first, add, or keep the lower or higher */
        Family(String name, String help, List<String> labels, BinaryOperator<Double> merge) {
            this.name = name;
            this.help = help;
            this.labels = labels;
            this.merge = merge;
        }

        void add(double value, String... labelValues) {
            if (labelValues.length != labels.size()) {
                throw new IllegalArgumentException(name + " has labels " + labels + ", got " + labelValues.length + " values");
            }
            samples.merge(List.of(labelValues), value, merge);
        }

        void writeTo(StringBuilder out) {
            out.append("# HELP ").append(name).append(' ').append(help.replace("\\", "\\\\").replace("\n", "\\n")).append('\n');
            out.append("# TYPE ").append(name).append(" gauge\n");
            samples.forEach((values, v) -> {
                out.append(name);
                if (!labels.isEmpty()) {
                    out.append('{');
                    for (int i = 0; i < labels.size(); i++) {
                        out.append(i == 0 ? "" : ",").append(labels.get(i)).append("=\"").append(labelValue(values.get(i))).append('"');
                    }
                    out.append('}');
                }
                out.append(' ').append(value(v)).append('\n');
            });
        }
    }

    /** A label value as the format wants it: backslash, double quote and line feed escaped. */
    static String labelValue(String s) {
        return Optional.ofNullable(s).orElse("").replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    /** Go's float syntax without the default locale: integers bare, NaN and ±Inf spelt as Prometheus reads them. */
    static String value(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "+Inf" : "-Inf";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return String.valueOf((long) v);
        }
        return Double.toString(v);
    }
}
