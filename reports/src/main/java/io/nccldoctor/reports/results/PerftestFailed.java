package io.nccldoctor.reports.results;

import io.nccldoctor.gdr.PerftestRun;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;

/** `report` on a perftest output: perftest printed an error, so the run measured nothing, or less than it was asked. */
public final class PerftestFailed implements ResultRule {

    static final RuleInfo INFO = new RuleInfo("PERFTEST_FAILED", Severity.ERROR,
            "perftest printed an error: the run measured nothing, or not what it was asked",
            "perftest (ib_write_bw, ib_read_bw, ib_send_bw, the *_lat tests) stops at its first error and prints why: its "
                    + "option parser rejects the command line (the line above ' Parser function exited with Error'; the "
                    + "accelerator options are checked in the order given, so --use_cuda must come before --use_cuda_dmabuf), "
                    + "the device or GPU cannot be opened, memory cannot be registered (errno 14: no peer-memory client; "
                    + "93/95: no DMA-BUF support), or the QPs cannot be connected (modify QP to RTR: GID, MTU or "
                    + "addressing on the two sides). Rows printed before the error, if any, are all the run gave.",
            "perftest's error lines in the given output, with the errno meanings perftest's own messages carry",
            "Fix what the error names and run both sides again: reorder or correct the options for a parser error, "
                    + "load nvidia_peermem or use --use_cuda_dmabuf for a registration error, check GID index, MTU and "
                    + "addresses (`nccl-doctor parse rdma` on `show_gids` and `ibv_devinfo -v`) for a connection error.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(ResultSet results, RuleContext context) {
        List<PerftestRun> runs = PerftestRuns.in(results);
        if (runs.isEmpty()) {
            return PerftestRuns.NONE;
        }
        List<Finding> findings = runs.stream().filter(r -> !r.errors().isEmpty()).map(this::failed).toList();
        if (!findings.isEmpty()) {
            return Outcome.flag(findings);
        }
        List<String> empty = runs.stream().filter(r -> r.outcome().startsWith("no result")).map(r -> r.source() + ": " + r.outcome()).toList();
        return empty.size() == runs.size() ? Outcome.waived(String.join("; ", empty) + ", and no error printed") : Outcome.pass();
    }

    private Finding failed(PerftestRun run) {
        List<String> evidence = new ArrayList<>();
        run.errors().forEach(e -> evidence.add("error: " + e));
        evidence.add("result: " + run.outcome());
        evidence.add("side: " + run.role().fold(r -> r, why -> "not known (" + why + ")"));
        return finding(run.source(), run.test().orElse("perftest") + " in " + run.source() + " stopped: " + run.errors().get(0), evidence);
    }
}
