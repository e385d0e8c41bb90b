package io.nccldoctor.reports.baseline;

import io.nccldoctor.reports.chart.SizeLabels;
import java.util.Locale;

/** Numbers as the evidence lines print them. */
final class Fmt {

    private Fmt() {
    }

    static String gb(double v) {
        return String.format(Locale.ROOT, v >= 10000 ? "%,.2f GB/s" : "%.2f GB/s", v);
    }

    static String pct(double f) {
        return String.format(Locale.ROOT, "%.0f %%", f * 100);
    }

    static String num(double v) {
        return v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.2f", v);
    }

    static String size(long bytes) {
        return SizeLabels.format(bytes);
    }
}
