package io.nccldoctor.reports.chart;

import java.awt.Font;
import java.awt.font.FontRenderContext;
import java.awt.font.LineMetrics;

/** Text measured for layout, independent of the Graphics2D that will draw it (PNG raster or SVG). */
final class Measure {

    /** Fractional metrics, as {@link Canvas} sets them: text measured here is as wide as text drawn. */
    private static final FontRenderContext FRC = new FontRenderContext(null, true, true);

    static {
        Headless.ensure();
    }

    private Measure() {
    }

    /** {@code s}, cut with an ellipsis where it would run past {@code max}. */
    static String fit(String s, Font f, double max) {
        if (width(s, f) <= max) {
            return s;
        }
        int n = s.length();
        while (n > 0 && width(s.substring(0, n) + "…", f) > max) {
            n--;
            if (n > 0 && Character.isLowSurrogate(s.charAt(n))) {
                n--;
            }
        }
        return n == 0 ? "" : s.substring(0, n) + "…";
    }

    static double width(String s, Font f) {
        return s.isEmpty() ? 0 : f.getStringBounds(s, FRC).getWidth();
    }

    private static LineMetrics metrics(Font f) {
        return f.getLineMetrics("Xg", FRC);
    }

    static double ascent(Font f) {
        return metrics(f).getAscent();
    }

    static double descent(Font f) {
        return metrics(f).getDescent();
    }

    static double lineHeight(Font f) {
        return metrics(f).getHeight();
    }
}
