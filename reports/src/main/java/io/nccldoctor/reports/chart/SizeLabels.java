package io.nccldoctor.reports.chart;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** Byte counts in binary units, the way NCCL and nccl-tests size messages: "8 B", "1.5 KiB", "16 GiB". */
public final class SizeLabels {

    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

    private SizeLabels() {
    }

    /**
     * The largest unit the value reaches; integral when the count divides exactly (1 << 34 is "16 GiB"), otherwise
     * rounded half-up to at most two decimals (1536 is "1.5 KiB", 1500 is "1.46 KiB"). Decimal point, any locale.
     */
    public static String format(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("a byte count cannot be negative: " + bytes);
        }
        int unit = 0;
        while (unit + 1 < UNITS.length && bytes >= 1L << (10 * (unit + 1))) {
            unit++;
        }
        long divisor = 1L << (10 * unit);
        if (bytes % divisor == 0) {
            return bytes / divisor + " " + UNITS[unit];
        }
        // bytes / 2^k always terminates in decimal, so the division is exact before rounding.
        BigDecimal value = new BigDecimal(bytes).divide(new BigDecimal(divisor)).setScale(2, RoundingMode.HALF_UP);
        if (value.compareTo(BigDecimal.valueOf(1024)) >= 0 && unit + 1 < UNITS.length) {
            // 1048575 B rounds to 1024.00 KiB: say 1 MiB instead.
            value = value.divide(BigDecimal.valueOf(1024)).setScale(2, RoundingMode.HALF_UP);
            unit++;
        }
        return value.stripTrailingZeros().toPlainString() + " " + UNITS[unit];
    }

    /** The unit of 1024^power bytes: 0 is "B", 3 is "GiB". */
    static String unit(int power) {
        return UNITS[power];
    }
}
