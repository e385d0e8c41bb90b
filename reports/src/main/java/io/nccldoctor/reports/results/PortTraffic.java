package io.nccldoctor.reports.results;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Bytes sent per link during one measurement (switch or NIC Tx counters, read before and after), and how evenly
 * they were spread: CV = population standard deviation / mean, the load-balance measure of the Japanese field
 * report (0 is perfectly even; 25, 25, 25, 25 GB gives 0, and 70, 20, 5, 5 GB gives 1.07).
 *
 * @param label   what was measured, e.g. "leaf1 uplinks, 5-tuple ECMP"
 * @param txBytes per link, in the order given
 */
public record PortTraffic(String label, Map<String, Long> txBytes, String source) {

    public PortTraffic {
        txBytes = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(txBytes));
    }

    /** CV of the bytes per link; NaN with no link or a zero mean. */
    public double cv() {
        return cv(txBytes.values().stream().mapToDouble(Long::doubleValue).toArray());
    }

    public static double cv(double[] values) {
        return io.nccldoctor.reports.chart.PortBalance.cv(values);
    }
}
