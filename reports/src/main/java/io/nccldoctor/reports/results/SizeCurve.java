package io.nccldoctor.reports.results;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One sweep's out-of-place busbw by message size, read between its sizes on a log2(size) axis: two runs measured on
 * different grids (1, 3, 9 GiB against 32 MiB … 8 GiB by x3) are compared at each other's sizes, a size that one of
 * them skipped taking the straight line in log2(size) between its two neighbours. Busbw rises with size in steps that
 * are even on that axis, which is why nccl-tests steps by a factor. Neighbours further apart than {@code maxFactor}
 * are not bridged: between 8 B and 8 GiB a straight line says nothing.
 */
public final class SizeCurve {

    private final TreeMap<Long, Double> points = new TreeMap<>();

    private SizeCurve() {
    }

    /** Rows above 0 B; the first row of a size counts (a repeated size is a second table, not a sample). */
    public static SizeCurve of(List<NcclTestsOutput.Row> rows) {
        SizeCurve c = new SizeCurve();
        rows.stream().filter(r -> r.sizeBytes() > 0 && Double.isFinite(r.outOfPlace().busBwGBps()))
                .forEach(r -> c.points.putIfAbsent(r.sizeBytes(), r.outOfPlace().busBwGBps()));
        return c;
    }

    /**
     * A value at a size: measured, or interpolated.
     *
     * @param from the two measured sizes it lies between; empty when measured
     */
    public record Point(long sizeBytes, double busBwGBps, boolean interpolated, List<Long> from) {
    }

    public TreeSet<Long> sizes() {
        return new TreeSet<>(points.keySet());
    }

    /** The value at {@code size}: measured, or between two measured sizes at most {@code maxFactor} apart. */
    public Optional<Point> at(long size, double maxFactor) {
        Double exact = points.get(size);
        if (exact != null) {
            return Optional.of(new Point(size, exact, false, List.of()));
        }
        var lo = points.lowerEntry(size);
        var hi = points.higherEntry(size);
        if (lo == null || hi == null || (double) hi.getKey() / lo.getKey() > maxFactor) {
            return Optional.empty();
        }
        double f = (log2(size) - log2(lo.getKey())) / (log2(hi.getKey()) - log2(lo.getKey()));
        double v = lo.getValue() + (hi.getValue() - lo.getValue()) * f;
        return Optional.of(new Point(size, v, true, List.of(lo.getKey(), hi.getKey())));
    }

    /** Sizes where both curves have a value, measured or interpolated, ascending: pairs (this, other). */
    public List<Point[]> shared(SizeCurve other, double maxFactor) {
        TreeSet<Long> all = sizes();
        all.addAll(other.sizes());
        List<Point[]> out = new ArrayList<>();
        for (long s : all) {
            Optional<Point> a = at(s, maxFactor);
            Optional<Point> b = other.at(s, maxFactor);
            if (a.isPresent() && b.isPresent()) {
                out.add(new Point[] {a.get(), b.get()});
            }
        }
        return out;
    }

    private static double log2(long bytes) {
        return Math.log(bytes) / Math.log(2);
    }
}
