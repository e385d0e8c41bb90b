package io.nccldoctor.reports.results;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.collectives.parse.NcclLogSet;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Processes of one job that disagree on the NCCL version, the network or GPU Direct RDMA: the odd one slows them all. */
public final class NcclProcessesDisagree extends NcclLogRule {

    static final RuleInfo INFO = new RuleInfo("NCCL_PROCESSES_DISAGREE", Severity.WARN,
            "the processes of a job disagree on the NCCL version, the network or GPU Direct RDMA",
            "Every collective runs at the pace of its slowest member. One process that loaded another libnccl, fell back "
                    + "to sockets, or lost GPU Direct RDMA (a node without nvidia-peermem) slows the whole job, and its own "
                    + "log looks healthy. Only the comparison shows it.",
            "per process (host:pid from NCCL's line prefix, or one file per process): the NCCL version, 'Using network …', "
                    + "and whether its network channels are GDRDMA",
            "Fix the odd process's node: its environment (LD_LIBRARY_PATH, the Python environment), its NICs "
                    + "(`nccl-doctor gdr`) or nvidia-peermem (`nccl-doctor preflight`). When the logs are two jobs on "
                    + "purpose (an A/B), give them to `nccl-doctor compare` instead.");

    public NcclProcessesDisagree() {
        super(INFO);
    }

    @Override
    public Outcome check(ResultSet results, RuleContext context) {
        Outcome each = super.check(results, context);
        if (each.isWaived() || results.ncclLogs().size() < 2) {
            return each;
        }
        List<Finding> found = new ArrayList<>(each.findings());
        List<String> across = NcclLogSet.of(results.ncclLogs(), Map.of()).differences();
        if (!across.isEmpty()) {
            List<String> evidence = new ArrayList<>(across);
            evidence.add("sources: " + String.join(", ", results.ncclLogs().keySet()));
            found.add(finding("the NCCL logs", across.size() + " difference" + (across.size() == 1 ? "" : "s") + " between the logs",
                    evidence));
        }
        return Outcome.flag(found);
    }

    @Override
    Optional<Finding> judge(String name, NcclLog log) {
        if (log.differences().isEmpty()) {
            return Optional.empty();
        }
        List<String> evidence = new ArrayList<>(log.differences());
        evidence.add(log.processes().size() + " processes in " + name);
        return Optional.of(finding(name, log.differences().size() + " difference" + (log.differences().size() == 1 ? "" : "s")
                + " between the processes in one log", evidence));
    }
}
