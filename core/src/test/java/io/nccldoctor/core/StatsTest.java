package io.nccldoctor.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The shared statistics, as Commons Math computes them, with NaN where a figure has no meaning. */
class StatsTest {

    @Test
    void median() {
        assertThat(Stats.median(new double[] {3, 1, 2})).isEqualTo(2);
        assertThat(Stats.median(new double[] {4, 1, 3, 2})).as("mean of the two middle values").isEqualTo(2.5);
        assertThat(Stats.median(new double[] {7})).isEqualTo(7);
        assertThat(Stats.median(new double[0])).isNaN();
        assertThat(Stats.median(new double[] {1, Double.NaN, 3})).as("a NaN is not dropped silently").isNaN();
    }

    @Test
    void nearestRankPercentile() {
        double[] us = new double[100];
        for (int i = 0; i < us.length; i++) {
            us[i] = 100 - i; // 100 timings, 1 to 100 us, in any order
        }
        assertThat(Stats.percentile(us, 99)).as("p99 of 100 values is the 99th smallest").isEqualTo(99);
        assertThat(Stats.percentile(us, 100)).isEqualTo(100);
        assertThat(Stats.percentile(new double[] {5, 1}, 50)).as("a value, not an interpolation").isEqualTo(1);
        assertThat(Stats.percentile(new double[] {5, 1, 3}, 99)).as("rank ceil(2.97) = 3").isEqualTo(5);
        assertThat(Stats.percentile(new double[0], 99)).isNaN();
        assertThat(Stats.percentile(new double[] {1, Double.NaN}, 50)).isNaN();
    }

    @Test
    void coefficientOfVariation() {
        assertThat(Stats.cv(new double[] {25, 25, 25, 25})).isZero();
        assertThat(Stats.cv(new double[] {70, 20, 5, 5})).as("the field report's uneven links").isCloseTo(1.07, within(0.005));
        assertThat(Stats.cv(new double[] {2, 4, 4, 4, 5, 5, 7, 9})).as("population sd 2 over mean 5").isCloseTo(0.4, within(1e-12));
        assertThat(Stats.cv(new double[0])).isNaN();
        assertThat(Stats.cv(new double[] {0, 0})).isNaN();
    }
}
