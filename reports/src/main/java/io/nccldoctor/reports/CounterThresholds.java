package io.nccldoctor.reports;

/**
 * configs/rules.yaml {@code thresholds.counters}: when the counter deltas of a run (`nccl-doctor counters --during`)
 * become a finding. Each unset key takes its default. Rules whose every event is a fault (pause storms, ACK
 * timeouts, drops, link errors) have no threshold: one is already one too many on a lossless fabric.
 *
 * @param pauseFractionWarn         a PFC priority (or 802.3x global pause) paused for this fraction of the interval,
 *                                  received or sent
 * @param pauseFractionError        ... and an error from this fraction
 * @param pausesPerSecond           without pause-duration counters, this many pause frames per second
 * @param ecnMinMarked              DCQCN is judged on a port once it saw this many ECN-marked packets
 * @param outOfSequencePerMillion   out-of-sequence packets per million received
 * @param retransmissionsPerMillion NAK sequence errors, adaptive retransmissions and RNR retries per million sent
 * @param railCv                    Tx bytes across the ports with a coefficient of variation above this
 * @param railMinBytes              ... once the ports sent at least this many bytes together (idle noise is no imbalance)
 * @param minWindowSeconds          a window shorter than this gives no rate (COUNTER_INCONSISTENT): drivers refresh their
 *                                  statistics periodically (bnxt_en: every 1,000,000 µs by default)
 * @param lineRateTolerance         bytes above line rate x window by more than this fraction cannot be true
 */
public record CounterThresholds(Double pauseFractionWarn, Double pauseFractionError, Long pausesPerSecond, Long ecnMinMarked,
                                Double outOfSequencePerMillion, Double retransmissionsPerMillion, Double railCv,
                                Long railMinBytes, Double minWindowSeconds, Double lineRateTolerance) {

    /**
     * 2 % paused is already a 2 % slower collective on that rail; 20 % is a fabric that stands still a fifth of the
     * time. 10 per million (1e-5) is the loss rate below which RDMA throughput is commonly said to hold. A CV of 0.2 is
     * the imbalance threshold already used for per-link traffic (thresholds.results.linkCv).
     */
    public static final CounterThresholds DEFAULTS = new CounterThresholds(0.02, 0.20, 1000L, 1000L, 10.0, 10.0, 0.20,
            1L << 30, 1.0, 0.05);

    /** The thresholds of the fabric rules alone (the plausibility keys unset, taking their defaults). */
    public CounterThresholds(Double pauseFractionWarn, Double pauseFractionError, Long pausesPerSecond, Long ecnMinMarked,
                             Double outOfSequencePerMillion, Double retransmissionsPerMillion, Double railCv, Long railMinBytes) {
        this(pauseFractionWarn, pauseFractionError, pausesPerSecond, ecnMinMarked, outOfSequencePerMillion, retransmissionsPerMillion,
                railCv, railMinBytes, null, null);
    }

    /** Unset keys from {@link #DEFAULTS}. */
    public CounterThresholds withDefaults() {
        CounterThresholds d = DEFAULTS;
        return new CounterThresholds(or(pauseFractionWarn, d.pauseFractionWarn), or(pauseFractionError, d.pauseFractionError),
                or(pausesPerSecond, d.pausesPerSecond), or(ecnMinMarked, d.ecnMinMarked),
                or(outOfSequencePerMillion, d.outOfSequencePerMillion), or(retransmissionsPerMillion, d.retransmissionsPerMillion),
                or(railCv, d.railCv), or(railMinBytes, d.railMinBytes), or(minWindowSeconds, d.minWindowSeconds),
                or(lineRateTolerance, d.lineRateTolerance));
    }

    private static <T> T or(T v, T d) {
        return v == null ? d : v;
    }
}
