package io.nccldoctor.reports.chart;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * A value (usually bus bandwidth, GB/s) against message size, one line per collective or per variant ("aligned" and
 * "unaligned" buffers are two series). Sizes sit on a log2 axis labelled in binary units, with horizontal ceilings
 * (link or PCIe limits) and shaded size ranges that a rule flagged (a protocol switch that drops bandwidth, a size
 * where the run failed).
 *
 * @param title       one line that stands on its own, e.g. "all_reduce_perf, 16 GPUs"
 * @param yAxisLabel  e.g. "bus bandwidth (GB/s)"
 * @param series      drawn in this order, coloured from {@link Palette#SERIES}
 * @param ceilings    dashed horizontal lines, named in the legend
 * @param regions     translucent bands over their size range, named in the legend
 */
public record SizeSweep(String title, String yAxisLabel, List<Series> series, List<Ceiling> ceilings, List<Region> regions)
        implements Chart {

    /** Where the x axis runs when nothing gives it a range: 8 B to 1 GiB, nccl-tests' usual -b 8 -e 1G. */
    static final int DEFAULT_MIN_LOG2 = 3;
    static final int DEFAULT_MAX_LOG2 = 30;

    public SizeSweep {
        series = List.copyOf(series);
        ceilings = List.copyOf(ceilings);
        regions = List.copyOf(regions);
    }

    /** A sweep with no ceilings and no flagged ranges. */
    public static SizeSweep of(String title, String yAxisLabel, List<Series> series) {
        return new SizeSweep(title, yAxisLabel, series, List.of(), List.of());
    }

    /** One measured size. */
    public record Point(long bytes, double value) {
        public Point {
            if (bytes < 1) {
                throw new IllegalArgumentException("a message size on a log axis must be at least 1 byte, got " + bytes);
            }
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException("value at " + bytes + " B is " + value + "; leave a size out rather than plot it");
            }
        }
    }

    /** One line; points are kept sorted by size. */
    public record Series(String name, List<Point> points) {
        public Series {
            points = points.stream().sorted(Comparator.comparingLong(Point::bytes)).toList();
        }
    }

    /** A horizontal limit, e.g. "NVLink 4 (450 GB/s)" or "PCIe Gen5 x16". */
    public record Ceiling(String label, double value) {
        public Ceiling {
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException("ceiling '" + label + "' is " + value);
            }
        }
    }

    /** A flagged size range, both ends included; one size alone is a range too. */
    public record Region(long fromBytes, long toBytes, String label) {
        public Region {
            if (fromBytes < 1 || toBytes < fromBytes) {
                throw new IllegalArgumentException("region '" + label + "' runs from " + fromBytes + " to " + toBytes + " B");
            }
        }
    }

    @Override
    public byte[] render(Format format, int width, int height) {
        return Canvas.render(format, width, height, caption(), (g, w, h) -> {
            XYChart c = chart(w, h);
            c.paint(g, w, h);
            shade(c, g);
        });
    }

    Canvas.Caption caption() {
        StringBuilder d = new StringBuilder("x: message size (log2); y: " + yAxisLabel + ".");
        for (Series s : series) {
            d.append("\nseries ").append(s.name()).append(": ").append(s.points().stream()
                    .map(p -> SizeLabels.format(p.bytes()) + " " + number(p.value())).collect(Collectors.joining(", ")));
        }
        ceilings.forEach(c -> d.append("\nceiling ").append(c.label()).append(": ").append(number(c.value())));
        regions.forEach(r -> d.append("\nflagged ").append(r.label()).append(": ").append(SizeLabels.format(r.fromBytes()))
                .append(" to ").append(SizeLabels.format(r.toBytes())));
        return new Canvas.Caption(title, d.toString());
    }

    /** The XChart chart, laid out for the size; package-private so tests can ask where a value lands on screen. */
    XYChart chart(int width, int height) {
        XYChart c = new XYChart(width, height);
        AxesStyle.apply(c.getStyler(), width, height);
        c.setXAxisTitle("message size");
        c.setYAxisTitle(Text.line(yAxisLabel, "value"));
        int[] x = xRange();
        c.getStyler().setXAxisMin((double) x[0]).setXAxisMax((double) x[1]).setYAxisMin(yMin()).setYAxisMax(yMax());
        c.getStyler().setXAxisTickLabelsFormattingFunction(SizeSweep::axisLabel);
        c.getStyler().setMarkerSize(Math.round(AxesStyle.fontSize(width, height) * 0.45f));
        double legendWidth = AxesStyle.placeLegend(c.getStyler(), legend(), width);
        AxesStyle.title(c.getStyler(), c::setTitle, Text.line(title, "size sweep"), width, legendWidth);
        ticks(c, x, width - legendWidth);
        for (int i = 0; i < series.size(); i++) {
            line(c, i, AxesStyle.lineWidth(width, height), x);
        }
        for (int i = 0; i < ceilings.size(); i++) {
            ceiling(c, i, x, width, height);
        }
        for (int i = 0; i < regions.size(); i++) {
            region(c, i, x);
        }
        return c;
    }

    /**
     * Puts x ticks on powers of two, through the first series (disabled: neither drawn nor in the legend). XChart 4.0.3
     * places ticks in one of two ways. When all x values of all series, in order, are equally spaced, it puts ticks
     * on them, every 2nd, 3rd … until labels clear each other by 10%, which is too tight for the widest ones. Otherwise
     * it steps 1, 2, 5 or 10 × 10^k units from a spacing hint, which on a log2 axis means every power of two, every
     * 4th, 32nd or 1024th: "1 KiB, 32 KiB, 1 MiB …" or "1 KiB, 1 MiB, 1 GiB". So: when every power of two gets a
     * label with room to spare, list them all (the first way); else break the equal spacing and hint twice the
     * widest label (the second way). Data at sizes that are not powers of two also lead to the second way; on a
     * range of only a few powers of two that can put ticks between them, labelled with their (rounded) size.
     */
    private static void ticks(XYChart c, int[] x, double room) {
        Font font = c.getStyler().getAxisTickLabelsFont();
        double widest = 0;
        for (int i = x[0]; i <= x[1]; i++) {
            widest = Math.max(widest, AxesStyle.textWidth(axisLabel(i), font));
        }
        // Plot width left after padding, y tick labels and y title, as XChart lays it out (92% of it holds ticks).
        double tickSpace = 0.92 * (room - 2 * c.getStyler().getChartPadding() - 6 * font.getSize2D());
        // XChart draws no ticks at all where the hint exceeds the tick space: keep it well inside on small charts.
        c.getStyler().setXAxisTickMarkSpacingHint((int) Math.max(10, Math.min(2 * widest, tickSpace * 0.35)));
        double[] xs = tickSpace / (x[1] - x[0]) >= 1.5 * widest
                ? IntStream.rangeClosed(x[0], x[1]).asDoubleStream().toArray()
                : new double[] {x[0], x[0] + 0.3};
        XYSeries t = c.addSeries("ticks", xs, new double[xs.length]);
        t.setEnabled(false);
        t.setShowInLegend(false);
    }

    /** Legend entries as {@link AxesStyle#placeLegend} wants them, with the labels the series get below. */
    private Map<String, Boolean> legend() {
        Map<String, Boolean> entries = new LinkedHashMap<>();
        for (int i = 0; i < series.size(); i++) {
            entries.put(seriesLabel(i), false);
        }
        for (int i = 0; i < ceilings.size(); i++) {
            entries.put(ceilingLabel(i), false);
        }
        for (int i = 0; i < regions.size(); i++) {
            entries.put(regionLabel(i), true);
        }
        return entries;
    }

    private String seriesLabel(int i) {
        String name = Text.line(series.get(i).name(), "series " + (i + 1));
        return series.get(i).points().isEmpty() ? name + " (no data)" : name;
    }

    private String ceilingLabel(int i) {
        Ceiling ceiling = ceilings.get(i);
        return Text.line(ceiling.label(), "ceiling") + " (" + number(ceiling.value()) + ")";
    }

    /** The band shows where; the legend says why. */
    private String regionLabel(int i) {
        return Text.line(regions.get(i).label(), "flagged");
    }

    private void line(XYChart c, int i, float lineWidth, int[] x) {
        Series s = series.get(i);
        double[] xs = s.points().stream().mapToDouble(p -> log2(p.bytes())).toArray();
        double[] ys = s.points().stream().mapToDouble(Point::value).toArray();
        if (xs.length == 0) {
            // XChart refuses an empty series; one NaN point draws nothing and keeps the legend entry.
            xs = new double[] {x[0]};
            ys = new double[] {Double.NaN};
        }
        XYSeries xy = c.addSeries("s" + i, xs, ys);
        xy.setLabel(seriesLabel(i));
        xy.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        xy.setLineColor(Palette.series(i));
        xy.setMarkerColor(Palette.series(i));
        xy.setMarker(SeriesMarkers.CIRCLE);
        xy.setLineStyle(new BasicStroke(lineWidth));
    }

    private void ceiling(XYChart c, int i, int[] x, int width, int height) {
        Ceiling ceiling = ceilings.get(i);
        XYSeries xy = c.addSeries("c" + i, new double[] {x[0], x[1]}, new double[] {ceiling.value(), ceiling.value()});
        xy.setLabel(ceilingLabel(i));
        xy.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        xy.setMarker(SeriesMarkers.NONE);
        xy.setLineColor(ceilingColor(i));
        // Dashes of a different length per ceiling, so two ceilings differ without relying on colour.
        float dash = AxesStyle.fontSize(width, height) * 0.6f;
        float[] pattern = {dash * (2 + i), dash};
        // At least 2 px wide: wherever the line falls, one pixel row is fully covered and shows the exact colour.
        xy.setLineStyle(new BasicStroke(AxesStyle.lineWidth(width, height), BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, pattern, 0f));
    }

    private void region(XYChart c, int i, int[] x) {
        Region r = regions.get(i);
        Color fill = regionColor(i);
        // Legend entry only: one point draws no area, PolygonArea gives the legend a filled box.
        XYSeries key = c.addSeries("r" + i, new double[] {x[0]}, new double[] {0});
        key.setLabel(regionLabel(i));
        key.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.PolygonArea);
        key.setMarker(SeriesMarkers.NONE);
        key.setFillColor(fill);
        key.setLineColor(fill);
    }

    /**
     * The flagged ranges as translucent bands over the laid-out chart, so the lines show through them. Painted after
     * the chart, through XChart's public mapping from values to pixels, not as a series, so that their fractional x
     * values don't disturb the power-of-two ticks. A quarter step either side: a single size gets a visible band and
     * the end points sit inside it.
     */
    private void shade(XYChart c, Graphics2D g) {
        int[] x = xRange();
        int top = (int) Math.round(c.getScreenYFromChart(yMax()));
        int bottom = (int) Math.round(c.getScreenYFromChart(yMin()));
        Color before = g.getColor();
        for (int i = 0; i < regions.size(); i++) {
            Region r = regions.get(i);
            int x0 = (int) Math.round(c.getScreenXFromChart(Math.max(x[0], log2(r.fromBytes()) - 0.25)));
            int x1 = (int) Math.round(c.getScreenXFromChart(Math.min(x[1], log2(r.toBytes()) + 0.25)));
            g.setColor(regionColor(i));
            g.fillRect(Math.min(x0, x1), Math.min(top, bottom), Math.max(1, Math.abs(x1 - x0)), Math.abs(bottom - top));
        }
        g.setColor(before);
    }

    static Color ceilingColor(int i) {
        return Palette.CEILINGS.get(i % Palette.CEILINGS.size());
    }

    static Color regionColor(int i) {
        return Palette.REGIONS.get(i % Palette.REGIONS.size());
    }

    /** Whole powers of two that cover every point and region; a default range when there are none. */
    int[] xRange() {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (Series s : series) {
            for (Point p : s.points()) {
                min = Math.min(min, p.bytes());
                max = Math.max(max, p.bytes());
            }
        }
        for (Region r : regions) {
            min = Math.min(min, r.fromBytes());
            max = Math.max(max, r.toBytes());
        }
        if (min == Long.MAX_VALUE) {
            return new int[] {DEFAULT_MIN_LOG2, DEFAULT_MAX_LOG2};
        }
        int lo = 63 - Long.numberOfLeadingZeros(min);
        int hi = 64 - Long.numberOfLeadingZeros(max - 1);
        return new int[] {lo, Math.max(hi, lo + 1)};
    }

    /** Zero, or a round number below the lowest value when one is negative (a difference plotted, say). */
    double yMin() {
        double bottom = series.stream().flatMap(s -> s.points().stream()).mapToDouble(Point::value).min().orElse(0);
        for (Ceiling c : ceilings) {
            bottom = Math.min(bottom, c.value());
        }
        return bottom >= 0 ? 0 : -roundUp(-bottom * 1.05);
    }

    /** A round number above the highest point or ceiling, so a ceiling is never drawn on the plot's edge. */
    double yMax() {
        double top = 0;
        for (Series s : series) {
            for (Point p : s.points()) {
                top = Math.max(top, p.value());
            }
        }
        for (Ceiling c : ceilings) {
            top = Math.max(top, c.value());
        }
        return top <= 0 ? 1 : roundUp(top * 1.05);
    }

    /** The smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8 × 10^k that is at least {@code v}. */
    static double roundUp(double v) {
        double decade = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 10}) {
            if (m * decade >= v * (1 - 1e-12)) {
                return m * decade;
            }
        }
        return 10 * decade;
    }

    /** Tick label for x = log2(bytes). */
    static String axisLabel(double log2) {
        return SizeLabels.format(Math.round(Math.pow(2, log2)));
    }

    static double log2(long bytes) {
        int floor = 63 - Long.numberOfLeadingZeros(bytes);
        // Exact for powers of two, which Math.log can miss by an ulp.
        return Long.bitCount(bytes) == 1 ? floor : Math.log(bytes) / Math.log(2);
    }

    /** Whole numbers from 100 up, three significant digits below: "450", "24.5", "0.731". */
    static String number(double v) {
        if (Math.abs(v) >= 100 || v == Math.rint(v)) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        return new BigDecimal(v).round(new MathContext(3)).stripTrailingZeros().toPlainString();
    }
}
