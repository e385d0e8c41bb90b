package io.nccldoctor.reports.compare;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.apache.commons.math3.special.Erf;
import org.apache.commons.math3.stat.descriptive.rank.Median;
import org.apache.commons.math3.stat.descriptive.rank.Percentile;
import org.apache.commons.math3.stat.descriptive.rank.Percentile.EstimationType;

/**
 * The statistics of an A/B comparison, as pure functions of the samples (busbw of repeated runs, GB/s).
 *
 * <p>Change: the ratio of medians B/A with a bootstrap percentile interval. Each arm is resampled on its own (the runs
 * of A and of B are unpaired), so the interval needs no assumption about the shape of the scatter.
 *
 * <p>Whether it is real: the two-sided Mann-Whitney U (Wilcoxon rank-sum) test, exact while both arms together hold at
 * most {@value #EXACT_LIMIT} runs, which is every A/B run in practice. The normal approximation (commons-math3's
 * MannWhitneyUTest) is coarse at 3 vs 3: it gives p = 0.0495 for 3 runs of B all above 3 runs of A, where the exact
 * p is 2 of the 20 equally likely splits, 0.1. Ties (nccl-tests prints two decimals) get midranks, and the exact
 * distribution is that of the midrank sums, so it stays exact with ties. Beyond the limit the normal approximation with
 * the tie correction of the variance is close enough and the exact count would overflow.
 */
public final class Stats {

    /** Runs in both arms together up to which the U test enumerates; C(50, 25) still fits a long. */
    public static final int EXACT_LIMIT = 50;

    private Stats() {
    }

    /** A percentile interval, low &lt;= high. */
    public record Interval(double low, double high) {
    }

    /**
     * @param u     U of B: the pairs (a, b) with b &gt; a, a tie counting one half; nA × nB when every run of B beat every
     *              run of A, 0 when none did
     * @param p     two-sided p-value
     * @param floor the smallest two-sided p an exact rank test can give at these sample sizes, 2 / C(nA + nB, nA): 0.1 at
     *              3 vs 3, 0.057 at 3 vs 4, 0.029 at 4 vs 4
     * @param exact true: the exact distribution of the midrank sum; false: the normal approximation
     */
    public record UTest(double u, double p, double floor, boolean exact) {

        /**
         * p below alpha; or, where these sample sizes cannot go below alpha at all, p at the floor, which means every
         * run of one arm beat every run of the other. Under no change that happens with probability floor / 2 in each
         * direction (0.05 at 3 vs 3), so a one-directional verdict keeps its error rate at alpha or below.
         */
        public boolean significant(double alpha) {
            return p < alpha || (floor >= alpha && p <= floor * (1 + 1e-12));
        }
    }

    /** The middle value, or the mean of the two middle values (Commons Math's Median); the samples are busbw, never NaN. */
    public static double median(double[] v) {
        if (v.length == 0) {
            throw new IllegalArgumentException("the median of no values");
        }
        return new Median().evaluate(v);
    }

    /** The nearest-rank percentile: the value at rank ceil(percent / 100 × n), 1-based (Commons Math's estimation R-1). */
    public static double percentile(double[] values, double percent) {
        return new Percentile(percent).withEstimationType(EstimationType.R_1).evaluate(values);
    }

    /**
     * The 95 % bootstrap percentile interval of median(b) / median(a): {@code resamples} times, draw a.length values
     * from a and b.length values from b with replacement (a's draws first, from one SplittableRandom seeded with
     * {@code seed}), and take the 2.5th and 97.5th nearest-rank percentiles of the ratios. Identical samples give
     * [r, r]; three runs per arm give about [min b / max a, max b / min a].
     */
    public static Interval ratioInterval(double[] a, double[] b, int resamples, long seed) {
        requirePositive(a, "A");
        requirePositive(b, "B");
        if (resamples < 1) {
            throw new IllegalArgumentException("resamples must be at least 1, got " + resamples);
        }
        SplittableRandom random = new SplittableRandom(seed);
        double[] ra = new double[a.length];
        double[] rb = new double[b.length];
        double[] ratios = new double[resamples];
        for (int i = 0; i < resamples; i++) {
            for (int j = 0; j < ra.length; j++) {
                ra[j] = a[random.nextInt(a.length)];
            }
            for (int j = 0; j < rb.length; j++) {
                rb[j] = b[random.nextInt(b.length)];
            }
            ratios[i] = median(rb) / median(ra);
        }
        return new Interval(percentile(ratios, 2.5), percentile(ratios, 97.5));
    }

    private static void requirePositive(double[] v, String arm) {
        if (v.length == 0) {
            throw new IllegalArgumentException("no sample in " + arm);
        }
        for (double x : v) {
            if (!(x > 0) || Double.isInfinite(x)) {
                throw new IllegalArgumentException("a ratio needs positive finite samples; " + arm + " has " + x);
            }
        }
    }

    /** The two-sided Mann-Whitney U test of a against b; see the class comment for exact and approximate. */
    public static UTest mannWhitney(double[] a, double[] b) {
        if (a.length == 0 || b.length == 0) {
            throw new IllegalArgumentException("the U test needs a run in each arm, got " + a.length + " and " + b.length);
        }
        int na = a.length;
        int n = na + b.length;
        double[] pooled = new double[n];
        System.arraycopy(a, 0, pooled, 0, na);
        System.arraycopy(b, 0, pooled, na, b.length);
        int[] doubled = doubledMidranks(pooled);
        long sumA = 0;
        for (int i = 0; i < na; i++) {
            sumA += doubled[i];
        }
        double uA = sumA / 2.0 - na * (na + 1) / 2.0;
        double uB = (double) na * b.length - uA;
        double floor = Math.min(1, 2 / binomial(n, na));
        if (n <= EXACT_LIMIT) {
            return new UTest(uB, exactP(doubled, na, sumA), floor, true);
        }
        return new UTest(uB, normalP(doubled, na, b.length, uA), floor, false);
    }

    /** Twice the midrank of each value (an integer: a tie over ranks i..j has midrank (i + j) / 2). */
    static int[] doubledMidranks(double[] v) {
        Integer[] order = new Integer[v.length];
        for (int i = 0; i < v.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (x, y) -> Double.compare(v[x], v[y]));
        int[] r = new int[v.length];
        for (int i = 0; i < v.length; ) {
            int j = i;
            while (j + 1 < v.length && v[order[j + 1]] == v[order[i]]) {
                j++;
            }
            for (int k = i; k <= j; k++) {
                r[order[k]] = (i + 1) + (j + 1);
            }
            i = j + 1;
        }
        return r;
    }

    /**
     * The share of the C(n, na) ways to pick A's ranks whose sum lies at least as far from its mean na(n + 1) / 2 as
     * the observed one: counted by dynamic programming over (how many picked, doubled rank sum).
     */
    private static double exactP(int[] doubled, int na, long observed) {
        int total = 0;
        for (int r : doubled) {
            total += r;
        }
        long[][] ways = new long[na + 1][total + 1];
        ways[0][0] = 1;
        for (int i = 0; i < doubled.length; i++) {
            int r = doubled[i];
            for (int k = Math.min(i + 1, na); k >= 1; k--) {
                for (int s = total; s >= r; s--) {
                    ways[k][s] += ways[k - 1][s - r];
                }
            }
        }
        long mean = (long) na * (doubled.length + 1); // doubled
        long deviation = Math.abs(observed - mean);
        long extreme = 0;
        long all = 0;
        for (int s = 0; s <= total; s++) {
            all += ways[na][s];
            if (Math.abs(s - mean) >= deviation) {
                extreme += ways[na][s];
            }
        }
        return (double) extreme / all;
    }

    /** Normal approximation of U_A, variance corrected for ties, no continuity correction (as commons-math3). */
    private static double normalP(int[] doubled, int na, int nb, double uA) {
        int n = na + nb;
        int[] sorted = doubled.clone();
        Arrays.sort(sorted);
        double ties = 0;
        for (int i = 0; i < n; ) {
            int j = i;
            while (j + 1 < n && sorted[j + 1] == sorted[i]) {
                j++;
            }
            double t = j - i + 1;
            ties += t * t * t - t;
            i = j + 1;
        }
        double variance = (double) na * nb / 12 * ((n + 1) - ties / ((double) n * (n - 1)));
        if (variance <= 0) {
            return 1; // every value tied: no evidence either way
        }
        double z = (uA - (double) na * nb / 2) / Math.sqrt(variance);
        return Math.min(1, Erf.erfc(Math.abs(z) / Math.sqrt(2)));
    }

    static double binomial(int n, int k) {
        double c = 1;
        for (int i = 1; i <= k; i++) {
            c = c * (n - k + i) / i;
        }
        return c;
    }
}
