package io.nccldoctor.reports.compare;

import io.nccldoctor.reports.chart.SizeLabels;
import java.util.Locale;

/** Numbers as every format of a comparison prints them: decimal point whatever the locale. */
final class Fmt {

    private Fmt() {
    }

    /** busbw, two decimals as nccl-tests prints it. */
    static String gb(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    /** A ratio B/A: "4.92". */
    static String ratio(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    /** "0.100", or "&lt; 0.001". */
    static String p(double v) {
        return v < 0.001 ? "< 0.001" : String.format(Locale.ROOT, "%.3f", v);
    }

    static String interval(Stats.Interval i) {
        return ratio(i.low()) + " to " + ratio(i.high());
    }

    static String size(long bytes) {
        return SizeLabels.format(bytes);
    }

    static String runs(int n) {
        return n + (n == 1 ? " run" : " runs");
    }
}
