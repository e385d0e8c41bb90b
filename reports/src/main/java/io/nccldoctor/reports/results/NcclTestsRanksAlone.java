package io.nccldoctor.reports.results;

import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import io.nccldoctor.reports.baseline.DeviceLine;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One run of nccl-tests whose device lines name a rank more than once: each process printed its own header as rank 0
 * of a world of its own. nccl-tests built without MPI=1 and started by mpirun does this: without MPI_SUPPORT, run() in
 * src/common.cu keeps totalProcs = 1 and proc = 0, and each process makes its own ncclUniqueId for a world of its own
 * GPUs, so no two processes talk (NVIDIA/nccl-tests#107: "Rank 0" on both hosts of an `mpirun -np 2`). Runs pasted one after another are read as runs
 * of their own before this is judged, so a repeat within one run's device lines is this.
 */
public final class NcclTestsRanksAlone implements ResultRule {

    static final RuleInfo INFO = new RuleInfo("TESTS_RANKS_ALONE", Severity.ERROR,
            "nccl-tests processes each ran alone: a rank is listed by several processes",
            "nccl-tests lists every rank of its world once ('# Rank 0 … Rank n-1'). When the same rank appears on several "
                    + "hosts or processes of one run, each process printed its own header for a world of its own: the "
                    + "binaries were built without MPI=1 and started by mpirun or srun, so every process ran the collective "
                    + "on its own GPUs and no two processes communicated. The bandwidths measure one process's GPUs, "
                    + "not the network or the job's world size.",
            "the device lines of each nccl-tests run ('# Rank N … Pid … on HOST device D')",
            "Rebuild nccl-tests with MPI support (make MPI=1 MPI_HOME=…) and run it again under the same launcher; "
                    + "the header then lists ranks 0 to n-1 once, and its busbw spans all processes.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(ResultSet results, RuleContext context) {
        List<Finding> found = new ArrayList<>();
        for (Sweep s : results.sweeps()) {
            Map<Integer, List<String>> hosts = new TreeMap<>();
            for (DeviceLine d : s.hardware().devices()) {
                hosts.computeIfAbsent(d.rank(), r -> new ArrayList<>()).add(d.host());
            }
            hosts.values().removeIf(h -> h.size() < 2);
            if (hosts.isEmpty()) {
                continue;
            }
            List<String> evidence = new ArrayList<>();
            hosts.forEach((rank, on) -> evidence.add("Rank " + rank + " is listed " + on.size() + " times, on " + String.join(", ", on)
                    + " (" + s.source() + ")"));
            found.add(finding(s.label(), "the device lines of " + SweepMath.describe(s) + " name " + (hosts.size() == 1 ? "a rank" : hosts.size()
                    + " ranks") + " more than once: its processes each ran alone, and no two of them communicated", evidence));
        }
        return Outcome.flag(found);
    }
}
