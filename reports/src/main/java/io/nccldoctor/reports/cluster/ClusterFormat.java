package io.nccldoctor.reports.cluster;

import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.render.JUnitReport;
import io.nccldoctor.reports.render.PrometheusReport;
import io.nccldoctor.reports.results.Check;
import io.nccldoctor.reports.results.Report;
import io.nccldoctor.reports.results.ResultSet;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/** The forms of a cluster report, chosen by the extension of -o. */
public enum ClusterFormat {
    TEXT(ClusterText::render),
    MARKDOWN(ClusterMarkdown::render),
    JSON(Json::write),
    HTML(ClusterHtml::render),
    JUNIT(r -> JUnitReport.render(asReport(r), r.verdictLine())),
    PROMETHEUS(r -> PrometheusReport.render(asReport(r)));

    private final Function<ClusterReport, String> renderer;

    ClusterFormat(Function<ClusterReport, String> renderer) {
        this.renderer = renderer;
    }

    public String render(ClusterReport r) {
        return renderer.apply(r);
    }

    /**
     * The cluster's judgement in the results model that the JUnit and Prometheus writers read: one check per cluster
     * code, holding its findings (a test case per code in JUnit; nccl_doctor_finding and _check_passed series).
     */
    static Report asReport(ClusterReport r) {
        List<Check> checks = new ArrayList<>();
        for (RuleInfo i : Cluster.checks()) {
            checks.add(new Check(i.code(), i.title(), "cluster", null,
                    r.findings().stream().filter(f -> f.code().equals(i.code())).toList()));
        }
        ResultSet data = new ResultSet("nccl-doctor cluster: " + r.nodes().size() + " nodes", false, r.createdAt(), r.inputs(),
                List.of(), List.of(), List.of(), List.of());
        return new Report(data, checks, r.findings());
    }

    /** .txt, .md, .json, .html (also .htm, .markdown), .xml (JUnit) or .prom; anything else is an input error naming the file. */
    public static ClusterFormat of(Path output) {
        String name = output.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String ext = dot < 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
        return switch (ext) {
            case "txt", "text" -> TEXT;
            case "md", "markdown" -> MARKDOWN;
            case "json" -> JSON;
            case "html", "htm" -> HTML;
            case "xml", "junit" -> JUNIT;
            case "prom" -> PROMETHEUS;
            default -> throw new InputException("-o " + output + ": unknown format; name the file .txt, .md, .json, .html, .xml (JUnit) "
                    + "or .prom (Prometheus textfile)");
        };
    }
}
