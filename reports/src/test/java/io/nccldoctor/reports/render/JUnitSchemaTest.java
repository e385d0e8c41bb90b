package io.nccldoctor.reports.render;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.GermanLocale;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RulesConfig;
import io.nccldoctor.reports.results.ExampleReports;
import io.nccldoctor.reports.results.Report;
import io.nccldoctor.reports.results.Reports;
import io.nccldoctor.reports.results.ResultSet;
import io.nccldoctor.reports.rules.Registry;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Every JUnit XML the tool writes is valid against junit-10.xsd; the cluster's form is checked in ClusterJUnitTest. */
@ExtendWith(GermanLocale.class)
class JUnitSchemaTest {

    @Test
    void theSampleReportWithHostileStringsIsValid() throws Exception {
        assertThat(JUnitSchema.problems(JUnitReport.render(SampleReport.report()))).isEmpty();
    }

    @Test
    void theExampleBundleAndItsNodesAloneAreValid() throws Exception {
        Report example = ExampleReports.example();
        assertThat(JUnitSchema.problems(JUnitReport.render(example))).as("report -o x.xml").isEmpty();
        Report nodes = Reports.judgeNodes(example.data(), Registry.nodeRules(), new RuleContext(RulesConfig.defaults(), NodeShape.none()));
        assertThat(nodes.checks()).as("a preflight-like report with checks").isNotEmpty();
        assertThat(JUnitSchema.problems(JUnitReport.render(nodes))).as("preflight -o x.xml").isEmpty();
    }

    @Test
    void anEmptyReportIsValid() throws Exception {
        Report empty = new Report(new ResultSet("nothing", false, "not a time", List.of(), List.of(), List.of(), List.of(), List.of()),
                List.of(), List.of());
        assertThat(JUnitSchema.problems(JUnitReport.render(empty))).isEmpty();
    }

    @Test
    void theSchemaCatchesWhatItShould() throws Exception {
        String valid = JUnitReport.render(SampleReport.report());
        String skippedOnTheRoot = valid.replaceFirst("<testsuites name=\"nccl-doctor\"", "<testsuites name=\"nccl-doctor\" skipped=\"1\"");
        assertThat(JUnitSchema.problems(skippedOnTheRoot)).as("the attribute the earlier writer put on <testsuites>")
                .singleElement().asString().contains("skipped").contains("testsuites");
        assertThat(JUnitSchema.problems(valid.replace(" failures=\"1\" errors=\"0\" skipped", " errors=\"0\" skipped")))
                .as("a testsuite without failures").isNotEmpty();
    }
}
