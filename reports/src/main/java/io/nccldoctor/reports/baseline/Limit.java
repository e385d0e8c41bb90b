package io.nccldoctor.reports.baseline;

import java.util.List;

/**
 * An upper bound on a run's busbw: a per-GPU link, the nodes' NICs, a baseline's high end, or what any GPU can move.
 *
 * @param name     "nvlink4 (NVLink 4, 18 links per GPU: 450 GB/s per direction)", "node17: NIC line rate"
 * @param gbps     the bound as it applies to this run, mechanisms included
 * @param evidence where it comes from and what raised it, a line each
 */
public record Limit(String name, double gbps, List<String> evidence) {

    public Limit {
        evidence = List.copyOf(evidence);
    }
}
