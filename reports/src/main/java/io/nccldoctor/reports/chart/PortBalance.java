package io.nccldoctor.reports.chart;

import io.nccldoctor.core.Stats;
import java.awt.BasicStroke;
import java.awt.Font;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Bytes moved per network port during a run, one bar each, with the mean as a dashed line and the coefficient of
 * variation in the title. NCCL spreads channels evenly over the NICs it uses, so a healthy run has a CV near 0; a
 * port that carries nothing (CV jumps, e.g. 0.38 with one of eight idle) or twice its share stands out.
 *
 * @param title e.g. "node-a, all_reduce_perf 8 GiB"; the CV is appended
 * @param ports in the order they should appear
 */
public record PortBalance(String title, List<Port> ports) implements Chart {

    public PortBalance {
        ports = List.copyOf(ports);
    }

    /** Traffic counted on one port (port_xmit_data and port_rcv_data deltas, already turned into bytes). */
    public record Port(String name, long bytes) {
        public Port {
            if (bytes < 0) {
                throw new IllegalArgumentException("port " + name + " has a negative byte count: " + bytes);
            }
        }
    }

    /**
     * Coefficient of variation: population standard deviation over mean (divide by n, not n − 1: the ports are the
     * whole population, not a sample). NaN for no values or a zero mean, where it has no meaning.
     */
    public static double cv(double[] values) {
        return Stats.cv(values);
    }

    /** The CV of these ports' byte counts. */
    public double cv() {
        return cv(ports.stream().mapToDouble(Port::bytes).toArray());
    }

    /** The given title followed by "CV 0.42", or "CV n/a" when there is no traffic to compare. */
    public String fullTitle() {
        double cv = cv();
        String t = Text.line(title, "port balance");
        return t + " \u2014 CV " + (Double.isNaN(cv) ? "n/a" : String.format(Locale.ROOT, "%.2f", cv));
    }

    @Override
    public byte[] render(Format format, int width, int height) {
        return Canvas.render(format, width, height, caption(), (g, w, h) -> chart(w, h).paint(g, w, h));
    }

    /** The binary unit the largest count reaches: bars read "3.5" on a GiB axis, not 3758096384. */
    int unitPower() {
        long max = ports.stream().mapToLong(Port::bytes).max().orElse(0);
        int p = 0;
        while (p < 6 && max >= 1L << (10 * (p + 1))) {
            p++;
        }
        return p;
    }

    CategoryChart chart(int width, int height) {
        CategoryChart c = new CategoryChart(width, height);
        AxesStyle.apply(c.getStyler(), width, height);
        int power = unitPower();
        String unit = SizeLabels.unit(power);
        c.setXAxisTitle("port");
        c.setYAxisTitle("traffic (" + unit + ")");
        c.getStyler().setYAxisMin(0.0);
        c.getStyler().setOverlapped(true);
        c.getStyler().setAvailableSpaceFill(0.7);
        List<String> names = names();
        double scale = Math.pow(2, 10 * power);
        List<Double> values = ports.stream().map(p -> p.bytes() / scale).toList();
        double mean = values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        String meanLabel = "mean " + SizeLabels.format(Math.round(mean * scale));
        Map<String, Boolean> legend = new LinkedHashMap<>();
        legend.put("bytes per port", true);
        legend.put(meanLabel, false);
        AxesStyle.title(c.getStyler(), c::setTitle, fullTitle(), width, AxesStyle.placeLegend(c.getStyler(), legend, width));
        rotateIfCrowded(c, names, width);
        if (ports.isEmpty()) {
            return c;
        }
        CategorySeries bars = c.addSeries("bytes", names, values);
        bars.setLabel("bytes per port");
        bars.setFillColor(Palette.series(0));
        CategorySeries meanLine = c.addSeries("mean", names, names.stream().map(n -> mean).toList());
        meanLine.setLabel(meanLabel);
        meanLine.setChartCategorySeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Line);
        meanLine.setLineColor(Palette.CEILINGS.get(0));
        meanLine.setLineStyle(new BasicStroke(AxesStyle.lineWidth(width, height), BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                new float[] {8f, 5f}, 0f));
        meanLine.setMarker(SeriesMarkers.NONE);
        return c;
    }

    /** Port names made unique (XChart keys bars by category), in the same order. */
    List<String> names() {
        Map<String, Integer> seen = new HashMap<>();
        List<String> names = new ArrayList<>();
        for (Port p : ports) {
            String n = Text.line(p.name(), "port");
            int k = seen.merge(n, 1, Integer::sum);
            names.add(k == 1 ? n : n + " (" + k + ")");
        }
        return names;
    }

    /** Tilts the port names when they would not fit side by side under their bars. */
    private static void rotateIfCrowded(CategoryChart c, List<String> names, int width) {
        Font font = c.getStyler().getAxisTickLabelsFont();
        double room = (width - 8 * font.getSize2D()) / Math.max(1, names.size());
        double widest = names.stream().mapToDouble(n -> AxesStyle.textWidth(n, font)).max().orElse(0);
        if (widest * 1.2 > room) {
            c.getStyler().setXAxisLabelRotation(45);
        }
    }

    private Canvas.Caption caption() {
        StringBuilder d = new StringBuilder("Bytes per port; coefficient of variation = population standard deviation / mean.");
        for (Port p : ports) {
            d.append('\n').append(p.name()).append(": ").append(SizeLabels.format(p.bytes()));
        }
        return new Canvas.Caption(fullTitle(), d.toString());
    }
}
