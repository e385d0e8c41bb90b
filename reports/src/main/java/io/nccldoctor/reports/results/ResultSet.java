package io.nccldoctor.reports.results;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.core.Snapshot;
import java.util.List;

/**
 * Everything one report is made of: node snapshots (captures, or the snapshot inside a preflight/topo/gdr JSON),
 * measured sweeps, the ceilings computed from the snapshots (or given by a bundle), and per-link traffic.
 *
 * @param title     the report's title
 * @param example   true for the shipped example data, which every renderer labels as such
 * @param createdAt when the report was made (ISO-8601); fixed by tests
 * @param inputs    the inputs as given on the command line
 * @param ncclLogs  NCCL debug logs by input name: NCCL_DEBUG=INFO output, or the NCCL lines of an nccl-tests output
 */
public record ResultSet(String title, boolean example, String createdAt, List<String> inputs, List<Snapshot> nodes,
                        List<Sweep> sweeps, List<Ceiling> ceilings, List<PortTraffic> traffic,
                        java.util.Map<String, NcclLog> ncclLogs) {

    public ResultSet {
        inputs = List.copyOf(inputs);
        nodes = List.copyOf(nodes);
        sweeps = List.copyOf(sweeps);
        ceilings = List.copyOf(ceilings);
        traffic = List.copyOf(traffic);
        ncclLogs = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(ncclLogs));
    }

    /** Without NCCL debug logs. */
    public ResultSet(String title, boolean example, String createdAt, List<String> inputs, List<Snapshot> nodes, List<Sweep> sweeps,
                     List<Ceiling> ceilings, List<PortTraffic> traffic) {
        this(title, example, createdAt, inputs, nodes, sweeps, ceilings, traffic, java.util.Map.of());
    }

    /** The lowest ceiling: what the narrowest link allows. */
    public java.util.Optional<Ceiling> narrowest() {
        return ceilings.stream().min(java.util.Comparator.comparingDouble(Ceiling::busBwGBps));
    }
}
