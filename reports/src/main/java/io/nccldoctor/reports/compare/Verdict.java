package io.nccldoctor.reports.compare;

/** What an A/B comparison says about one collective, size and environment. */
public enum Verdict {
    /** B's busbw is higher by more than minChange, and not by chance. */
    FASTER,
    /** B's busbw is lower by more than minChange, and not by chance. */
    SLOWER,
    /** Judged, and no change above minChange that the runs can tell from noise. */
    NO_CHANGE,
    /** Not judged: too few runs in an arm, a size only one arm measured, or busbw that rounds to zero. */
    NOT_TESTED;

    /**
     * FASTER when the interval's low end is above 1 + minChange and the U test is significant; SLOWER when its high
     * end is below 1 - minChange and the test is significant; NO_CHANGE otherwise. Significant: p below alpha, or at the
     * floor of what these sample sizes allow when that floor is not below alpha ({@link Stats.UTest#significant}).
     */
    static Verdict of(Stats.Interval interval, Stats.UTest test, CompareThresholds t) {
        boolean significant = test.significant(t.alpha());
        if (significant && interval.low() > 1 + t.minChange()) {
            return FASTER;
        }
        if (significant && interval.high() < 1 - t.minChange()) {
            return SLOWER;
        }
        return NO_CHANGE;
    }
}
