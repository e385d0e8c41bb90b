package io.nccldoctor.reports.cluster;

import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import io.nccldoctor.reports.pairwise.PairwiseChecks;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Judges a cluster: the drift table over the nodes, the bandwidth outliers, and the findings with the site's overrides. */
public final class Cluster {

    private Cluster() {
    }

    /** The finding codes of the cluster view, for `explain` and the validation of configs/rules.yaml. */
    public static List<RuleInfo> checks() {
        List<RuleInfo> all = new ArrayList<>(ClusterChecks.all());
        all.addAll(PairwiseChecks.all());
        return List.copyOf(all);
    }

    public static ClusterReport judge(ClusterData data, ClusterOptions options, String createdAt) {
        Drift.Table table = Drift.of(data.nodes());
        List<Spread> spreads = Outliers.of(data.bandwidth(), options.outlierK());
        List<Finding> findings = new ArrayList<>();
        findings.addAll(ClusterChecks.drift(table.rows(), data.nodes().size()));
        findings.addAll(ClusterChecks.outliers(spreads));
        findings.addAll(ClusterChecks.unknown(table.rows()));
        List<String> notes = new ArrayList<>(data.notes());
        notes.addAll(table.notes());
        table.rows().stream().filter(r -> r.status() == Row.Status.UNKNOWN).forEach(r -> notes.add(r.label() + ": unknown on every node ("
                + String.join("; ", r.unknown().stream().map(Row.Unknown::reason).toList()) + ")"));
        notes.addAll(unmatched(data));
        List<Finding> kept = new ArrayList<>();
        for (Finding f : findings) {
            if (options.disabled().contains(f.code())) {
                continue;
            }
            Severity override = options.severity().get(f.code());
            kept.add(override == null ? f : f.withSeverity(override));
        }
        for (RuleInfo i : checks()) {
            if (options.disabled().contains(i.code())) {
                notes.add(i.code() + ": disabled in configs/rules.yaml");
            }
        }
        List<ClusterReport.Node> nodes = data.nodes().stream().map(NodeReading::node).toList();
        return new ClusterReport(createdAt, data.inputs(), options.outlierK(), nodes, table.rows(), spreads, kept, notes);
    }

    /** Hosts with a bandwidth but no snapshot, when there are snapshots: usually a typo or a missing file. */
    private static List<String> unmatched(ClusterData data) {
        if (data.nodes().isEmpty()) {
            return List.of();
        }
        Set<String> known = new LinkedHashSet<>(data.nodes().stream().map(NodeReading::host).toList());
        Set<String> missing = new LinkedHashSet<>();
        data.bandwidth().stream().map(Sample::host).filter(h -> !known.contains(h)).forEach(missing::add);
        return missing.isEmpty() ? List.of() : List.of("bandwidth for hosts without a snapshot: " + String.join(", ", missing));
    }
}
