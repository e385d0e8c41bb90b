package io.nccldoctor.reports.chart;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PathMatrixTest {

    @ParameterizedTest(name = "\"{0}\" is {1}")
    @CsvSource(delimiter = '|', value = {"X | SELF", "NV12 | NVLINK", "nv4 | NVLINK", "C2C | C2C", "PIX | PIX", "PXB | PXB",
        "PHB | PHB", "NODE | NODE", "SYS | SYS", "SOC | SYS", " PIX  | PIX", "NV | UNKNOWN", "'' | UNKNOWN", "FOO | UNKNOWN"})
    void cellsReadAsNvidiaSmiPrintsThem(String cell, PathType type) {
        assertThat(PathType.of(cell)).isEqualTo(type);
    }

    @Test
    void typesRunFromNearToFar() {
        assertThat(Arrays.stream(PathType.values()).map(PathType::code))
                .containsExactly("X", "NV#", "C2C", "PIX", "PXB", "PHB", "NODE", "SYS", "?");
    }

    @Test
    void eachCellHasItsTypesColour() {
        PathMatrix m = Samples.paths("mlx5_0");
        int w = 900;
        int h = 560;
        BufferedImage image = Samples.png(m.render(Format.PNG, w, h));
        Grid.Layout layout = m.grid().layout(w, h);
        for (int r = 0; r < m.rows().size(); r++) {
            for (int c = 0; c < m.columns().size(); c++) {
                Rectangle2D cell = layout.cell(r, c);
                PathType type = PathType.of(m.cells().get(r).get(c));
                assertThat(Samples.rgb(image, cell.getCenterX(), cell.getY() + cell.getHeight() * 0.15))
                        .as("%s / %s (%s)", m.rows().get(r), m.columns().get(c), type).isEqualTo(type.colour().getRGB() & 0xFFFFFF);
            }
        }
    }

    @Test
    void theLegendListsTheTypesPresentAndCellsKeepTheirText() {
        PathMatrix m = Samples.paths("mlx5_0");
        assertThat(m.present()).containsExactly(PathType.SELF, PathType.NVLINK, PathType.PIX, PathType.PHB, PathType.NODE, PathType.SYS);
        String svg = new String(m.render(Format.SVG, 900, 560), StandardCharsets.UTF_8);
        assertThat(svg).contains(">NV18<", ">PHB<", ">SYS<", "PHB: through a PCIe host bridge (the CPU)");
    }
}
