package io.nccldoctor.reports.tune;

import io.nccldoctor.core.Fact;
import io.nccldoctor.reports.compare.CompareThresholds;
import io.nccldoctor.reports.compare.Comparison;
import io.nccldoctor.reports.results.Sweep;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The runs of one collective on one number of ranks and nodes, by setting: NCCL's defaults, the baseline, and every
 * other environment, each compared with the defaults as `compare` compares two arms (its public
 * {@link Comparison#of}: the median ratio of out-of-place busbw, the bootstrap interval, the Mann-Whitney test).
 */
final class ShapeRuns {

    final String collective;
    final int ranks;
    final int nodes;
    final List<TuneInputs.Measured> defaults = new ArrayList<>();
    final Map<String, Setting> settings = new TreeMap<>();
    final Map<String, List<TuneInputs.Measured>> runs = new TreeMap<>();
    private final Map<String, Map<Long, Comparison.Row>> compared = new LinkedHashMap<>();

    ShapeRuns(String collective, int ranks, int nodes) {
        this.collective = collective;
        this.ranks = ranks;
        this.nodes = nodes;
    }

    void add(TuneInputs.Measured m) {
        Setting s = Setting.of(m.sweep().env());
        if (s.isDefault()) {
            defaults.add(m);
        } else {
            settings.putIfAbsent(s.label(), s);
            runs.computeIfAbsent(s.label(), k -> new ArrayList<>()).add(m);
        }
    }

    /** "allreduce on 2 ranks, 1 node". */
    String name() {
        return collective + " on " + ranks + " ranks, " + nodes + (nodes == 1 ? " node" : " nodes");
    }

    /** The sizes NCCL's defaults were measured at, ascending: the sizes a decision is made for. */
    List<Long> sizes() {
        TreeSet<Long> s = new TreeSet<>();
        defaults.forEach(m -> m.sweep().rows().forEach(r -> s.add(r.sizeBytes())));
        return List.copyOf(s);
    }

    static int runsAt(List<TuneInputs.Measured> runs, long size) {
        return (int) runs.stream().filter(m -> m.sweep().row(size).isPresent()).count();
    }

    /** Wrong elements the runs counted at this size, out-of-place and in-place (a validated run; 0 when not checked). */
    static long wrongAt(List<TuneInputs.Measured> runs, long size) {
        long wrong = 0;
        for (TuneInputs.Measured m : runs) {
            for (var row : m.sweep().row(size).stream().toList()) {
                wrong += row.outOfPlace().wrong().orElse(0L) + row.inPlace().map(p -> p.wrong().orElse(0L)).orElse(0L);
            }
        }
        return wrong;
    }

    /** What all runs that measured this size logged, when they agree; else why not known. */
    static Fact<Choice> logged(List<TuneInputs.Measured> runs, long size) {
        Fact<Choice> first = null;
        for (TuneInputs.Measured m : runs) {
            Fact<Choice> c = m.chosen().getOrDefault(size, Fact.absent("not measured"));
            if (m.sweep().row(size).isEmpty()) {
                continue;
            }
            if (!c.isValue()) {
                return c;
            }
            if (first != null && !first.get().sameRun(c.get())) {
                return Fact.absent("the runs logged " + first.get().label() + " and " + c.get().label());
            }
            first = first == null ? c : first;
        }
        return first == null ? Fact.absent("no run at this size") : first;
    }

    /** The setting's rows against the defaults, per size (computed once). */
    Map<Long, Comparison.Row> compared(String setting, CompareThresholds t) {
        return compared.computeIfAbsent(setting, k -> {
            Comparison c = Comparison.of(Setting.DEFAULT, sweeps(defaults), k, sweeps(runs.get(k)), t);
            Map<Long, Comparison.Row> bySize = new TreeMap<>();
            c.rows().forEach(r -> bySize.put(r.sizeBytes(), r));
            return bySize;
        });
    }

    /** The runs as sweeps of one environment, so that compare puts both arms' samples under one key. */
    private static List<Sweep> sweeps(List<TuneInputs.Measured> runs) {
        return runs.stream().map(TuneInputs.Measured::sweep).map(s -> new Sweep(s.label(), s.source(), s.tool(), s.collective(), s.ranks(),
                s.nodes(), Map.of(), s.ncclVersion(), s.rows(), s.aligned(), s.repeat())).toList();
    }
}
