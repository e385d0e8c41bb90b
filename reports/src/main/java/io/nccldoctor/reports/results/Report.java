package io.nccldoctor.reports.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Severity;
import java.util.Comparator;
import java.util.List;

/**
 * A judged result set: every check, the findings ordered by severity (errors first), and the verdict. This one model
 * feeds every renderer (terminal, JSON, Markdown, HTML, JUnit XML, Prometheus).
 */
@JsonPropertyOrder({"schemaVersion", "kind", "verdict", "verdictLine", "exitCode", "data", "findings", "checks"})
public record Report(ResultSet data, List<Check> checks, List<Finding> findings) {

    @JsonProperty
    public int schemaVersion() {
        return 1;
    }

    @JsonProperty
    public String kind() {
        return "report";
    }

    public Report {
        checks = List.copyOf(checks);
        findings = findings.stream().sorted(Comparator.comparing(Finding::severity).reversed()).toList();
    }

    public long count(Severity s) {
        return findings.stream().filter(f -> f.severity() == s).count();
    }

    /** FAIL with an error-level finding, WARN with a warning, else PASS. */
    @JsonProperty
    public String verdict() {
        return count(Severity.ERROR) > 0 ? "FAIL" : count(Severity.WARN) > 0 ? "WARN" : "PASS";
    }

    /** One line that stands on its own: the verdict and what it rests on. */
    @JsonProperty
    public String verdictLine() {
        String counts = count(Severity.ERROR) + " error, " + count(Severity.WARN) + " warning, " + count(Severity.INFO) + " info";
        String first = findings.isEmpty() ? "no finding" : findings.get(0).title();
        return verdict() + ": " + counts + " finding" + (findings.size() == 1 ? "" : "s") + " over " + data.sweeps().size() + " sweep"
                + (data.sweeps().size() == 1 ? "" : "s") + (data.ncclLogs().isEmpty() ? " and " : ", ") + data.nodes().size() + " node"
                + (data.nodes().size() == 1 ? "" : "s")
                + (data.ncclLogs().isEmpty() ? "" : " and " + data.ncclLogs().size() + " NCCL log" + (data.ncclLogs().size() == 1 ? "" : "s"))
                + baselines() + (findings.isEmpty() ? "" : "; first: " + first);
    }

    /** "; judged against published baselines: 1 of 2 sweeps": said when a baseline was the reference, empty otherwise. */
    private String baselines() {
        long judged = findings.stream().filter(f -> f.code().equals(AtBaseline.INFO.code()) || f.code().equals(BelowBaseline.INFO.code()))
                .map(Finding::subject).distinct().count();
        return judged == 0 ? "" : "; judged against published baselines (configs/baselines.yaml): " + judged + " of " + data.sweeps().size()
                + " sweep" + (data.sweeps().size() == 1 ? "" : "s");
    }

    /** 0 PASS or WARN, 1 FAIL: the exit code of `report`. */
    @JsonProperty
    public int exitCode() {
        return count(Severity.ERROR) > 0 ? 1 : 0;
    }
}
