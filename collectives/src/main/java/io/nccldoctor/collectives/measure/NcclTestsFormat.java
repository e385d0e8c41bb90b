package io.nccldoctor.collectives.measure;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/**
 * A measurement printed the way nccl-tests prints its table (src/util.cu, reference/nccl-internals.md §2.2): the
 * same header lines, columns, widths, number fitting and footer, so that people and the scripts that read
 * nccl-tests output can read it. Lines of our own start with '#', which those scripts skip.
 */
public final class NcclTestsFormat {

    private NcclTestsFormat() {
    }

    public static String render(Measurement.Result r) {
        NcclTestsOutput o = r.asNcclTestsOutput();
        StringBuilder s = new StringBuilder();
        s.append("# nccl-doctor run: ").append(r.plan().collective().name()).append(", NCCL ").append(r.ncclVersion()).append(", ")
                .append(r.worldSize()).append(" ranks\n#\n");
        s.append("#                                                              out-of-place                       in-place          \n");
        s.append("#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n");
        s.append("#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       \n");
        long wrong = 0;
        boolean checked = false;
        for (Measurement.SizeResult z : r.sizes()) {
            NcclTestsOutput.Row row = z.row();
            s.append(String.format(Locale.ROOT, "%12d  %12d  %8s  %6s  %6d", row.sizeBytes(), row.count(), row.type(),
                    row.redop().orElse(""), row.root().orElse(-1)));
            for (NcclTestsOutput.Placement p : new NcclTestsOutput.Placement[] {row.outOfPlace(), row.inPlace().orElse(row.outOfPlace())}) {
                s.append(String.format(Locale.ROOT, "  %7s  %6s  %6s  %6s", fit(p.timeUs(), 7), fit(p.algBwGBps(), 6), fit(p.busBwGBps(), 6),
                        p.wrong().isValue() ? g(p.wrong().get()) : "N/A"));
                if (p.wrong().isValue()) {
                    checked = true;
                    wrong += p.wrong().get();
                }
            }
            s.append('\n');
        }
        if (checked) {
            s.append("# Out of bounds values : ").append(wrong).append(wrong == 0 ? " OK" : " FAILED").append('\n');
        }
        s.append("# Avg bus bandwidth    : ").append(o.avgBusBwGBps().isValue() ? g(o.avgBusBwGBps().get()) : "N/A").append('\n');
        s.append("#\n");
        return s.toString();
    }

    /** getFloatStr: %.2f, else %.1f, else %.0f, else %.1e, whichever fits the width first. */
    static String fit(double v, int width) {
        for (String f : new String[] {"%.2f", "%.1f", "%.0f"}) {
            String t = String.format(Locale.ROOT, f, v);
            if (t.length() <= width) {
                return t;
            }
        }
        return String.format(Locale.ROOT, "%.1e", v);
    }

    /** C's %g: 6 significant digits, trailing zeros dropped, exponent form below 1e-4 or from 1e6. */
    static String g(double v) {
        if (v == 0 || Double.isNaN(v) || Double.isInfinite(v)) {
            return v == 0 ? "0" : Double.isNaN(v) ? "nan" : v > 0 ? "inf" : "-inf";
        }
        BigDecimal d = new BigDecimal(v).round(new MathContext(6, java.math.RoundingMode.HALF_EVEN)); // glibc rounds exact ties to even
        int exp = d.precision() - d.scale() - 1;
        if (exp < -4 || exp >= 6) {
            String m = d.movePointLeft(exp).stripTrailingZeros().toPlainString();
            return m + String.format(Locale.ROOT, "e%s%02d", exp < 0 ? "-" : "+", Math.abs(exp));
        }
        return d.stripTrailingZeros().toPlainString();
    }
}
