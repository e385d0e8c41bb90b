package io.nccldoctor.reports.chart;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.font.FontRenderContext;
import java.awt.font.TextLayout;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;

/** The look shared by the XChart-drawn charts: white, quiet grid, legend outside the plot, fonts sized to the image. */
final class AxesStyle {

    /** XChart's legend box sample and the margin around the legend (Legend_.BOX_SIZE, LEGEND_MARGIN in 4.0.3). */
    private static final int LEGEND_BOX = 20;
    private static final int LEGEND_MARGIN = 6;

    static {
        Headless.ensure();
    }

    private AxesStyle() {
    }

    static void apply(AxesChartStyler s, int width, int height) {
        float base = fontSize(width, height);
        s.setChartBackgroundColor(Color.WHITE);
        s.setPlotBackgroundColor(Color.WHITE);
        s.setPlotBorderColor(Palette.MUTED);
        s.setPlotGridLinesColor(Palette.GRID);
        s.setPlotGridLinesStroke(new BasicStroke(1f));
        s.setChartFontColor(Palette.TEXT);
        s.setAxisTickLabelsColor(Palette.TEXT);
        s.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, Math.round(base * 1.3f)));
        s.setChartTitleBoxVisible(false);
        s.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, Math.round(base)));
        s.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, Math.round(base * 0.92f)));
        s.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, Math.round(base * 0.92f)));
        s.setLegendBorderColor(Palette.GRID);
        s.setChartPadding(Math.max(8, Math.round(base)));
        s.setYAxisTickMarkSpacingHint(Math.round(base * 3.5f));
        s.setYAxisLabelAlignment(AxesChartStyler.TextAlignment.Right);
        // A decimal point whatever the JVM's locale ("12,5 GB/s" would read as two numbers in a ticket).
        s.setLocale(Locale.ROOT);
    }

    /**
     * Puts the legend outside the plot, so no line or band is ever hidden behind it: in one row below the plot when
     * the entries fit across (XChart does not wrap them), otherwise in a column to the right.
     *
     * @param entries legend labels with whether each is drawn as a box (true) or a line sample
     * @return the width the legend takes from the plot (0 when it sits below)
     */
    static double placeLegend(Styler s, Map<String, Boolean> entries, int width) {
        Font font = s.getLegendFont();
        int pad = s.getLegendPadding();
        double across = pad;
        double widest = 0;
        for (Map.Entry<String, Boolean> e : entries.entrySet()) {
            // XChart cuts a legend text at 45% of the chart width.
            double text = Math.min(textWidth(e.getKey(), font), width * 0.45);
            double sample = e.getValue() ? LEGEND_BOX : s.getLegendSeriesLineLength();
            across += text + sample + 2 * pad;
            widest = Math.max(widest, text + sample);
        }
        if (across <= width - 2 * s.getChartPadding()) {
            s.setLegendPosition(Styler.LegendPosition.OutsideS);
            s.setLegendLayout(Styler.LegendLayout.Horizontal);
            return 0;
        }
        s.setLegendPosition(Styler.LegendPosition.OutsideE);
        s.setLegendLayout(Styler.LegendLayout.Vertical);
        return widest + 3 * pad + LEGEND_MARGIN;
    }

    /** Width of the outline of {@code text}, measured as XChart measures labels (antialiased, integer metrics). */
    static double textWidth(String text, Font font) {
        if (text.isEmpty()) {
            return 0;
        }
        return new TextLayout(text, font, new FontRenderContext(null, true, false)).getOutline(null).getBounds2D().getWidth();
    }

    /**
     * Sets the chart title, cut with an ellipsis where it would run off the image: XChart centres it over the plot,
     * not the image, so a legend on the right shifts it left.
     *
     * @param legendWidth what {@link #placeLegend} returned
     */
    static void title(Styler s, Consumer<String> setTitle, String title, int width, double legendWidth) {
        setTitle.accept(Measure.fit(title, s.getChartTitleFont(), width - legendWidth - 2.0 * s.getChartPadding()));
    }

    /** Width of data lines: 2 px at the default size, thicker as the image grows. */
    static float lineWidth(int width, int height) {
        return Math.max(2f, fontSize(width, height) / 6.5f);
    }

    /** 13 px at 900×500, scaled with the smaller side, kept between 10 and 22. */
    static float fontSize(int width, int height) {
        return Math.max(10f, Math.min(22f, Math.min(width / 900f, height / 500f) * 13f));
    }
}
