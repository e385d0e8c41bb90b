package io.nccldoctor.reports.render;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.GermanLocale;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Locks the Markdown, JUnit XML and Prometheus forms of one report. Runs under a German locale so that a decimal
 * comma cannot slip into any of them. To accept an intended change, run with -Dgolden.update=true and review the
 * diff of src/test/resources/golden/report.
 */
@ExtendWith(GermanLocale.class)
class RenderGoldenTest {

    @Test
    void markdown() throws IOException {
        matches("report.md", MarkdownReport.render(SampleReport.report()));
    }

    @Test
    void junit() throws IOException {
        matches("report.junit.xml", JUnitReport.render(SampleReport.report()));
    }

    @Test
    void prometheus() throws IOException {
        matches("report.prom", PrometheusReport.render(SampleReport.report()));
    }

    /** The JSON form (`report -o FILE.json`): the whole model, read back as the same tree. */
    @Test
    void json() throws IOException {
        String json = io.nccldoctor.core.Json.write(SampleReport.report());
        matches("report.json", json);
        com.fasterxml.jackson.databind.JsonNode doc = io.nccldoctor.core.Json.mapper().readTree(json);
        org.assertj.core.api.Assertions.assertThat(doc.at("/data/sweeps/0/rows/0/outOfPlace/busBwGBps").isNumber()).isTrue();
        org.assertj.core.api.Assertions.assertThat(doc.get("findings").size()).isEqualTo(SampleReport.report().findings().size());
    }

    @Test
    void sameReportSameBytes() {
        assertThat(JUnitReport.render(SampleReport.report())).as("JUnit XML is deterministic")
                .isEqualTo(JUnitReport.render(SampleReport.report()));
        assertThat(PrometheusReport.render(SampleReport.report())).as("Prometheus text is deterministic")
                .isEqualTo(PrometheusReport.render(SampleReport.report()));
        assertThat(MarkdownReport.render(SampleReport.report())).as("Markdown is deterministic")
                .isEqualTo(MarkdownReport.render(SampleReport.report()));
    }

    private static void matches(String name, String actual) throws IOException {
        Path golden = Path.of("src/test/resources/golden/report", name);
        if (Boolean.getBoolean("golden.update") || !Files.exists(golden)) {
            Files.createDirectories(golden.getParent());
            Files.writeString(golden, actual, StandardCharsets.UTF_8);
        }
        assertThat(actual).as("output differs from %s (rerun with -Dgolden.update=true to accept)", golden)
                .isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
    }
}
