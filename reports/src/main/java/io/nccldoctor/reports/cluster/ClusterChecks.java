package io.nccldoctor.reports.cluster;

import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/** The cluster findings: one per drifting attribute, one per bandwidth label with slow nodes, and unknown facts. */
final class ClusterChecks {

    static final RuleInfo DRIFT = new RuleInfo("CLUSTER_DRIFT", Severity.WARN,
            "An attribute differs between the nodes of the cluster",
            "Nodes of one job should agree on driver, libraries, kernel, firmware, link widths and port settings. The field "
                    + "report's cluster drifted without anyone touching it: three NIC firmware levels after a partial upgrade, "
                    + "MTU back at 1500 and RDMA devices renamed after a reboot, an incomplete driver library set in a container. "
                    + "Each node passes its own pre-flight; only the side-by-side view shows the odd one.",
            "every node's value of each attribute of the drift table (docs/cluster.md), grouped by value; the majority is the "
                    + "value more nodes hold than any other",
            "Bring the odd nodes to the majority value, or drain them; the finding's remedy says how for the attribute.");

    static final RuleInfo OUTLIER = new RuleInfo("CLUSTER_BANDWIDTH_OUTLIER", Severity.WARN,
            "Nodes measure a bandwidth far below their peers",
            "A node whose bus bandwidth sits well below the median of identical nodes has a cause: a degraded link, an MTU, a "
                    + "firmware, a thermal limit. Median and MAD are robust: the slow nodes cannot hide by dragging the "
                    + "average down.",
            "busbw per node and label from the bandwidth file; median, 1.4826 × MAD (at least 1 % of the median), and the "
                    + "nodes below median − k × that spread (k = 3 unless --outlier-k)",
            "Compare the slow nodes' rows in the drift table, run `nccl-doctor preflight` and `topo` on them, and measure again "
                    + "to rule out a one-off.");

    static final RuleInfo UNKNOWN = new RuleInfo("CLUSTER_FACTS_UNKNOWN", Severity.INFO,
            "Some nodes could not say what the others could",
            "A fact the other nodes report but these could not (a probe error, a section missing from their snapshot) may "
                    + "hide drift: it is never guessed, so it is listed.",
            "the unknown cells of the drift table where other nodes have a value",
            "Take the snapshots the same way on every node (same verb, same privileges), or look at these nodes directly.");

    static final int NAMED = 5;

    private ClusterChecks() {
    }

    static List<RuleInfo> all() {
        return List.of(DRIFT, OUTLIER, UNKNOWN);
    }

    /** One finding per attribute with a drifting row, in table order. */
    static List<Finding> drift(List<Row> rows, int nodeCount) {
        List<Finding> out = new ArrayList<>();
        for (Facet facet : Facets.ALL) {
            List<Row> drifting = rows.stream().filter(r -> r.attribute().equals(facet.name()) && r.status() == Row.Status.DRIFTS).toList();
            if (drifting.isEmpty()) {
                continue;
            }
            Set<String> odd = new TreeSet<>(NaturalOrder.INSTANCE);
            drifting.forEach(r -> odd.addAll(r.oddNodes()));
            boolean tie = drifting.stream().anyMatch(r -> !r.majority().isValue());
            String title = facet.name() + " differs " + (drifting.size() > 1 ? "on " + drifting.size() + " " + facet.noun() + "s " : "")
                    + (tie ? "with no majority value: " : "on " + odd.size() + " of " + nodeCount + " nodes: ") + names(odd, NAMED);
            List<String> evidence = new ArrayList<>();
            Lines.merge(drifting).forEach(l -> evidence.add(describe(l)));
            out.add(new Finding(DRIFT.code(), DRIFT.severity(), facet.name(), title, evidence, facet.remedy() + " Why: " + facet.why()));
        }
        return out;
    }

    /** "NIC firmware mlx5_0, mlx5_1: majority 28.39.1002 on 997 nodes; 28.36.1010 on n7, n311, n902": every subject, every node. */
    static String describe(Lines l) {
        Row r = l.row();
        StringBuilder b = new StringBuilder(l.attribute()).append(l.subjects().get(0).isEmpty() ? "" : " " + String.join(", ", l.subjects()))
                .append(": ");
        if (r.majority().isValue()) {
            b.append("majority ").append(r.majority().get()).append(" on ").append(count(r.majorityCount()));
        } else {
            b.append(r.majority().reason());
        }
        r.odd().forEach(g -> b.append("; ").append(g.value()).append(" on ").append(String.join(", ", g.nodes())));
        if (r.unknownCount() > 0) {
            b.append("; unknown on ").append(count(r.unknownCount()));
        }
        return b.toString();
    }

    /** One finding per label with nodes below the threshold. */
    static List<Finding> outliers(List<Spread> spreads) {
        List<Finding> out = new ArrayList<>();
        for (Spread s : spreads) {
            if (s.below().isEmpty()) {
                continue;
            }
            List<String> named = s.below().stream().map(x -> x.host() + " (" + gbps(x.busBwGBps()) + ")").toList();
            String title = s.label() + ": " + s.below().size() + " of " + s.nodeCount() + " nodes below median − " + num(s.k()) + " × MAD: "
                    + names(new LinkedHashSet<>(named), NAMED);
            List<String> evidence = new ArrayList<>();
            evidence.add("median " + gbps(s.medianGBps()) + " over " + s.nodeCount() + " nodes; spread " + gbps(s.spreadGBps())
                    + (s.spreadGBps() > s.scaledMadGBps() ? " (the 1 % floor; 1.4826 × MAD is " + gbps(s.scaledMadGBps()) + ")"
                            : " (1.4826 × MAD)") + "; threshold " + gbps(s.thresholdGBps().get()));
            for (Sample x : s.below()) {
                evidence.add(x.host() + ": " + gbps(x.busBwGBps()) + ", " + String.format(Locale.ROOT, "%.1f", 100 * x.busBwGBps() / s.medianGBps())
                        + " % of the median (" + x.source() + ")");
            }
            out.add(new Finding(OUTLIER.code(), OUTLIER.severity(), s.label(), title, evidence, OUTLIER.remedy()));
        }
        return out;
    }

    /** One finding per attribute where some nodes know a value and others do not. */
    static List<Finding> unknown(List<Row> rows) {
        List<Finding> out = new ArrayList<>();
        for (Facet facet : Facets.ALL) {
            List<Row> partial = rows.stream().filter(r -> r.attribute().equals(facet.name()) && r.status() != Row.Status.UNKNOWN
                    && r.unknownCount() > 0).toList();
            if (partial.isEmpty()) {
                continue;
            }
            Set<String> nodes = new TreeSet<>(NaturalOrder.INSTANCE);
            List<String> evidence = new ArrayList<>();
            for (Row r : partial) {
                for (Row.Unknown u : r.unknown()) {
                    nodes.addAll(u.nodes());
                    evidence.add(r.label() + ": unknown on " + String.join(", ", u.nodes()) + " (" + u.reason() + ")");
                }
            }
            out.add(new Finding(UNKNOWN.code(), UNKNOWN.severity(), facet.name(), facet.name() + " unknown on " + count(nodes.size())
                    + ": " + names(nodes, NAMED), evidence, UNKNOWN.remedy()));
        }
        return out;
    }

    /** The first {@code max} names and how many more. */
    static String names(Set<String> names, int max) {
        List<String> l = new ArrayList<>(names);
        return l.size() <= max ? String.join(", ", l) : String.join(", ", l.subList(0, max)) + " and " + (l.size() - max) + " more";
    }

    private static String count(int n) {
        return n + (n == 1 ? " node" : " nodes");
    }

    static String gbps(double v) {
        return String.format(Locale.ROOT, "%.2f GB/s", v);
    }

    private static String num(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.2f", v);
    }
}
