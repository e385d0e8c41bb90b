package io.nccldoctor.reports.results;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.Stats;
import io.nccldoctor.reports.chart.SizeLabels;
import java.util.List;
import java.util.Locale;

/** Small numeric helpers the detectors share. */
final class SweepMath {

    private SweepMath() {
    }

    /** busbw below this is nccl-tests' rounded zero (tiny sizes), not a measurement to compare. */
    static final double ZERO = 0.005;

    /** The median; NaN for no values or a NaN among them. */
    static double median(double[] v) {
        return Stats.median(v);
    }

    static double busBw(NcclTestsOutput.Row r) {
        return r.outOfPlace().busBwGBps();
    }

    /** A run [from, to] of consecutive rows, inclusive. */
    record Run(int from, int to, double median, double spread) {
        int length() {
            return to - from + 1;
        }
    }

    /**
     * The longest run of consecutive rows (sizes ascending, busbw above rounded zero) whose out-of-place busbw
     * stays within {@code band} of the run's median: (max - min) / median &lt;= band.
     */
    static Run flattest(List<NcclTestsOutput.Row> rows, double band) {
        Run best = null;
        for (int i = 0; i < rows.size(); i++) {
            if (busBw(rows.get(i)) < ZERO) {
                continue;
            }
            double lo = busBw(rows.get(i));
            double hi = lo;
            int j = i;
            while (j + 1 < rows.size()) {
                double v = busBw(rows.get(j + 1));
                double nlo = Math.min(lo, v);
                double nhi = Math.max(hi, v);
                if (v < ZERO || (nhi - nlo) > band * median(values(rows, i, j + 1))) {
                    break;
                }
                lo = nlo;
                hi = nhi;
                j++;
            }
            double m = median(values(rows, i, j));
            Run r = new Run(i, j, m, m == 0 ? 0 : (hi - lo) / m);
            if (best == null || r.length() > best.length()) {
                best = r;
            }
        }
        return best;
    }

    static double[] values(List<NcclTestsOutput.Row> rows, int from, int to) {
        double[] v = new double[to - from + 1];
        for (int k = from; k <= to; k++) {
            v[k - from] = busBw(rows.get(k));
        }
        return v;
    }

    /** "1 KiB", "178,956,968 B" style sizes for evidence lines. */
    static String size(long bytes) {
        return SizeLabels.format(bytes);
    }

    static String gb(double v) {
        return String.format(Locale.ROOT, "%.2f GB/s", v);
    }

    static String pct(double f) {
        return String.format(Locale.ROOT, "%.0f %%", f * 100);
    }

    static String num(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    /** "allgather (3 ranks on 3 nodes, NCCL_PROTO=LL128) from FILE". */
    static String describe(Sweep s) {
        StringBuilder b = new StringBuilder("'" + s.label() + "'");
        b.append(" (").append(s.collective().orElse("collective unknown"));
        if (s.ranks().isValue()) {
            b.append(", ").append(s.ranks().get()).append(s.ranks().get() == 1 ? " rank" : " ranks");
        }
        if (s.nodes().isValue()) {
            b.append(" on ").append(s.nodes().get()).append(s.nodes().get() == 1 ? " node" : " nodes");
        }
        s.env().forEach((k, v) -> b.append(", ").append(k).append('=').append(v));
        return b.append(')').toString();
    }
}
