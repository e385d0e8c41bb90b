package io.nccldoctor.reports.tune;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.InputException;
import io.nccldoctor.reports.compare.CompareThresholds;
import io.nccldoctor.pcie.NcclPathTypes;
import io.nccldoctor.reports.compare.Comparison;
import io.nccldoctor.reports.compare.Stats;
import io.nccldoctor.reports.compare.Verdict;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * From measured runs to decisions: per collective, ranks, nodes and size, the setting with the best median busbw
 * among those `compare` calls faster than NCCL's defaults (interval above 1 + minGain, p significant) replaces NCCL's
 * choice, when what it ran is known and differs from what NCCL ran; everything else stays with NCCL. Adjacent switched
 * sizes with the same choice become one row.
 */
public final class Tuner {

    /**
     * @param thresholds compare's thresholds with minChange as the minimum gain
     * @param nodes      the node count where the runs do not record it; null to leave such runs out
     */
    public record Options(CompareThresholds thresholds, Integer nodes) {
    }

    private Tuner() {
    }

    /** @param inputs the inputs as given; @param asEnv add what each measured environment would cost as a global pin */
    public static Tuning tune(List<String> inputs, Options o, String arm, boolean asEnv) {
        return tune(inputs, TuneInputs.read(inputs, arm), o, asEnv);
    }

    /** From runs already read. */
    static Tuning tune(List<String> inputs, TuneInputs.Read read, Options o, boolean asEnv) {
        CompareThresholds t = o.thresholds().withDefaults();
        List<String> leftOut = new ArrayList<>(read.leftOut());
        List<String> notes = new ArrayList<>(read.notes());
        Fact<String> version = version(read.runs());
        List<ShapeRuns> shapes = group(read.runs(), o.nodes(), leftOut);
        List<Tuning.Shape> decided = new ArrayList<>();
        List<Tuning.Lacking> lacking = new ArrayList<>();
        List<TunerRow> rows = new ArrayList<>();
        for (ShapeRuns s : shapes) {
            if (s.defaults.isEmpty()) {
                leftOut.add(s.name() + ": no run with NCCL's defaults (every axis of the matrix needs 'default'): nothing to judge against");
                continue;
            }
            s.settings.values().stream().filter(x -> x.inexpressible().isPresent())
                    .forEach(x -> leftOut.add(s.name() + ", " + x.label() + ": " + x.inexpressible().get()));
            List<Tuning.SizeDecision> sizes = new ArrayList<>();
            for (long size : s.sizes()) {
                sizes.add(decide(s, size, t, lacking, leftOut));
            }
            decided.add(new Tuning.Shape(s.collective, s.ranks, s.nodes, sizes));
            rows.addAll(rows(s, sizes));
        }
        if (version.isValue() && NcclPathTypes.compareVersions(version.get(), "2.24.0") < 0) {
            notes.add("NCCL " + version.get() + " loads no build of the example tuner that reads this file: its CSV reader came with 2.27.5 "
                    + "and exports tuner interface v4 or newer, which NCCL loads from 2.24 (docs/tune.md)");
        }
        List<Tuning.PinCost> pins = asEnv ? PinCosts.of(shapes, t) : List.of();
        return new Tuning(inputs, version, library(read.runs()), new Tuning.Thresholds(t.minChange(), t.alpha(), t.minSamples()), decided, rows, lacking, leftOut,
                notes, pins);
    }

    private static Fact<String> version(List<TuneInputs.Measured> runs) {
        Set<String> versions = new TreeSet<>();
        runs.forEach(m -> m.sweep().ncclVersion().fold(versions::add, r -> false));
        if (versions.size() > 1) {
            throw new InputException("the runs used NCCL " + String.join(", ", versions) + ": a tuner file is for one NCCL version; "
                    + "tune each on its own (--arm NAME picks one arm of an A/B sweep)");
        }
        return versions.isEmpty() ? Fact.absent("no run records its NCCL version") : Fact.of(versions.iterator().next());
    }

    private static Fact<String> library(List<TuneInputs.Measured> runs) {
        Set<String> paths = new TreeSet<>();
        runs.forEach(m -> m.library().fold(paths::add, r -> false));
        return paths.size() == 1 ? Fact.of(paths.iterator().next())
                : Fact.absent(paths.isEmpty() ? "no run records its libnccl" : "the runs loaded " + String.join(" and ", paths));
    }

    /** Runs by collective, ranks and nodes; runs a tuner row cannot address are left out with why. */
    private static List<ShapeRuns> group(List<TuneInputs.Measured> runs, Integer nodesGiven, List<String> leftOut) {
        Map<String, ShapeRuns> shapes = new LinkedHashMap<>();
        Set<String> said = new LinkedHashSet<>();
        for (TuneInputs.Measured m : runs) {
            var s = m.sweep();
            String c = s.collective().orElse("");
            Optional<String> why = !s.collective().isValue() ? Optional.of(s.source() + ": the output does not name its collective")
                    : !TunerNames.COLLECTIVES.contains(c) ? Optional.of(c + ": NCCL's example tuner has no row for it (plugin.c reads any "
                            + "other name as allreduce)")
                    : !s.ranks().isValue() ? Optional.of(s.source() + ": the world size is not recorded")
                    : !s.nodes().isValue() && nodesGiven == null ? Optional.of(s.source() + ": the node count is not recorded ("
                            + s.nodes().reason() + "); give --nodes N") : Optional.empty();
            if (why.isPresent()) {
                if (said.add(why.get())) {
                    leftOut.add(why.get());
                }
                continue;
            }
            int nodes = s.nodes().isValue() ? s.nodes().get() : nodesGiven;
            shapes.computeIfAbsent(c + "|" + s.ranks().get() + "|" + nodes, k -> new ShapeRuns(c, s.ranks().get(), nodes)).add(m);
        }
        List<ShapeRuns> out = new ArrayList<>(shapes.values());
        out.sort(Comparator.comparing((ShapeRuns x) -> TunerNames.COLLECTIVES.indexOf(x.collective)).thenComparingInt(x -> x.ranks)
                .thenComparingInt(x -> x.nodes));
        return out;
    }

    /** One size: NCCL's choice, the candidates judged against it, and the decision. */
    static Tuning.SizeDecision decide(ShapeRuns s, long size, CompareThresholds t, List<Tuning.Lacking> lacking, List<String> leftOut) {
        int nDefault = ShapeRuns.runsAt(s.defaults, size);
        Fact<Choice> ncclChoice = ShapeRuns.logged(s.defaults, size);
        if (nDefault < t.minSamples()) {
            lacking.add(new Tuning.Lacking(s.collective, s.ranks, s.nodes, Setting.DEFAULT, size, nDefault, t.minSamples()));
        }
        List<Tuning.Candidate> judged = new ArrayList<>();
        double[] busBw = s.defaults.stream().flatMap(m -> m.sweep().row(size).stream()).mapToDouble(r -> r.outOfPlace().busBwGBps()).toArray();
        Fact<Double> median = busBw.length == 0 ? Fact.absent("no run with NCCL's defaults at this size") : Fact.of(Stats.median(busBw));
        for (Setting setting : s.settings.values()) {
            List<TuneInputs.Measured> runs = s.runs.get(setting.label());
            int n = ShapeRuns.runsAt(runs, size);
            if (n == 0 || setting.inexpressible().isPresent()) {
                continue;
            }
            long wrong = ShapeRuns.wrongAt(runs, size);
            if (wrong > 0) { // the field report's NCCL_PROTO=LL128 returned 3 wrong elements at 256 MiB: faster, and wrong
                leftOut.add(s.name() + ", " + setting.label() + " at " + TuneText.size(size) + ": " + wrong
                        + " wrong element(s) in its runs; a setting that corrupts data is never a row");
                continue;
            }
            if (n < t.minSamples()) {
                lacking.add(new Tuning.Lacking(s.collective, s.ranks, s.nodes, setting.label(), size, n, t.minSamples()));
                continue;
            }
            Comparison.Row row = s.compared(setting.label(), t).get(size);
            if (row.ratio().isValue() && row.medianB().isValue() && row.verdict() != Verdict.NOT_TESTED) {
                judged.add(new Tuning.Candidate(setting.label(), setting.choice(ShapeRuns.logged(runs, size)), n, row.medianB().get(),
                        row.ratio().get(), row.interval(), row.test().map(u -> u.p()), row.verdict(), row.reason()));
            }
        }
        if (nDefault < t.minSamples()) {
            return new Tuning.SizeDecision(size, Tuning.Decision.NOT_JUDGED, ncclChoice, nDefault, median, Fact.absent("not judged"),
                    nDefault + " run(s) with NCCL's defaults; " + t.minSamples() + " needed");
        }
        return Decisions.pick(s, size, t, ncclChoice, nDefault, median, judged);
    }

    /** Consecutive switched sizes with the same choice, as rows. */
    private static List<TunerRow> rows(ShapeRuns s, List<Tuning.SizeDecision> sizes) {
        List<TunerRow> out = new ArrayList<>();
        Choice open = null;
        long from = 0;
        long to = 0;
        for (Tuning.SizeDecision d : sizes) {
            Choice c = d.decision() == Tuning.Decision.SWITCH ? d.best().get().choice().get() : null;
            if (open != null && !open.equals(c)) {
                out.add(new TunerRow(s.collective, from, to, open.algorithm(), open.protocol(), open.channels(), s.nodes, s.ranks));
                open = null;
            }
            if (c != null) {
                if (open == null) {
                    open = c;
                    from = d.sizeBytes();
                }
                to = d.sizeBytes();
            }
        }
        if (open != null) {
            out.add(new TunerRow(s.collective, from, to, open.algorithm(), open.protocol(), open.channels(), s.nodes, s.ranks));
        }
        return out;
    }
}
