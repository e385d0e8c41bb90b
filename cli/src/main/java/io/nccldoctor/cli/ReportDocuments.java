package io.nccldoctor.cli;

import io.nccldoctor.core.output.JsonDocument;
import io.nccldoctor.reports.ResultThresholds;
import io.nccldoctor.reports.html.HtmlReport;
import io.nccldoctor.reports.render.JUnitReport;
import io.nccldoctor.reports.render.MarkdownReport;
import io.nccldoctor.reports.render.PrometheusReport;
import io.nccldoctor.reports.results.Report;
import io.nccldoctor.reports.results.ReportText;

/** A report in each of its text formats: the one place `report` and `preflight -o` turn a Report into bytes. */
final class ReportDocuments {

    private ReportDocuments() {
    }

    static byte[] render(Report r, OutputFormat fmt, ResultThresholds t) {
        return Outputs.utf8(switch (fmt) {
            case HTML -> HtmlReport.render(r, t);
            case MD -> MarkdownReport.render(r);
            case JSON -> JsonDocument.write(r);
            case JUNIT -> JUnitReport.render(r);
            case PROM -> PrometheusReport.render(r);
            case TEXT -> ReportText.render(r);
            case PNG, SVG -> throw new IllegalArgumentException(fmt + " is a chart, not a report");
        });
    }
}
