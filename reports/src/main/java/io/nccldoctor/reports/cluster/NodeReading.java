package io.nccldoctor.reports.cluster;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Snapshot;
import java.util.List;
import java.util.Map;

/**
 * One node as the drift table reads it: where it came from, and each attribute's cells (in {@link Facets#ALL}
 * order). Small on purpose: a thousand snapshots are read one at a time into these and then dropped.
 */
public record NodeReading(ClusterReport.Node node, List<Fact<Map<String, Cell>>> facets) {

    public NodeReading {
        facets = List.copyOf(facets);
    }

    public static NodeReading of(Snapshot s, String input) {
        return of(new ClusterReport.Node(s.hostName(), input, s.createdAt(), s.source()), NodeView.of(s));
    }

    static NodeReading of(ClusterReport.Node node, NodeView view) {
        return new NodeReading(node, Facets.ALL.stream().map(f -> f.reader().apply(view)).toList());
    }

    public String host() {
        return node.host();
    }
}
