package io.nccldoctor.reports.results;

import java.util.List;

/**
 * A physical limit on bus bandwidth, drawn on the charts and judged against: the NICs' line rate, or the PCIe
 * link in front of them when that is narrower.
 *
 * @param label     as the chart legend shows it, e.g. "mlx5_0 PCIe Gen4 x8 slot"
 * @param busBwGBps the limit in nccl-tests' unit, GB/s (1e9 bytes), per rank
 * @param link      the link that sets it, e.g. "0000:01:00.0 (Gen4 x8)" or "mlx5_0/1 + mlx5_1/1 (2 x 100 Gbit/s)"
 * @param evidence  how it was computed, each line with its source
 * @param kind      what sets it
 */
public record Ceiling(String label, double busBwGBps, String link, List<String> evidence, Kind kind) {

    public enum Kind {
        /** The NICs' port rates added up: what the fabric could carry. */
        LINE_RATE,
        /** A PCIe link in front of the NICs, narrower than their line rate. */
        PCIE,
        /** Given by a bundle (report.yaml), with its own reasoning. */
        GIVEN
    }

    public Ceiling {
        evidence = List.copyOf(evidence);
    }
}
