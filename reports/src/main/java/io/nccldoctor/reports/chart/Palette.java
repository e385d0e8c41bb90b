package io.nccldoctor.reports.chart;

import java.awt.Color;
import java.util.List;

/**
 * Colours shared by the charts. Data lines use the Okabe–Ito set, which stays distinguishable with the common
 * colour-vision deficiencies; reference lines and flags use colours outside it, so no mark can be read as data.
 */
final class Palette {

    static {
        // Before the first Color below: its class initialiser is where AWT decides whether it is headless.
        Headless.ensure();
    }

    private Palette() {
    }

    /** Okabe & Ito (2008), "Color Universal Design"; yellow left out, it vanishes on white. */
    static final List<Color> SERIES = List.of(
            new Color(0x0072B2), new Color(0xD55E00), new Color(0x009E73), new Color(0xCC79A7),
            new Color(0xE69F00), new Color(0x56B4E9), new Color(0x000000));

    /** Ceilings are dashed and in these greys and browns, never a series colour. */
    static final List<Color> CEILINGS = List.of(new Color(0x4D4D4D), new Color(0x8C510A), new Color(0x7F7F7F), new Color(0x543005));

    /** Flagged size ranges: translucent so the data stays visible through the band. */
    static final List<Color> REGIONS = List.of(new Color(230, 25, 75, 46), new Color(145, 30, 180, 46), new Color(240, 130, 0, 56));

    static final Color TEXT = new Color(0x202020);
    static final Color GRID = new Color(0xDDDDDD);
    static final Color MUTED = new Color(0x606060);

    /** A failed measurement: red stripes on pale pink, far from every colour of {@link #ramp}. */
    static final Color FAILED_BASE = new Color(0xFBE3E3);
    static final Color FAILED_STRIPE = new Color(0xD73027);
    static final Color FAILED_TEXT = new Color(0x7F0000);
    /** Not measured: flat light grey, also outside the ramp. */
    static final Color NOT_MEASURED = new Color(0xE4E4E4);

    /** Viridis at nine stops (matplotlib's; perceptually uniform, no greys and no reds). */
    private static final int[] VIRIDIS = {0x440154, 0x472D7B, 0x3B528B, 0x2C728E, 0x21918C, 0x28AE80, 0x5EC962, 0xADDC30, 0xFDE725};

    /** A colour from 0xRRGGBB, for tables that keep colours as numbers (see {@link PathType}). */
    static Color rgb(int rgb) {
        return new Color(rgb);
    }

    static Color series(int i) {
        return SERIES.get(i % SERIES.size());
    }

    /** The colour for {@code t} in 0..1 (clamped), dark purple for low, yellow for high. */
    static Color ramp(double t) {
        double x = Math.max(0, Math.min(1, t)) * (VIRIDIS.length - 1);
        int i = Math.min((int) x, VIRIDIS.length - 2);
        double f = x - i;
        Color a = new Color(VIRIDIS[i]);
        Color b = new Color(VIRIDIS[i + 1]);
        return new Color(mix(a.getRed(), b.getRed(), f), mix(a.getGreen(), b.getGreen(), f), mix(a.getBlue(), b.getBlue(), f));
    }

    private static int mix(int a, int b, double f) {
        return (int) Math.round(a + (b - a) * f);
    }

    /** Black or white, whichever reads better on {@code fill} (relative luminance, ITU-R BT.709 weights). */
    static Color inkOn(Color fill) {
        double y = 0.2126 * linear(fill.getRed()) + 0.7152 * linear(fill.getGreen()) + 0.0722 * linear(fill.getBlue());
        return y > 0.22 ? TEXT : Color.WHITE;
    }

    private static double linear(int channel) {
        double c = channel / 255.0;
        return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
    }
}
