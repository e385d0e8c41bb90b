package io.nccldoctor.reports.results;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.reports.baseline.Baselines;
import io.nccldoctor.reports.baseline.Nics;
import io.nccldoctor.reports.baseline.Note;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Everything one report is made of: node snapshots (captures, or the snapshot inside a preflight/topo/gdr JSON),
 * measured sweeps, the ceilings computed from the snapshots (or given by a bundle), and per-link traffic.
 *
 * @param title     the report's title
 * @param example   true for the shipped example data, which every renderer labels as such
 * @param createdAt when the report was made (ISO-8601); fixed by tests
 * @param inputs    the inputs as given on the command line
 * @param ncclLogs  NCCL debug logs by input name: NCCL_DEBUG=INFO output, or the NCCL lines of an nccl-tests output
 * @param notes     what the inputs beside the sweeps show about how they ran (nvidia-smi topo, lspci, captures, logs
 *                  in files of their own), each naming its file; a sweep's own NCCL lines are read with the sweep
 * @param nics      the NICs the inputs show (captures, a bundle's hardware entry)
 * @param skipped   files of a folder that are none of the inputs report reads, with why: counted, never silently dropped
 * @param baselines the published figures the sweeps are judged against (configs/baselines.yaml)
 */
public record ResultSet(String title, boolean example, String createdAt, List<String> inputs, List<Snapshot> nodes,
                        List<Sweep> sweeps, List<Ceiling> ceilings, List<PortTraffic> traffic,
                        Map<String, NcclLog> ncclLogs, List<Note> notes, List<Nics> nics, List<String> skipped,
                        @JsonIgnore Baselines baselines) {

    public ResultSet {
        inputs = List.copyOf(inputs);
        nodes = List.copyOf(nodes);
        sweeps = List.copyOf(sweeps);
        ceilings = List.copyOf(ceilings);
        traffic = List.copyOf(traffic);
        ncclLogs = Collections.unmodifiableMap(new LinkedHashMap<>(ncclLogs));
        notes = notes == null ? List.of() : List.copyOf(notes);
        nics = nics == null ? List.of() : List.copyOf(nics);
        skipped = skipped == null ? List.of() : List.copyOf(skipped);
        baselines = baselines == null ? Baselines.none() : baselines;
    }

    /** With NCCL debug logs, without notes from other inputs or baselines. */
    public ResultSet(String title, boolean example, String createdAt, List<String> inputs, List<Snapshot> nodes, List<Sweep> sweeps,
                     List<Ceiling> ceilings, List<PortTraffic> traffic, Map<String, NcclLog> ncclLogs) {
        this(title, example, createdAt, inputs, nodes, sweeps, ceilings, traffic, ncclLogs, List.of(), List.of(), List.of(), null);
    }

    /** Without NCCL debug logs. */
    public ResultSet(String title, boolean example, String createdAt, List<String> inputs, List<Snapshot> nodes, List<Sweep> sweeps,
                     List<Ceiling> ceilings, List<PortTraffic> traffic) {
        this(title, example, createdAt, inputs, nodes, sweeps, ceilings, traffic, Map.of());
    }

    /** The same inputs judged against other baselines. */
    public ResultSet withBaselines(Baselines b) {
        return new ResultSet(title, example, createdAt, inputs, nodes, sweeps, ceilings, traffic, ncclLogs, notes, nics, skipped, b);
    }

    /** The lowest ceiling: what the narrowest link allows. */
    public Optional<Ceiling> narrowest() {
        return ceilings.stream().min(Comparator.comparingDouble(Ceiling::busBwGBps));
    }
}
