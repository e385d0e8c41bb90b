package io.nccldoctor.reports.compare;

/**
 * configs/rules.yaml {@code thresholds.compare}: when `compare` calls a change real. Each unset key takes its default.
 *
 * @param minChange  a ratio B/A whose 95 % interval does not clear 1 ± this is "no detectable change", however
 *                   significant: 3 % is about the run-to-run spread of busbw on a quiet cluster
 * @param alpha      the two-sided p-value of the Mann-Whitney U test must be below this
 * @param bootstrap  resamples for the percentile interval of the ratio of medians
 * @param seed       of the resampling, fixed so that the same inputs give the same interval every run
 * @param minSamples runs per arm (per collective, size and environment) below which there is no interval, no test and
 *                   no verdict, only the ratio
 * @param interpolateMaxFactor a size one run did not measure is read between its two neighbours in log2(size) when they
 *                   are at most this factor apart (x2 and x3 grids; not across a table's elided rows)
 */
public record CompareThresholds(Double minChange, Double alpha, Integer bootstrap, Long seed, Integer minSamples,
                                Double interpolateMaxFactor) {

    public static final CompareThresholds DEFAULTS = new CompareThresholds(0.03, 0.05, 2000, 2026L, 3, 4.0);

    /** Without the interpolation key (it takes its default). */
    public CompareThresholds(Double minChange, Double alpha, Integer bootstrap, Long seed, Integer minSamples) {
        this(minChange, alpha, bootstrap, seed, minSamples, null);
    }

    public CompareThresholds {
        if (minChange != null && !(minChange >= 0 && minChange < 1)) {
            throw new IllegalArgumentException("thresholds.compare.minChange is a fraction from 0 to below 1, got " + minChange);
        }
        if (alpha != null && !(alpha > 0 && alpha < 1)) {
            throw new IllegalArgumentException("thresholds.compare.alpha is a probability between 0 and 1, got " + alpha);
        }
        if (bootstrap != null && bootstrap < 100) {
            // 2.5 % of fewer than 100 resamples is less than 3 of them: the interval's ends would be single draws.
            throw new IllegalArgumentException("thresholds.compare.bootstrap needs at least 100 resamples, got " + bootstrap);
        }
        if (interpolateMaxFactor != null && !(interpolateMaxFactor >= 1)) {
            throw new IllegalArgumentException("thresholds.compare.interpolateMaxFactor is a factor of 1 or more (1: never interpolate), got "
                    + interpolateMaxFactor);
        }
        if (minSamples != null && minSamples < 2) {
            throw new IllegalArgumentException("thresholds.compare.minSamples needs at least 2 runs per arm, got " + minSamples);
        }
    }

    /** Unset keys from {@link #DEFAULTS}. */
    public CompareThresholds withDefaults() {
        CompareThresholds d = DEFAULTS;
        return new CompareThresholds(or(minChange, d.minChange), or(alpha, d.alpha), or(bootstrap, d.bootstrap), or(seed, d.seed),
                or(minSamples, d.minSamples), or(interpolateMaxFactor, d.interpolateMaxFactor));
    }

    private static <T> T or(T v, T d) {
        return v == null ? d : v;
    }
}
