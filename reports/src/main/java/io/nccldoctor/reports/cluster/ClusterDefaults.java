package io.nccldoctor.reports.cluster;

/** The documented defaults of the cluster view, at the end of the chain: flag, then these constants. */
public final class ClusterDefaults {

    /**
     * k in median − k × MAD: three robust standard deviations. Leys et al. (2013, J. Exp. Soc. Psychol. 49:764)
     * call 3 very conservative and 2.5 moderate; a flagged node costs a person's time, so the default is 3.
     */
    public static final double OUTLIER_K = 3.0;

    /** 1 / Φ⁻¹(3/4): makes the MAD a consistent estimate of the standard deviation for normally distributed noise. */
    public static final double MAD_SCALE = 1.4826;

    /**
     * The least spread the threshold assumes, as a fraction of the median. Healthy nodes often repeat a busbw to a
     * few tenths of a percent, so the MAD can be near zero; without a floor, a node 0.2 % below identical
     * neighbours would be an outlier. One percent of the median is below any slowdown worth a ticket.
     */
    public static final double MIN_SPREAD_FRACTION = 0.01;

    /** The fewest nodes per label for a median and a MAD to mean anything. */
    public static final int MIN_NODES = 3;

    private ClusterDefaults() {
    }
}
