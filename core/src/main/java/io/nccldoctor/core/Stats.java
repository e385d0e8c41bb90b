package io.nccldoctor.core;

/** Small statistics that more than one module needs. */
public final class Stats {

    private Stats() {
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
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        double mean = sum / values.length;
        if (mean == 0) {
            return Double.NaN;
        }
        double squares = 0;
        for (double v : values) {
            squares += (v - mean) * (v - mean);
        }
        return Math.sqrt(squares / values.length) / mean;
    }
}
