package io.nccldoctor.reports.cluster;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.nccldoctor.reports.ExitCodes;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The judged cluster: every node, the drift table (a row per attribute and subject, every node's value), the
 * bandwidth spreads, the findings (errors first) and notes on what was left out. This one model feeds every renderer;
 * its JSON form is documented in docs/cluster.md.
 *
 * @param outlierK k of the outlier rule, as used
 * @param notes    what the table leaves out and why, and attributes no node could report
 */
@JsonPropertyOrder({"schemaVersion", "kind", "verdict", "verdictLine", "exitCode", "createdAt", "inputs", "outlierK", "nodes",
    "drift", "bandwidth", "findings", "notes"})
public record ClusterReport(String createdAt, List<String> inputs, double outlierK, List<Node> nodes, List<Row> drift,
                            List<Spread> bandwidth, List<Finding> findings, List<String> notes) {

    /**
     * One node: its host name, the input it came from, and the snapshot's own time and source.
     *
     * @param source "live", or "capture DIR" for a replayed capture
     */
    public record Node(String host, String input, String createdAt, String source) {
    }

    public ClusterReport {
        inputs = List.copyOf(inputs);
        nodes = List.copyOf(nodes);
        drift = List.copyOf(drift);
        bandwidth = List.copyOf(bandwidth);
        findings = findings.stream().sorted(Comparator.comparing(Finding::severity).reversed()).toList();
        notes = List.copyOf(notes);
    }

    @JsonProperty
    public int schemaVersion() {
        return 1;
    }

    @JsonProperty
    public String kind() {
        return "cluster";
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
        long attributes = drift.stream().map(Row::attribute).distinct().count();
        long drifting = drifting().stream().map(Row::attribute).distinct().count();
        return verdict() + ": " + counts + " finding" + (findings.size() == 1 ? "" : "s") + " over " + nodes.size()
                + (nodes.size() == 1 ? " node" : " nodes") + "; " + drifting + " of " + attributes + " attributes drift"
                + (findings.isEmpty() ? "" : "; first: " + findings.get(0).title());
    }

    /** 0 PASS or WARN, 1 FAIL: the exit code of `cluster`. */
    @JsonProperty
    public int exitCode() {
        return count(Severity.ERROR) > 0 ? ExitCodes.FINDINGS : ExitCodes.OK;
    }

    @JsonIgnore
    public List<Row> drifting() {
        return drift.stream().filter(r -> r.status() == Row.Status.DRIFTS).toList();
    }

    @JsonIgnore
    public List<Row> agreeing() {
        return drift.stream().filter(r -> r.status() == Row.Status.AGREES).toList();
    }

    /** Per host, the rows where it is off the majority (or in a split without one), in table order. */
    @JsonIgnore
    public Map<String, List<Row>> oddIn() {
        Map<String, List<Row>> out = new HashMap<>();
        for (Row r : drifting()) {
            r.oddNodes().forEach(h -> out.computeIfAbsent(h, k -> new ArrayList<>()).add(r));
        }
        return out;
    }

    @JsonIgnore
    public List<Row> unknownEverywhere() {
        return drift.stream().filter(r -> r.status() == Row.Status.UNKNOWN).toList();
    }
}
