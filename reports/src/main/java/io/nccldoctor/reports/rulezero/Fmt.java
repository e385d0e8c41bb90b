package io.nccldoctor.reports.rulezero;

import io.nccldoctor.reports.chart.SizeLabels;
import java.util.Locale;

/** Numbers in the report's sentences and tables: decimal point and comma grouping whatever the default locale. */
final class Fmt {

    private Fmt() {
    }

    /** Derived numbers (ratios, interpolated busbw) are kept to 4 decimals, so that the JSON reads the same everywhere. */
    static double round4(double v) {
        return Math.round(v * 1e4) / 1e4;
    }

    static String gb(double v) {
        return String.format(Locale.ROOT, "%.2f GB/s", v);
    }

    static String num(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    static String pct(double f) {
        return String.format(Locale.ROOT, "%.0f %%", f * 100);
    }

    /** 178956968 as "178,956,968". */
    static String grouped(long v) {
        return String.format(Locale.ROOT, "%,d", v);
    }

    /** "512 MiB (536,870,904 B)". */
    static String size(long bytes) {
        return SizeLabels.format(bytes) + " (" + grouped(bytes) + " B)";
    }

    static String ranks(int n) {
        return n + (n == 1 ? " rank" : " ranks");
    }
}
