package io.nccldoctor.reports.render;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.GermanLocale;
import io.nccldoctor.reports.Severity;
import io.nccldoctor.reports.results.Check;
import io.nccldoctor.reports.results.Report;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

@ExtendWith(GermanLocale.class)
class JUnitReportTest {

    private final Report report = SampleReport.report();

    private static Document parse(String xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void parsesAndCountsMatchTheChecks() throws Exception {
        Document d = parse(JUnitReport.render(report));
        List<Check> checks = report.checks();
        long failed = checks.stream().filter(c -> !c.waived() && c.worst() == Severity.ERROR).count();
        long waived = checks.stream().filter(Check::waived).count();
        Element suite = (Element) d.getElementsByTagName("testsuite").item(0);
        NodeList cases = d.getElementsByTagName("testcase");
        assertThat(cases.getLength()).as("one test case per check").isEqualTo(checks.size());
        for (Element e : List.of(d.getDocumentElement(), suite)) {
            assertThat(e.getAttribute("tests")).isEqualTo(String.valueOf(checks.size()));
            assertThat(e.getAttribute("failures")).as("Jenkins counts failures from this attribute").isEqualTo(String.valueOf(failed))
                    .isEqualTo(String.valueOf(d.getElementsByTagName("failure").getLength()));
            assertThat(e.getAttribute("errors")).isEqualTo("0");
        }
        assertThat(suite.getAttribute("skipped")).isEqualTo(String.valueOf(waived))
                .isEqualTo(String.valueOf(d.getElementsByTagName("skipped").getLength()));
        assertThat(d.getDocumentElement().hasAttribute("skipped")).as("junit-10.xsd has no skipped on <testsuites>").isFalse();
        assertThat(suite.getAttribute("timestamp")).as("the Ant schema's zone-less timestamp").isEqualTo("2026-11-30T12:00:00");
    }

    @Test
    void checksBecomeCasesWithTheirOutcome() throws Exception {
        Document d = parse(JUnitReport.render(report));
        NodeList cases = d.getElementsByTagName("testcase");
        for (int i = 0; i < cases.getLength(); i++) {
            Element e = (Element) cases.item(i);
            Check c = report.checks().get(i);
            assertThat(e.getAttribute("classname")).isEqualTo("nccl-doctor." + c.scope().replace("\u0007", ""));
            assertThat(e.getAttribute("name")).isEqualTo(c.code() + " " + c.title());
        }
        Element failure = (Element) d.getElementsByTagName("failure").item(0);
        assertThat(failure.getAttribute("type")).isEqualTo("WRONG_ELEMENTS");
        assertThat(failure.getAttribute("message")).isEqualTo("allgather returned 3 wrong elements at 1.5 MiB");
        assertThat(failure.getTextContent()).as("the failure holds evidence and remedy, the log line intact")
                .contains(SampleReport.LOG_LINE).contains("remedy: Do not trust").contains("[info] WRONG_ELEMENTS");
        Element skipped = (Element) d.getElementsByTagName("skipped").item(0);
        assertThat(skipped.getAttribute("message")).as("a newline in an attribute survives as &#10;")
                .isEqualTo("no gdr section: <run> `gdr --active` | first\n");
        NodeList out = d.getElementsByTagName("system-out");
        assertThat(out.getLength()).as("the three passing checks with warnings or info").isEqualTo(3);
        assertThat(out.item(1).getTextContent()).startsWith("[warn] ACS_REDIRECT_ON_P2P_PATH on 0000:16:02.0: ");
        assertThat(((Element) cases.item(4)).getChildNodes().getLength()).as("a clean pass is an empty test case").isZero();
    }

    @Test
    void escapesAndDropsWhatXmlCannotHold() {
        assertThat(JUnitReport.attr("a\u0000\u0008b\uD800c\uFFFEd\"<&>\n\t\r")).isEqualTo("abcd&quot;&lt;&amp;&gt;&#10;&#9;&#13;");
        assertThat(JUnitReport.text("x\"<y>\n\t\uD83D\uDE80")).as("a surrogate pair is one legal character")
                .isEqualTo("x\"&lt;y&gt;\n\t\uD83D\uDE80");
    }
}
