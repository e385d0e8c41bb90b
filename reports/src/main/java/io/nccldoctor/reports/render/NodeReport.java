package io.nccldoctor.reports.render;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.results.Report;
import io.nccldoctor.reports.results.ResultSet;
import io.nccldoctor.reports.results.Reports;
import java.util.List;

/**
 * One node's judgement as a report, for the file formats a report has (JUnit XML, Prometheus textfile, Markdown,
 * HTML): what {@code preflight -o FILE} writes, a test case or a metric per check of that node.
 */
public final class NodeReport {

    private NodeReport() {
    }

    public static Report of(Snapshot snapshot, List<Rule> rules, RuleContext context) {
        ResultSet data = new ResultSet("nccl-doctor preflight: " + snapshot.hostName(), false, snapshot.createdAt(),
                List.of(snapshot.hostName()), List.of(snapshot), List.of(), List.of(), List.of());
        return Reports.judgeNodes(data, rules, context);
    }
}
