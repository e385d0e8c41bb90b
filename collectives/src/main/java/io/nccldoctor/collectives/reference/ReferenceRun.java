package io.nccldoctor.collectives.reference;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.Fact;
import java.util.List;
import java.util.Map;

/**
 * One nccl-tests run: the command line, how it ended, and its parsed output.
 *
 * @param exitCode  the binary's exit status; absent when it timed out or did not start
 * @param problem   why the run is not a result (exit status, time limit, no table); absent when it is one
 * @param stderrTail the last lines of its stderr, for the ticket
 * @param ncclLogs   the NCCL_DEBUG_FILE each process wrote, parsed; empty when the logs were not captured
 * @param logsNote   where the logs are, or why there are none
 */
public record ReferenceRun(List<String> argv, Fact<Integer> exitCode, long durationMs, Fact<NcclTestsOutput> output,
                           Fact<String> problem, List<String> stderrTail, Map<String, NcclLog> ncclLogs, String logsNote) {

    /** Whether the run failed: it did not finish cleanly, or its output records wrong results. */
    public boolean failed() {
        return problem.isValue() || (output.isValue() && !output.get().failures().isEmpty())
                || ncclLogs.values().stream().anyMatch(l -> !l.ibErrors().isEmpty());
    }
}
