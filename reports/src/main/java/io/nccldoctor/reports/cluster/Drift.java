package io.nccldoctor.reports.cluster;

import io.nccldoctor.core.Fact;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds the drift table: for every attribute and subject, the nodes grouped by value. A subject (an HCA, a port)
 * gets a row when at least half of the nodes have it; rarer ones (a node whose devices were renamed) are left out with
 * a note, because the "RDMA devices" row already names that node and a row of unknowns would say nothing more.
 */
final class Drift {

    record Table(List<Row> rows, List<String> notes) {
    }

    private Drift() {
    }

    static Table of(List<NodeReading> nodes) {
        List<Row> rows = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (int i = 0; i < Facets.ALL.size(); i++) {
            Facet facet = Facets.ALL.get(i);
            Map<String, List<String>> holders = new TreeMap<>(NaturalOrder.INSTANCE);
            for (NodeReading n : nodes) {
                Fact<Map<String, Cell>> f = n.facets().get(i);
                if (f.isValue()) {
                    f.get().keySet().forEach(s -> holders.computeIfAbsent(s, k -> new ArrayList<>()).add(n.host()));
                }
            }
            for (Map.Entry<String, List<String>> e : holders.entrySet()) {
                if (2 * e.getValue().size() >= nodes.size()) {
                    rows.add(row(facet, i, e.getKey(), nodes));
                } else {
                    notes.add(facet.name() + " " + e.getKey() + ": no row, present on " + e.getValue().size() + " of " + nodes.size()
                            + " nodes (" + String.join(", ", e.getValue()) + ")");
                }
            }
        }
        return new Table(rows, notes);
    }

    private static Row row(Facet facet, int index, String subject, List<NodeReading> nodes) {
        Map<String, List<String>> values = new LinkedHashMap<>();
        Map<String, List<String>> unknown = new LinkedHashMap<>();
        for (NodeReading n : nodes) {
            Fact<Map<String, Cell>> f = n.facets().get(index);
            Cell c = !f.isValue() ? Cell.unknown(f.reason())
                    : f.get().containsKey(subject) ? f.get().get(subject) : Cell.unknown(facet.missing(subject));
            (c.known() ? values.computeIfAbsent(c.value(), k -> new ArrayList<>())
                    : unknown.computeIfAbsent(c.unknown(), k -> new ArrayList<>())).add(n.host());
        }
        List<Row.Group> groups = new ArrayList<>();
        values.forEach((v, hosts) -> groups.add(new Row.Group(v, hosts)));
        groups.sort(Comparator.<Row.Group>comparingInt(g -> -g.nodes().size()).thenComparing(Row.Group::value, NaturalOrder.INSTANCE));
        List<Row.Unknown> missing = new ArrayList<>();
        unknown.forEach((r, hosts) -> missing.add(new Row.Unknown(r, hosts)));
        missing.sort(Comparator.<Row.Unknown>comparingInt(u -> -u.nodes().size()).thenComparing(Row.Unknown::reason));
        Row.Status status = groups.isEmpty() ? Row.Status.UNKNOWN : groups.size() == 1 ? Row.Status.AGREES : Row.Status.DRIFTS;
        return new Row(facet.name(), subject, status, majority(groups), groups, missing);
    }

    private static Fact<String> majority(List<Row.Group> groups) {
        if (groups.isEmpty()) {
            return Fact.absent("no node knows it");
        }
        int top = groups.get(0).nodes().size();
        if (groups.size() == 1 || groups.get(1).nodes().size() < top) {
            return Fact.of(groups.get(0).value());
        }
        long tied = groups.stream().filter(g -> g.nodes().size() == top).count();
        return Fact.absent("no majority: " + tied + " values on " + top + (top == 1 ? " node" : " nodes") + " each");
    }
}
