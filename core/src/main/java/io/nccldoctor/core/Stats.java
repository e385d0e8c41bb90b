package io.nccldoctor.core;

import org.apache.commons.math3.stat.descriptive.moment.Mean;
import org.apache.commons.math3.stat.descriptive.moment.StandardDeviation;
import org.apache.commons.math3.stat.descriptive.rank.Median;
import org.apache.commons.math3.stat.descriptive.rank.Percentile;
import org.apache.commons.math3.stat.descriptive.rank.Percentile.EstimationType;

/** Small statistics that more than one module needs, computed by Commons Math. */
public final class Stats {

    private Stats() {
    }

    /**
     * The middle value, or the mean of the two middle values. NaN for no values, and NaN when a value is NaN: Commons
     * Math would drop it silently, and a median over a cell that is not a number is not one either.
     */
    public static double median(double[] values) {
        return hasNaN(values) ? Double.NaN : new Median().evaluate(values);
    }

    /**
     * The nearest-rank percentile: the value at rank ceil(percent / 100 × n), 1-based, of the sorted values (Commons
     * Math's estimation R-1), always one of the values; p99 of 100 timings is the 99th smallest. NaN for no values or
     * when a value is NaN.
     *
     * @param percent in (0, 100]
     */
    public static double percentile(double[] values, double percent) {
        if (hasNaN(values)) {
            return Double.NaN;
        }
        return new Percentile(percent).withEstimationType(EstimationType.R_1).evaluate(values);
    }

    /**
     * Coefficient of variation: population standard deviation over mean (divide by n, not n - 1: the ports or links
     * are the whole population, not a sample). The load-balance measure of the Japanese field report: 25, 25, 25, 25 GB
     * give 0; 70, 20, 5, 5 GB give 1.07. NaN for no values or a zero mean, where it has no meaning.
     */
    public static double cv(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double mean = new Mean().evaluate(values);
        if (mean == 0) {
            return Double.NaN;
        }
        return new StandardDeviation(false).evaluate(values, mean) / mean;
    }

    private static boolean hasNaN(double[] values) {
        for (double v : values) {
            if (Double.isNaN(v)) {
                return true;
            }
        }
        return false;
    }
}
