package io.nccldoctor.reports.compare;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.reports.results.SizeCurve;
import io.nccldoctor.reports.results.Sweep;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The samples of each key: every run's out-of-place busbw at each size any run of its collective and environment
 * measured. A run measured the size, or it is read between the run's own two neighbouring sizes on a log2(size) axis
 * when they are at most maxFactor apart ({@link SizeCurve}): runs on different size grids (1, 3, 9 GiB against 32 MiB …
 * 8 GiB by x3) are compared at each other's sizes, and how many samples were read so is kept per key and arm.
 */
final class Samples {

    private final Map<Comparison.Key, List<List<Double>>> values = new TreeMap<>(Comparison.Key.ORDER);
    private final Map<Comparison.Key, int[]> interpolated = new LinkedHashMap<>();

    private Samples() {
    }

    static Samples of(List<Sweep> a, List<Sweep> b, double maxFactor) {
        Samples out = new Samples();
        Map<List<String>, TreeSet<Long>> sizes = new LinkedHashMap<>();
        for (List<Sweep> arm : List.of(a, b)) {
            for (Sweep s : arm) {
                TreeSet<Long> grid = sizes.computeIfAbsent(group(s), k -> new TreeSet<>());
                s.rows().forEach(r -> grid.add(r.sizeBytes()));
            }
        }
        out.collect(a, 0, sizes, maxFactor);
        out.collect(b, 1, sizes, maxFactor);
        return out;
    }

    Map<Comparison.Key, List<List<Double>>> values() {
        return values;
    }

    /** How many samples of an arm at this key were interpolated. */
    int interpolated(Comparison.Key k, int arm) {
        int[] n = interpolated.get(k);
        return n == null ? 0 : n[arm];
    }

    private void collect(List<Sweep> sweeps, int arm, Map<List<String>, TreeSet<Long>> sizes, double maxFactor) {
        for (Sweep s : sweeps) {
            List<String> g = group(s);
            SizeCurve curve = SizeCurve.of(s.rows());
            Map<Long, Double> measured = new LinkedHashMap<>();
            for (NcclTestsOutput.Row r : s.rows()) {
                measured.putIfAbsent(r.sizeBytes(), r.outOfPlace().busBwGBps()); // 0 B rows too: they are measured
            }
            for (long size : sizes.get(g)) {
                Comparison.Key k = new Comparison.Key(g.get(0), g.get(1), size);
                Double v = measured.get(size);
                Optional<SizeCurve.Point> p = v != null ? Optional.empty() : curve.at(size, maxFactor);
                if (v == null && p.isEmpty()) {
                    continue;
                }
                values.computeIfAbsent(k, x -> List.of(new ArrayList<>(), new ArrayList<>())).get(arm).add(v != null ? v : round(p.get()));
                if (v == null) {
                    interpolated.computeIfAbsent(k, x -> new int[2])[arm]++;
                }
            }
        }
    }

    /** Interpolated busbw to nccl-tests' two decimals, like every measured sample (and so the same rounded-zero rule). */
    private static double round(SizeCurve.Point p) {
        return Math.round(p.busBwGBps() * 100) / 100.0;
    }

    private static List<String> group(Sweep s) {
        return List.of(s.collective().orElse("unknown"), Comparison.envLabel(s.env()));
    }
}
