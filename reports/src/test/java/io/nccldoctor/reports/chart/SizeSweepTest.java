package io.nccldoctor.reports.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;

class SizeSweepTest {

    static final int W = 800;
    static final int H = 450;

    /** One series from 1 KiB to 1 MiB between 10 and 40 GB/s, and one ceiling at 50: the y axis runs 0..60. */
    static SizeSweep withCeiling(List<SizeSweep.Region> regions) {
        List<SizeSweep.Point> points = new ArrayList<>();
        for (int k = 10; k <= 20; k++) {
            points.add(new SizeSweep.Point(1L << k, 10 + 3 * (k - 10)));
        }
        return new SizeSweep("ceiling", "GB/s", List.of(new SizeSweep.Series("data", points)),
                List.of(new SizeSweep.Ceiling("limit", 50)), regions);
    }

    /** The chart as XChart lays it out at W×H, to ask where values land. */
    static XYChart laidOut(SizeSweep s) {
        XYChart c = s.chart(W, H);
        BufferedImage scratch = new BufferedImage(W, H, BufferedImage.TYPE_INT_RGB);
        c.paint(scratch.createGraphics(), W, H);
        return c;
    }

    @Test
    void theCeilingIsDrawnAtItsValueAndNowhereElseInThePlot() {
        SizeSweep s = withCeiling(List.of());
        assertThat(s.yMax()).isEqualTo(60);
        BufferedImage image = Samples.png(s.render(Format.PNG, W, H));
        XYChart c = laidOut(s);
        double expected = c.getScreenYFromChart(50);
        int left = (int) Math.ceil(c.getScreenXFromChart(10)) + 2;
        int right = (int) Math.floor(c.getScreenXFromChart(20)) - 2;
        int top = (int) Math.ceil(c.getScreenYFromChart(60));
        int bottom = (int) Math.floor(c.getScreenYFromChart(0));
        int colour = SizeSweep.ceilingColor(0).getRGB() & 0xFFFFFF;
        int columnsWithIt = 0;
        for (int x = left; x <= right; x++) {
            boolean seen = false;
            for (int y = top; y <= bottom; y++) {
                if (Samples.rgb(image, x, y) == colour) {
                    assertThat((double) y).as("ceiling colour at column %d, row %d; the 50 GB/s line is at row %.1f", x, y, expected)
                            .isBetween(expected - 2.5, expected + 2.5);
                    seen = true;
                }
            }
            columnsWithIt += seen ? 1 : 0;
        }
        assertThat(columnsWithIt).as("a dashed line covers most of the width").isGreaterThan((right - left) / 2);
    }

    @Test
    void aFlaggedRangeIsShadedOverItsSizesOnly() {
        SizeSweep s = withCeiling(List.of(new SizeSweep.Region(4 << 10, 16 << 10, "dip")));
        BufferedImage image = Samples.png(s.render(Format.PNG, W, H));
        XYChart c = laidOut(s);
        // Between the ceiling (50) and the top (60): nothing but the band, or white, is there.
        double y = c.getScreenYFromChart(55);
        int inside = Samples.rgb(image, c.getScreenXFromChart(13), y);
        int outside = Samples.rgb(image, c.getScreenXFromChart(18.5), y);
        assertThat((inside >> 16 & 0xFF) - (inside >> 8 & 0xFF)).as("band pixel %06x is tinted red", inside).isGreaterThan(20);
        assertThat(Samples.distance(outside, 0xFFFFFF)).as("pixel %06x away from the band stays white", outside).isLessThan(1);
    }

    @Test
    void xTicksFallOnPowersOfTwoAtEverySize() {
        List<SizeSweep> sweeps = List.of(Samples.sweep("all_reduce"), Samples.aligned(), withCeiling(List.of()),
                SizeSweep.of("short", "GB/s", List.of(new SizeSweep.Series("s", List.of(new SizeSweep.Point(1 << 20, 1),
                        new SizeSweep.Point(4 << 20, 2))))));
        for (SizeSweep s : sweeps) {
            for (int width : new int[] {320, 640, 900, 1600}) {
                XYChart c = s.chart(width, 500);
                Function<Double, String> label = c.getStyler().getXAxisTickLabelsFormattingFunction();
                List<Double> asked = new ArrayList<>();
                c.getStyler().setXAxisTickLabelsFormattingFunction(v -> {
                    asked.add(v);
                    return label.apply(v);
                });
                c.paint(new BufferedImage(width, 500, BufferedImage.TYPE_INT_RGB).createGraphics(), width, 500);
                assertThat(asked).as("%s at %d px: tick positions in log2 bytes", s.title(), width).isNotEmpty()
                        .allMatch(v -> v == Math.rint(v));
            }
        }
    }

    @Test
    void theYAxisEndsOnARoundNumberAboveEverything() {
        assertThat(SizeSweep.roundUp(378)).isEqualTo(400);
        assertThat(SizeSweep.roundUp(472.5)).isEqualTo(500);
        assertThat(SizeSweep.roundUp(1)).isEqualTo(1);
        assertThat(SizeSweep.roundUp(0.011)).isCloseTo(0.012, org.assertj.core.api.Assertions.within(1e-15));
        assertThat(Samples.sweep("s").yMax()).as("450 GB/s ceiling x 1.05").isEqualTo(500);
    }

    @Test
    void theXAxisCoversPointsAndRegionsInWholePowersOfTwo() {
        assertThat(Samples.sweep("s").xRange()).containsExactly(3, 33);
        assertThat(Samples.aligned().xRange()).as("1 KiB to 1 GiB + 4 B").containsExactly(10, 31);
        assertThat(SizeSweep.of("empty", "GB/s", List.of()).xRange()).containsExactly(3, 30);
    }

    @Test
    void theSvgDescribesTheDataInWords() {
        String svg = new String(Samples.sweep("all_reduce").render(Format.SVG, 600, 400), StandardCharsets.UTF_8);
        assertThat(svg).contains("<title>gpu-node-07: all_reduce_perf, 2 nodes x 8 H100</title>", "series all_reduce: 8 B ",
                "ceiling NVLink 4 per GPU: 450", "flagged dip: LL128 to Simple switch: 128 KiB to 512 KiB");
    }

    @Test
    void edgeCasesStillRender() {
        List<SizeSweep> odd = List.of(
                SizeSweep.of("a run that produced nothing", "GB/s", List.of(new SizeSweep.Series("all_reduce", List.of()))),
                SizeSweep.of("nothing at all", "GB/s", List.of()),
                new SizeSweep("a difference", "GB/s", List.of(new SizeSweep.Series("delta", List.of(new SizeSweep.Point(8, -3),
                        new SizeSweep.Point(16, 2)))), List.of(), List.of(new SizeSweep.Region(8, 8, "one size"))),
                SizeSweep.of("the whole long range", "GB/s", List.of(new SizeSweep.Series("s", List.of(new SizeSweep.Point(1, 1),
                        new SizeSweep.Point(Long.MAX_VALUE, 2))))));
        for (SizeSweep s : odd) {
            assertThat(Samples.png(s.render(Format.PNG, 300, 200)).getWidth()).as(s.title()).isEqualTo(300);
        }
        assertThat(odd.get(2).yMin()).as("a negative value pulls the axis below zero").isEqualTo(-4);
    }

    @Test
    void sizesAndValuesAreChecked() {
        assertThatThrownBy(() -> new SizeSweep.Point(0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SizeSweep.Point(8, Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SizeSweep.Region(16, 8, "backwards")).isInstanceOf(IllegalArgumentException.class);
        assertThat(new SizeSweep.Series("s", List.of(new SizeSweep.Point(64, 1), new SizeSweep.Point(8, 2))).points())
                .extracting(SizeSweep.Point::bytes).containsExactly(8L, 64L);
    }
}
