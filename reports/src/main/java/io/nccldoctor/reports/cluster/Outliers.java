package io.nccldoctor.reports.cluster;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Stats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Slow nodes by a robust rule: below median − k × spread, where the spread is the scaled median absolute deviation
 * (floored at a fraction of the median). Median and MAD ignore the outliers they look for, which a mean and a
 * standard deviation do not: two nodes at half speed pull a mean down and widen a standard deviation enough to hide
 * themselves. Only the slow side is flagged; a node faster than its peers is not a fault to chase.
 */
final class Outliers {

    private Outliers() {
    }

    /** One spread per label, labels in order of first appearance. */
    static List<Spread> of(List<Sample> samples, double k) {
        Map<String, List<Sample>> byLabel = new LinkedHashMap<>();
        samples.forEach(s -> byLabel.computeIfAbsent(s.label(), x -> new ArrayList<>()).add(s));
        List<Spread> out = new ArrayList<>();
        byLabel.forEach((label, list) -> out.add(spread(label, list, k)));
        return out;
    }

    static Spread spread(String label, List<Sample> samples, double k) {
        double[] v = samples.stream().mapToDouble(Sample::busBwGBps).toArray();
        double median = median(v);
        double mad = ClusterDefaults.MAD_SCALE * median(Arrays.stream(v).map(x -> Math.abs(x - median)).toArray());
        double spread = Math.max(mad, ClusterDefaults.MIN_SPREAD_FRACTION * median);
        if (samples.size() < ClusterDefaults.MIN_NODES) {
            return new Spread(label, samples.size(), median, mad, spread, k, Fact.absent("measured on " + samples.size()
                    + (samples.size() == 1 ? " node" : " nodes") + "; a median and a MAD need " + ClusterDefaults.MIN_NODES), List.of());
        }
        double threshold = median - k * spread;
        List<Sample> below = samples.stream().filter(s -> s.busBwGBps() < threshold)
                .sorted(Comparator.comparingDouble(Sample::busBwGBps).thenComparing(Sample::host, NaturalOrder.INSTANCE)).toList();
        return new Spread(label, samples.size(), median, mad, spread, k, Fact.of(threshold), below);
    }

    /** The middle value, or the mean of the two middle values. */
    static double median(double[] values) {
        return Stats.median(values);
    }
}
