package io.nccldoctor.reports.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.reports.chart.GpuNicHeatMap.Direction;
import io.nccldoctor.reports.chart.GpuNicHeatMap.Measured;
import io.nccldoctor.reports.chart.GpuNicHeatMap.Reading;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class GpuNicHeatMapTest {

    static final int W = 900;
    static final int H = 560;

    /** A cell's colour, sampled above its text. */
    static int sample(BufferedImage image, Grid.Layout layout, int row, int column) {
        Rectangle2D cell = layout.cell(row, column);
        return Samples.rgb(image, cell.getCenterX(), cell.getY() + cell.getHeight() * 0.2);
    }

    @Test
    void failedAndUnmeasuredCellsLookLikeNoMeasuredValue() {
        GpuNicHeatMap map = Samples.heatMap("GPU0", Direction.NIC_READS_GPU);
        BufferedImage image = Samples.png(map.render(Format.PNG, W, H));
        Grid.Layout layout = map.grid().layout(W, H);
        int failed = sample(image, layout, 3, 3);
        int notRun = sample(image, layout, 6, 1);
        for (int g = 0; g < 8; g++) {
            for (int n = 0; n < 8; n++) {
                if (map.readings().get(g).get(n) instanceof Measured m) {
                    int measured = sample(image, layout, g, n);
                    assertThat(Samples.distance(failed, measured)).as("failed %06x vs %.1f Gbit/s %06x", failed, m.gbits(), measured)
                            .isGreaterThan(80);
                    assertThat(Samples.distance(notRun, measured)).as("not run %06x vs %.1f Gbit/s %06x", notRun, m.gbits(), measured)
                            .isGreaterThan(60);
                }
            }
        }
        assertThat(Samples.distance(failed, notRun)).as("the two missing states differ too").isGreaterThan(40);
    }

    @Test
    void aMeasuredCellHasTheScaleColourOfItsValue() {
        GpuNicHeatMap map = Samples.heatMap("GPU0", Direction.NIC_READS_GPU);
        BufferedImage image = Samples.png(map.render(Format.PNG, W, H));
        Grid.Layout layout = map.grid().layout(W, H);
        assertThat(sample(image, layout, 0, 0)).as("392.4 of 400 Gbit/s").isEqualTo(Palette.ramp(392.4 / 400).getRGB() & 0xFFFFFF);
        assertThat(sample(image, layout, 5, 0)).as("the slow GPU5 row").isEqualTo(Palette.ramp(148.2 * 0.08 / 400).getRGB() & 0xFFFFFF);
    }

    @Test
    void cellsSayTheirValueOrFailedAndTheTitleSaysTheDirection() {
        String svg = new String(Samples.heatMap("GPU0", Direction.NIC_WRITES_GPU).render(Format.SVG, W, H), StandardCharsets.UTF_8);
        assertThat(svg).contains(">392<", ">148<", ">failed<", ">not run<", "NIC writes GPU memory");
        assertThat(svg).as("the reason a pair failed is kept in the description").contains("ib_read_bw: timed out after 30 s");
        String read = new String(Samples.heatMap("GPU0", Direction.NIC_READS_GPU).render(Format.SVG, W, H), StandardCharsets.UTF_8);
        assertThat(read).contains("gpu-node-07: NIC reads GPU memory (Gbit/s)", ">24.8<");
    }

    @Test
    void theScaleDefaultsToTheHighestReading() {
        List<List<Reading>> one = List.of(List.of(new Measured(50), new GpuNicHeatMap.NotMeasured()));
        GpuNicHeatMap map = GpuNicHeatMap.of("", Direction.NIC_READS_GPU, List.of("GPU0"), List.of("mlx5_0", "mlx5_1"), one);
        assertThat(map.top()).isEqualTo(50);
        assertThat(map.title()).isEqualTo("NIC reads GPU memory (Gbit/s)");
        assertThat(map.withScaleMax(400).top()).isEqualTo(400);
    }

    @Test
    void theShapeMustMatch() {
        assertThatThrownBy(() -> GpuNicHeatMap.of("h", Direction.NIC_READS_GPU, List.of("GPU0", "GPU1"), List.of("mlx5_0"),
                List.of(List.of(new Measured(1))))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Measured(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    }
}
