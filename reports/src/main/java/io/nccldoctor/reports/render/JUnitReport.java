package io.nccldoctor.reports.render;

import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Severity;
import io.nccldoctor.reports.results.Check;
import io.nccldoctor.reports.results.Report;
import io.nccldoctor.reports.results.ResultSet;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;

/**
 * A report as JUnit XML, the format Jenkins and GitLab read: one test case per check, classname
 * "nccl-doctor." + scope. A check with an error finding fails, a waived one is skipped, warnings and info go to the
 * passing case's system-out. Written by hand, in the checks' order, so the same report gives the same bytes. Valid
 * against the Jenkins xunit plugin's junit-10.xsd (tested with it): `skipped` is an attribute of the testsuite only,
 * the schema gives `testsuites` no such attribute.
 */
public final class JUnitReport {

    /** The Ant JUnit schema's timestamp: ISO-8601 without a zone, here always UTC. */
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss");

    private final StringBuilder out = new StringBuilder();

    private JUnitReport() {
    }

    public static String render(Report r) {
        return render(r, r.verdictLine());
    }

    /** With the verdict line of the view the report stands for (the cluster's counts nodes, not sweeps). */
    public static String render(Report r, String verdictLine) {
        JUnitReport j = new JUnitReport();
        List<Check> checks = r.checks();
        long failures = checks.stream().filter(JUnitReport::failed).count();
        long skipped = checks.stream().filter(Check::waived).count();
        String counts = " tests=\"" + checks.size() + "\" failures=\"" + failures + "\" errors=\"0\"";
        j.out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        j.out.append("<testsuites name=\"nccl-doctor\"").append(counts).append(" time=\"0\">\n");
        j.out.append("  <testsuite name=\"").append(attr(r.data().title())).append('"').append(counts)
                .append(" skipped=\"").append(skipped).append("\" time=\"0\"").append(timestamp(r.data())).append(">\n");
        j.properties(r, verdictLine);
        checks.forEach(j::testCase);
        j.out.append("  </testsuite>\n");
        j.out.append("</testsuites>\n");
        return j.out.toString();
    }

    private static boolean failed(Check c) {
        return !c.waived() && c.worst() == Severity.ERROR;
    }

    private static String timestamp(ResultSet d) {
        return CreatedAt.parse(d.createdAt())
                .map(i -> " timestamp=\"" + TIMESTAMP.format(i.atOffset(ZoneOffset.UTC)) + "\"").orElse("");
    }

    private void properties(Report r, String verdictLine) {
        out.append("    <properties>\n");
        property("verdict", r.verdict());
        property("verdict.line", verdictLine);
        property("example", String.valueOf(r.data().example()));
        property("created", r.data().createdAt());
        r.data().inputs().forEach(i -> property("input", i));
        out.append("    </properties>\n");
    }

    private void property(String name, String value) {
        out.append("      <property name=\"").append(attr(name)).append("\" value=\"").append(attr(value)).append("\"/>\n");
    }

    private void testCase(Check c) {
        out.append("    <testcase classname=\"").append(attr("nccl-doctor." + c.scope())).append("\" name=\"")
                .append(attr(c.code() + " " + c.title())).append("\" time=\"0\"");
        if (c.waived()) {
            out.append(">\n      <skipped message=\"").append(attr(c.waivedBecause())).append("\"/>\n    </testcase>\n");
        } else if (failed(c)) {
            List<Finding> errors = c.findings().stream().filter(f -> f.severity() == Severity.ERROR).toList();
            String message = errors.get(0).title() + (errors.size() > 1 ? " (and " + (errors.size() - 1) + " more)" : "");
            out.append(">\n      <failure message=\"").append(attr(message)).append("\" type=\"").append(attr(c.code()))
                    .append("\">").append(text(describe(c.findings()))).append("</failure>\n    </testcase>\n");
        } else if (!c.findings().isEmpty()) {
            out.append(">\n      <system-out>").append(text(describe(c.findings()))).append("</system-out>\n    </testcase>\n");
        } else {
            out.append("/>\n");
        }
    }

    /** Every finding of a check, errors first: severity, code, subject and title, the evidence, the remedy. */
    private static String describe(List<Finding> findings) {
        StringBuilder b = new StringBuilder();
        findings.stream().sorted(Comparator.comparing(Finding::severity).reversed()).forEach(f -> {
            b.append('[').append(f.severity().label()).append("] ").append(f.code()).append(" on ").append(f.subject())
                    .append(": ").append(f.title()).append('\n');
            f.evidence().forEach(e -> b.append("  evidence: ").append(e).append('\n'));
            b.append("  remedy: ").append(f.remedy()).append('\n');
        });
        return b.toString();
    }

    /** Element text: the three markup characters as entities, CR kept as a reference, characters illegal in XML 1.0 dropped. */
    static String text(String s) {
        return escape(s, false);
    }

    /** An attribute value: as {@link #text}, plus the quote, and tab and line breaks as references (a parser would fold them). */
    static String attr(String s) {
        return escape(s, true);
    }

    private static String escape(String s, boolean attribute) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(s.length() + 16);
        s.codePoints().forEach(cp -> {
            switch (cp) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append(attribute ? "&quot;" : "\"");
                case '\r' -> b.append("&#13;");
                case '\n' -> b.append(attribute ? "&#10;" : "\n");
                case '\t' -> b.append(attribute ? "&#9;" : "\t");
                default -> {
                    if (legal(cp)) {
                        b.appendCodePoint(cp);
                    }
                }
            }
        });
        return b.toString();
    }

    /** XML 1.0 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]; a lone surrogate is not one. */
    private static boolean legal(int cp) {
        return cp >= 0x20 && cp <= 0xD7FF || cp >= 0xE000 && cp <= 0xFFFD || cp >= 0x10000 && cp <= 0x10FFFF;
    }
}
