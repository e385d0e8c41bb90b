package io.nccldoctor.reports.baseline;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.Fact;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One measured sweep with everything the input shows about how it ran: its own hardware (device lines, command line),
 * the notes of its NCCL lines and of the inputs given with it (logs, nvidia-smi topo, lspci, captures), and the NICs.
 *
 * @param label      as the report names the sweep
 * @param source     its file
 * @param collective allreduce, allgather …, absent when the output does not say
 * @param env        NCCL_* settings: the bundle's, then the pasted command line's
 * @param rows       as printed
 * @param ncclVersion the NCCL the run reports
 * @param repeat     0 for the first run under its label, 1 for the next (repeated measurements of one setting)
 */
public record Run(String label, String source, Fact<String> collective, Hardware hardware, Map<String, String> env, List<Note> notes,
                  Optional<Nics> nics, List<NcclTestsOutput.Row> rows, Fact<String> ncclVersion, int repeat) {

    public Run {
        env = Collections.unmodifiableMap(new TreeMap<>(env));
        notes = List.copyOf(notes);
        rows = List.copyOf(rows);
    }

    /** The notes that may explain a low number, in input order. */
    public List<Note> causes() {
        return notes.stream().filter(n -> n.kind().cause()).toList();
    }

    public boolean has(Note.Kind kind) {
        return notes.stream().anyMatch(n -> n.is(kind));
    }

    /**
     * NVLS pinned away: NCCL_NVLS_ENABLE=0, or NCCL_ALGO set without NVLS in it (2.24+ syntax "allreduce:ring" counts,
     * reference/nccl-internals.md §6).
     */
    public boolean nvlsOff() {
        String enable = env.get("NCCL_NVLS_ENABLE");
        String algo = env.get("NCCL_ALGO");
        return "0".equals(enable) || algo != null && !algo.toUpperCase(Locale.ROOT).contains("NVLS");
    }

    /** NCCL_ALGO pins the ring (no tree, no NVLS). */
    public boolean ringPinned() {
        String algo = env.get("NCCL_ALGO");
        return algo != null && algo.toUpperCase(Locale.ROOT).replaceAll("^[A-Z]+:", "").equals("RING");
    }

    /** "'all_reduce.txt' (allreduce, 8 x NVIDIA H100 80GB HBM3 on 1 node)". */
    public String describe() {
        return "'" + label + "' (" + collective.orElse("collective unknown") + ", " + hardware.summary() + ")";
    }
}
