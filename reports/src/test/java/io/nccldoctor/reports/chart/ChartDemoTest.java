package io.nccldoctor.reports.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.reports.chart.GpuNicHeatMap.Direction;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Writes every sample chart to target/chart-demo/ as PNG and SVG, for a person to look at, with warm render times in
 * timings.txt. Not a check of looks: the other tests check what can be checked.
 */
class ChartDemoTest {

    static final Path OUT = Path.of("target", "chart-demo");

    @Test
    void writeExamples() throws IOException {
        Files.createDirectories(OUT);
        Map<String, Chart> charts = new LinkedHashMap<>();
        charts.put("size-sweep", Samples.sweep("all_reduce"));
        charts.put("size-sweep-aligned", Samples.aligned());
        charts.put("heat-map-read", Samples.heatMap("GPU0", Direction.NIC_READS_GPU));
        charts.put("heat-map-write", Samples.heatMap("GPU0", Direction.NIC_WRITES_GPU));
        charts.put("path-matrix", Samples.paths("mlx5_0"));
        charts.put("port-balance", Samples.ports("mlx5_0:1"));
        StringBuilder timings = new StringBuilder("chart, format, ms per render at 900x560 (warm, best of 3)\n");
        for (Map.Entry<String, Chart> e : charts.entrySet()) {
            for (Format f : Format.values()) {
                byte[] image = e.getValue().render(f, 900, 560);
                double best = Double.MAX_VALUE;
                for (int i = 0; i < 3; i++) {
                    long t = System.nanoTime();
                    image = e.getValue().render(f, 900, 560);
                    best = Math.min(best, (System.nanoTime() - t) / 1e6);
                }
                Files.write(OUT.resolve(e.getKey() + "." + f.name().toLowerCase(Locale.ROOT)), image);
                timings.append(String.format(Locale.ROOT, "%s, %s, %.1f, %d bytes%n", e.getKey(), f, best, image.length));
            }
        }
        Files.write(OUT.resolve("heat-map-read-small.png"), charts.get("heat-map-read").render(Format.PNG, 480, 320));
        Files.write(OUT.resolve("size-sweep-small.png"), charts.get("size-sweep").render(Format.PNG, 480, 320));
        Files.writeString(OUT.resolve("timings.txt"), timings);
        assertThat(OUT.resolve("size-sweep.png")).isNotEmptyFile();
    }
}
