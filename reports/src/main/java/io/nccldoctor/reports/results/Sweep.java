package io.nccldoctor.reports.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.Fact;
import io.nccldoctor.reports.baseline.Hardware;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One measured sweep: the rows of one run of one collective in one environment, from nccl-tests text or -J
 * output, or from `nccl-doctor run --json`.
 *
 * @param label       what the reader calls it: "allgather", "allgather NCCL_PROTO=LL128", a file name
 * @param source      the file it came from
 * @param tool        "nccl-tests" (text or -J) or "nccl-doctor run"
 * @param collective  allreduce, allgather, alltoall, reducescatter, broadcast, reduce, sendrecv; absent when the
 *                    output does not say
 * @param ranks       the world size (nccl-tests' "# Rank" lines, or the run's world size)
 * @param nodes       how many hosts the ranks are on
 * @param env         NCCL_* variables the run had, when known (a bundle says; nccl-tests output does not)
 * @param ncclVersion the NCCL library the run used, when the output says
 * @param rows        as nccl-tests prints them
 * @param aligned     per size in bytes, whether every per-rank or per-peer chunk started on a 16-byte boundary;
 *                    empty when the tool does not record it
 * @param repeat      0 for the first sweep with this label, 1 for the next: repeated measurements of one setting
 * @param hardware    what the output shows of the hardware: GPU model, ranks, hosts, the pasted command line's settings
 * @param errors      the errors the run printed, worded: a CUDA or NCCL call that failed (the run stopped there) with
 *                    nccl-tests' relay lines, NCCL's last error; empty when it printed none
 */
public record Sweep(String label, String source, String tool, Fact<String> collective, Fact<Integer> ranks, Fact<Integer> nodes,
                    Map<String, String> env, Fact<String> ncclVersion, List<NcclTestsOutput.Row> rows, Map<Long, Boolean> aligned,
                    int repeat, Hardware hardware, @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> errors) {

    public Sweep {
        env = Collections.unmodifiableMap(new TreeMap<>(env)); // sorted: the same bytes every run
        rows = List.copyOf(rows);
        aligned = Collections.unmodifiableMap(new TreeMap<>(aligned));
        hardware = hardware == null ? Hardware.unknown("the result records no device lines") : hardware;
        errors = errors == null ? List.of() : List.copyOf(errors);
    }

    /** A sweep whose output records no failure. */
    public Sweep(String label, String source, String tool, Fact<String> collective, Fact<Integer> ranks, Fact<Integer> nodes,
                 Map<String, String> env, Fact<String> ncclVersion, List<NcclTestsOutput.Row> rows, Map<Long, Boolean> aligned,
                 int repeat, Hardware hardware) {
        this(label, source, tool, collective, ranks, nodes, env, ncclVersion, rows, aligned, repeat, hardware, List.of());
    }

    /** A sweep whose output shows no hardware (a `run --json`, a sweep result). */
    public Sweep(String label, String source, String tool, Fact<String> collective, Fact<Integer> ranks, Fact<Integer> nodes,
                 Map<String, String> env, Fact<String> ncclVersion, List<NcclTestsOutput.Row> rows, Map<Long, Boolean> aligned,
                 int repeat) {
        this(label, source, tool, collective, ranks, nodes, env, ncclVersion, rows, aligned, repeat, null);
    }

    /** The row of a size, if measured. */
    public Optional<NcclTestsOutput.Row> row(long sizeBytes) {
        return rows.stream().filter(r -> r.sizeBytes() == sizeBytes).findFirst();
    }

    /** The out-of-place bus bandwidth at the largest size, the figure a plateau is judged by. */
    public Optional<NcclTestsOutput.Row> largest() {
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(rows.size() - 1));
    }

    /** The same sweep under another label or repeat index. */
    public Sweep withLabel(String newLabel, int newRepeat) {
        return new Sweep(newLabel, source, tool, collective, ranks, nodes, env, ncclVersion, rows, aligned, newRepeat, hardware, errors);
    }
}
