package io.nccldoctor.pcie;

import io.nccldoctor.core.Fact;

/**
 * A device's upstream PCIe link as sysfs reports it (current_link_speed/width, max_link_speed/width).
 * Speeds are GT/s per lane ("8.0 GT/s PCIe" → 8.0); integrated devices without a link report absent.
 */
public record PciLink(Fact<Double> speedGTps, Fact<Integer> width, Fact<Double> maxSpeedGTps, Fact<Integer> maxWidth) {

    /** The PCIe generation of a per-lane rate: 2.5 → 1, 5 → 2, 8 → 3, 16 → 4, 32 → 5, 64 → 6, 128 → 7. */
    public static Fact<Integer> generation(double gtps) {
        double[] rates = {2.5, 5, 8, 16, 32, 64, 128};
        for (int i = 0; i < rates.length; i++) {
            if (Math.abs(rates[i] - gtps) < 0.01) {
                return Fact.of(i + 1);
            }
        }
        return Fact.error("no PCIe generation runs at " + gtps + " GT/s");
    }

    /** "8.0 GT/s PCIe" (kernel ≥ 5.7), "8 GT/s" (older); "Unknown" when the device has no link. */
    static Fact<Double> parseSpeed(String raw) {
        String s = raw.strip();
        int gt = s.indexOf("GT/s");
        if (gt <= 0) {
            return Fact.absent("link speed '" + s + "' (no link, or an integrated device)");
        }
        try {
            return Fact.of(Double.parseDouble(s.substring(0, gt).strip()));
        } catch (NumberFormatException e) {
            return Fact.error("unreadable link speed '" + s + "'");
        }
    }

    static Fact<Integer> parseWidth(String raw) {
        try {
            int w = Integer.parseInt(raw.strip());
            return w == 0 ? Fact.absent("link width 0: the link is down or the device has none") : Fact.of(w);
        } catch (NumberFormatException e) {
            return Fact.error("unreadable link width '" + raw.strip() + "'");
        }
    }
}
