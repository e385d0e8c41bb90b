package io.nccldoctor.reports.cluster;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonValue;
import io.nccldoctor.core.Fact;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One line of the drift table: an attribute (of one subject, where it has subjects), every node's value grouped by
 * value, and the nodes that could not say, grouped by reason. Every node of the cluster is in exactly one group.
 *
 * @param subject  the HCA or port ("mlx5_0", "mlx5_0/1"); "" for a node-wide attribute
 * @param majority the value more nodes hold than any other; absent, with why, on a tie or when no node knows
 * @param values   known values, the most common first (ties in natural order of the value)
 * @param unknown  the nodes without a value, by reason
 */
public record Row(String attribute, String subject, Status status, Fact<String> majority, List<Group> values, List<Unknown> unknown) {

    public enum Status {
        /** Every node that knows the value has the same one. */
        AGREES,
        /** Two or more values. */
        DRIFTS,
        /** No node knows it. */
        UNKNOWN;

        @JsonValue
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public record Group(String value, List<String> nodes) {
        public Group {
            nodes = List.copyOf(nodes);
        }
    }

    public record Unknown(String reason, List<String> nodes) {
        public Unknown {
            nodes = List.copyOf(nodes);
        }
    }

    public Row {
        values = List.copyOf(values);
        unknown = List.copyOf(unknown);
    }

    /** "NIC firmware mlx5_0", or just the attribute. */
    @JsonIgnore
    public String label() {
        return subject.isEmpty() ? attribute : attribute + " " + subject;
    }

    /** The groups off the majority: all of them when there is no majority. */
    @JsonIgnore
    public List<Group> odd() {
        return majority.isValue() ? values.subList(1, values.size()) : values;
    }

    @JsonIgnore
    public List<String> oddNodes() {
        List<String> out = new ArrayList<>();
        odd().forEach(g -> out.addAll(g.nodes()));
        return out;
    }

    @JsonIgnore
    public int unknownCount() {
        return unknown.stream().mapToInt(u -> u.nodes().size()).sum();
    }

    @JsonIgnore
    public int majorityCount() {
        return majority.isValue() ? values.get(0).nodes().size() : 0;
    }
}
