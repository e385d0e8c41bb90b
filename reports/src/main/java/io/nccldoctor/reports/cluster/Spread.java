package io.nccldoctor.reports.cluster;

import io.nccldoctor.core.Fact;
import java.util.List;

/**
 * The bandwidth of one label across the nodes that measured it, and the nodes below the outlier threshold.
 *
 * @param nodeCount      how many nodes measured the label
 * @param scaledMadGBps  1.4826 × the median absolute deviation: a robust standard deviation
 * @param spreadGBps     the spread the threshold uses: the scaled MAD, or the floor of
 *                       {@link ClusterDefaults#MIN_SPREAD_FRACTION} of the median when the MAD is smaller
 * @param thresholdGBps  median − k × spread; absent when too few nodes measured the label
 * @param below          the nodes under the threshold, slowest first
 */
public record Spread(String label, int nodeCount, double medianGBps, double scaledMadGBps, double spreadGBps, double k,
                     Fact<Double> thresholdGBps, List<Sample> below) {

    public Spread {
        below = List.copyOf(below);
    }
}
