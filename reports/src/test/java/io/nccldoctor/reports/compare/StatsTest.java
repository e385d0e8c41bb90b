package io.nccldoctor.reports.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.apache.commons.math3.stat.inference.MannWhitneyUTest;
import org.junit.jupiter.api.Test;

/** The statistics against values worked out by hand, or by a second method. */
class StatsTest {

    @Test
    void medianOfOddAndEvenCounts() {
        assertThat(Stats.median(new double[] {3, 1, 2})).isEqualTo(2);
        assertThat(Stats.median(new double[] {4, 1, 3, 2})).as("mean of the two middle values").isEqualTo(2.5);
        assertThat(Stats.median(new double[] {7})).isEqualTo(7);
        assertThatThrownBy(() -> Stats.median(new double[0])).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void nearestRankPercentile() {
        double[] values = new double[2000];
        for (int i = 0; i < values.length; i++) {
            values[i] = values.length - i; // descending: the order given does not matter
        }
        assertThat(Stats.percentile(values, 2.5)).as("rank ceil(0.025 * 2000) = 50").isEqualTo(50);
        assertThat(Stats.percentile(values, 97.5)).as("rank 1950").isEqualTo(1950);
        assertThat(Stats.percentile(new double[] {1, 2, 3, 4}, 50)).as("a value, never between two").isEqualTo(2);
        assertThat(Stats.percentile(new double[] {1, 2, 3, 4}, 51)).isEqualTo(3);
    }

    @Test
    void identicalSamplesGiveAPointInterval() {
        Stats.Interval i = Stats.ratioInterval(new double[] {2, 2, 2}, new double[] {5, 5, 5}, 2000, 1);
        assertThat(i.low()).isEqualTo(2.5);
        assertThat(i.high()).isEqualTo(2.5);
    }

    /**
     * a = [1, 1]: its resampled median is always 1. b = [1, 2]: median 1, 1.5 or 2 with probability 1/4, 1/2, 1/4. The
     * 2.5th and 97.5th percentiles of 2000 ratios are then 1 and 2 (each end holds about 500 draws, far more than 50).
     */
    @Test
    void intervalEndsAreTheExtremeResampledMediansWhenTheyAreLikely() {
        Stats.Interval i = Stats.ratioInterval(new double[] {1, 1}, new double[] {1, 2}, 2000, 7);
        assertThat(i.low()).isEqualTo(1);
        assertThat(i.high()).isEqualTo(2);
        // 3 runs each: a resample's median is the smallest run with probability 7/27, so min b / max a has probability
        // (7/27)^2 = 0.067, well above 2.5 %: the interval is [min b / max a, max b / min a].
        Stats.Interval j = Stats.ratioInterval(new double[] {1, 2, 3}, new double[] {10, 20, 30}, 2000, 7);
        assertThat(j.low()).isEqualTo(10.0 / 3);
        assertThat(j.high()).isEqualTo(30.0);
    }

    @Test
    void theSeedFixesTheInterval() {
        double[] a = {2.31, 2.27, 2.36, 2.30, 2.29};
        double[] b = {11.38, 11.15, 11.60, 11.20, 11.41};
        assertThat(Stats.ratioInterval(a, b, 2000, 2026)).as("same seed, same interval").isEqualTo(Stats.ratioInterval(a, b, 2000, 2026));
        Stats.Interval i = Stats.ratioInterval(a, b, 2000, 2026);
        assertThat(i.low()).isLessThanOrEqualTo(Stats.median(b) / Stats.median(a)).isGreaterThanOrEqualTo(11.15 / 2.36);
        assertThat(i.high()).isGreaterThanOrEqualTo(Stats.median(b) / Stats.median(a)).isLessThanOrEqualTo(11.60 / 2.27);
    }

    @Test
    void aRatioNeedsPositiveSamples() {
        assertThatThrownBy(() -> Stats.ratioInterval(new double[] {0, 1}, new double[] {1}, 100, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("positive");
    }

    /** 3 vs 3: 20 equally likely ways to pick A's ranks from 1..6; only 123 and 456 are as extreme as full separation. */
    @Test
    void exactUThreeAgainstThreeSeparated() {
        Stats.UTest up = Stats.mannWhitney(new double[] {1, 2, 3}, new double[] {4, 5, 6});
        assertThat(up.exact()).isTrue();
        assertThat(up.p()).isEqualTo(0.1);
        assertThat(up.u()).as("every B beat every A: 9 of 9 pairs").isEqualTo(9);
        assertThat(up.floor()).as("2 / C(6, 3)").isEqualTo(0.1);
        assertThat(up.significant(0.05)).as("at the floor of 3 vs 3").isTrue();
        Stats.UTest down = Stats.mannWhitney(new double[] {4, 5, 6}, new double[] {1, 2, 3});
        assertThat(down.p()).isEqualTo(0.1);
        assertThat(down.u()).isZero();
    }

    /**
     * A = [1, 2, 4], B = [3, 5, 6]: A's rank sum is 7, its mean 10.5. Rank sums of 3 of 1..6 as far out (<= 7 or >=
     * 14): 123, 124, 356, 456, so p = 4/20. B beats A in 2 + 3 + 3 = 8 pairs.
     */
    @Test
    void exactUOneOverlap() {
        Stats.UTest t = Stats.mannWhitney(new double[] {1, 2, 4}, new double[] {3, 5, 6});
        assertThat(t.p()).isEqualTo(0.2);
        assertThat(t.u()).isEqualTo(8);
        assertThat(t.significant(0.05)).as("above the floor").isFalse();
    }

    /**
     * A = [1, 2, 2], B = [2, 3, 3]: midranks 1, 3, 3 | 3, 5.5, 5.5, doubled 2, 6, 6 | 6, 11, 11, doubled sum of A 14
     * against a mean of 21. Of the 20 picks of three doubled ranks, 2+6+6 (3 ways) and 6+11+11 (3 ways) lie 7 away,
     * the rest at most 3: p = 6/20. U of B: 3 + 2.5 + 2.5 = 8.
     */
    @Test
    void exactUWithTies() {
        Stats.UTest t = Stats.mannWhitney(new double[] {1, 2, 2}, new double[] {2, 3, 3});
        assertThat(t.p()).isCloseTo(0.3, within(1e-15));
        assertThat(t.u()).isEqualTo(8);
    }

    @Test
    void allTiedIsNoEvidence() {
        Stats.UTest t = Stats.mannWhitney(new double[] {2.5, 2.5, 2.5}, new double[] {2.5, 2.5, 2.5});
        assertThat(t.p()).isEqualTo(1);
        assertThat(t.u()).isEqualTo(4.5);
        assertThat(t.significant(0.05)).as("p = 1 is not at the floor 0.1").isFalse();
    }

    @Test
    void floorsOfSmallSamples() {
        assertThat(Stats.mannWhitney(new double[] {1, 2, 3}, new double[] {4, 5, 6, 7}).floor()).isCloseTo(2.0 / 35, within(1e-15));
        assertThat(Stats.mannWhitney(new double[] {1, 2, 3, 4}, new double[] {5, 6, 7, 8}).floor()).isCloseTo(2.0 / 70, within(1e-15));
        Stats.UTest four = Stats.mannWhitney(new double[] {1, 2, 3, 4}, new double[] {5, 6, 7, 8});
        assertThat(four.p()).isCloseTo(2.0 / 70, within(1e-15));
        assertThat(four.significant(0.05)).isTrue();
    }

    /** The normal approximation calls 3 vs 3 separated significant, the exact test does not: why the exact one is used. */
    @Test
    void normalApproximationIsCoarseAtThreeAgainstThree() {
        double approx = new MannWhitneyUTest().mannWhitneyUTest(new double[] {1, 2, 3}, new double[] {4, 5, 6});
        assertThat(approx).as("z = -4.5 / sqrt(5.25)").isCloseTo(0.0495, within(1e-4));
        assertThat(Stats.mannWhitney(new double[] {1, 2, 3}, new double[] {4, 5, 6}).p()).isEqualTo(0.1);
    }

    /** The DP over rank sums against brute force over every split, on random small samples with many ties. */
    @Test
    void exactPMatchesEnumerationOfEverySplit() {
        SplittableRandom r = new SplittableRandom(11);
        for (int trial = 0; trial < 300; trial++) {
            double[] a = new double[1 + r.nextInt(6)];
            double[] b = new double[1 + r.nextInt(6)];
            for (int i = 0; i < a.length; i++) {
                a[i] = r.nextInt(5);
            }
            for (int i = 0; i < b.length; i++) {
                b[i] = r.nextInt(5);
            }
            assertThat(Stats.mannWhitney(a, b).p()).as("trial %d", trial).isCloseTo(bruteForceP(a, b), within(1e-12));
        }
    }

    /** Every way to split the pooled values into groups of a.length and b.length; p from U computed pair by pair. */
    private static double bruteForceP(double[] a, double[] b) {
        int n = a.length + b.length;
        double[] pooled = new double[n];
        System.arraycopy(a, 0, pooled, 0, a.length);
        System.arraycopy(b, 0, pooled, a.length, b.length);
        double centre = a.length * b.length / 2.0;
        double observed = Math.abs(pairU(a, b) - centre);
        int extreme = 0;
        int all = 0;
        for (int mask = 0; mask < 1 << n; mask++) {
            if (Integer.bitCount(mask) != a.length) {
                continue;
            }
            double[] x = new double[a.length];
            double[] y = new double[b.length];
            int i = 0;
            int j = 0;
            for (int k = 0; k < n; k++) {
                if ((mask & 1 << k) != 0) {
                    x[i++] = pooled[k];
                } else {
                    y[j++] = pooled[k];
                }
            }
            all++;
            if (Math.abs(pairU(x, y) - centre) >= observed - 1e-9) {
                extreme++;
            }
        }
        return (double) extreme / all;
    }

    private static double pairU(double[] a, double[] b) {
        double u = 0;
        for (double x : a) {
            for (double y : b) {
                u += y > x ? 1 : y == x ? 0.5 : 0;
            }
        }
        return u;
    }

    /** Beyond the exact range, without ties, the approximation is commons-math3's. */
    @Test
    void largeSamplesUseTheNormalApproximation() {
        SplittableRandom r = new SplittableRandom(5);
        double[] a = new double[30];
        double[] b = new double[31];
        for (int i = 0; i < a.length; i++) {
            a[i] = r.nextDouble();
        }
        for (int i = 0; i < b.length; i++) {
            b[i] = r.nextDouble() + 0.2;
        }
        Stats.UTest t = Stats.mannWhitney(a, b);
        assertThat(t.exact()).isFalse();
        assertThat(t.p()).isCloseTo(new MannWhitneyUTest().mannWhitneyUTest(a, b), within(1e-9));
    }

    /** At 25 vs 25 (still exact) the approximation is close: a check of the exact count from the other side. */
    @Test
    void exactAndApproximateAgreeOnMidSizedSamples() {
        SplittableRandom r = new SplittableRandom(3);
        double[] a = new double[25];
        double[] b = new double[25];
        for (int i = 0; i < 25; i++) {
            a[i] = r.nextDouble();
            b[i] = r.nextDouble() + 0.15;
        }
        Stats.UTest t = Stats.mannWhitney(a, b);
        assertThat(t.exact()).isTrue();
        assertThat(t.p()).isCloseTo(new MannWhitneyUTest().mannWhitneyUTest(a, b), within(0.01));
    }
}
