package io.nccldoctor.reports.cluster;

import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Snapshot;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the cluster view reads: the nodes (sorted by host name, digits as numbers), the measured bandwidths, the inputs
 * as given, and notes on what the inputs held besides (files a folder holds that are not inputs).
 */
public record ClusterData(List<String> inputs, List<NodeReading> nodes, List<Sample> bandwidth, List<String> notes) {

    /** Sorts the nodes; one host twice, or one host and label measured twice, is an input error naming both places. */
    public ClusterData {
        inputs = List.copyOf(inputs);
        List<NodeReading> sorted = new ArrayList<>(nodes);
        sorted.sort(Comparator.comparing(NodeReading::host, NaturalOrder.INSTANCE));
        for (int i = 1; i < sorted.size(); i++) {
            if (sorted.get(i).host().equals(sorted.get(i - 1).host())) {
                throw new InputException("host " + sorted.get(i).host() + " appears twice: in " + sorted.get(i - 1).node().input()
                        + " and " + sorted.get(i).node().input() + "; give one snapshot per node");
            }
        }
        nodes = List.copyOf(sorted);
        Map<String, Sample> seen = new HashMap<>();
        for (Sample s : bandwidth) {
            Sample before = seen.put(s.host() + "\n" + s.label(), s);
            if (before != null) {
                throw new InputException(s.source() + ": host " + s.host() + " measured '" + s.label() + "' already at " + before.source()
                        + "; give one number per host and label");
            }
        }
        bandwidth = List.copyOf(bandwidth);
        notes = List.copyOf(notes);
    }

    /** Snapshots held in memory (the label "memory" stands for their input). */
    public static ClusterData of(List<Snapshot> snapshots, List<Sample> bandwidth) {
        return new ClusterData(List.of(), snapshots.stream().map(s -> NodeReading.of(s, "memory")).toList(), bandwidth, List.of());
    }
}
