package io.nccldoctor.reports;

/**
 * configs/rules.yaml {@code thresholds.results}: what the pattern detectors over measured results call constant,
 * far below, unstable. Each unset key takes its default; every fraction is of the reference named beside it.
 *
 * @param constantMinSizes    consecutive sizes a plateau must span to count as constant
 * @param constantBand        their spread, (max - min) / median, at most this
 * @param constantSmallBytes  ... already flat at this size or below, where real sweeps still rise (unless the plateau sits
 *                            within linkTolerance of the narrowest ceiling: that is LINK_LIMITED)
 * @param linkTolerance       a plateau within this fraction of a link's ceiling sits at that link
 * @param cliffFraction       a misaligned row below this fraction of its aligned neighbours (or nccl-tests) is a cliff
 * @param protocolFraction    a collective below this fraction of allreduce's busbw on the same ranks and sizes
 * @param protocolLift        and a pinned NCCL_PROTO that multiplies it by at least this
 * @param farBelowFraction    a sweep whose peak busbw is below this fraction of the narrowest ceiling
 * @param divergenceFraction  in-place and out-of-place busbw differing by more than this fraction of the larger
 * @param stableCv            repeated sweeps whose busbw at one size scatters with a CV above this are unstable
 * @param minBytes            the detectors of divergence, instability and protocol compare sizes from here up
 *                            (below, latency noise dominates)
 * @param linkCv              per-link traffic with a CV above this is imbalanced
 * @param baselineFarFraction a run below this fraction of its published baseline is far below it (BELOW_BASELINE)
 * @param peerFraction        a run below this fraction of the best run of the same hardware at the sizes they share
 *                            (RUN_BELOW_PEERS)
 * @param ceilingTolerance    a busbw above a physical bound by more than this fraction cannot be true
 *                            (ABOVE_PHYSICAL_CEILING): nccl-tests prints two decimals and links run a little above spec
 */
public record ResultThresholds(Integer constantMinSizes, Double constantBand, Long constantSmallBytes,
                               Double linkTolerance, Double cliffFraction, Double protocolFraction, Double protocolLift,
                               Double farBelowFraction, Double divergenceFraction, Double stableCv, Long minBytes, Double linkCv,
                               Double baselineFarFraction, Double peerFraction, Double ceilingTolerance) {

    public static final ResultThresholds DEFAULTS = new ResultThresholds(6, 0.05, 65536L, 0.10, 0.5, 0.5, 2.0, 0.5, 0.25, 0.10,
            1048576L, 0.20, 0.5, 0.8, 0.05);

    /** The thresholds of the pattern detectors alone (the judgement keys unset, taking their defaults). */
    public ResultThresholds(Integer constantMinSizes, Double constantBand, Long constantSmallBytes, Double linkTolerance,
                            Double cliffFraction, Double protocolFraction, Double protocolLift, Double farBelowFraction,
                            Double divergenceFraction, Double stableCv, Long minBytes, Double linkCv) {
        this(constantMinSizes, constantBand, constantSmallBytes, linkTolerance, cliffFraction, protocolFraction, protocolLift,
                farBelowFraction, divergenceFraction, stableCv, minBytes, linkCv, null, null, null);
    }

    /** Unset keys from {@link #DEFAULTS}. */
    public ResultThresholds withDefaults() {
        ResultThresholds d = DEFAULTS;
        return new ResultThresholds(or(constantMinSizes, d.constantMinSizes), or(constantBand, d.constantBand),
                or(constantSmallBytes, d.constantSmallBytes), or(linkTolerance, d.linkTolerance),
                or(cliffFraction, d.cliffFraction), or(protocolFraction, d.protocolFraction), or(protocolLift, d.protocolLift),
                or(farBelowFraction, d.farBelowFraction), or(divergenceFraction, d.divergenceFraction), or(stableCv, d.stableCv),
                or(minBytes, d.minBytes), or(linkCv, d.linkCv), or(baselineFarFraction, d.baselineFarFraction),
                or(peerFraction, d.peerFraction), or(ceilingTolerance, d.ceilingTolerance));
    }

    private static <T> T or(T v, T d) {
        return v == null ? d : v;
    }
}
