package io.nccldoctor.reports.results;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A PyTorch watchdog timeout: a collective that never finished. */
public final class NcclWatchdogTimeout extends NcclLogRule {

    static final RuleInfo INFO = new RuleInfo("NCCL_WATCHDOG_TIMEOUT", Severity.ERROR,
            "a collective never finished: PyTorch's NCCL watchdog timed out",
            "ProcessGroupNCCL's watchdog saw a collective (SeqNum, OpType) run past its timeout and took the process "
                    + "down. Either a rank never reached that collective (a code path, a data-loader stall, an earlier "
                    + "crash), or the transfer itself hung (an IB error, a link down, GPU Direct RDMA across a path that "
                    + "cannot carry it).",
            "'Watchdog caught collective operation timeout: WorkNCCL(SeqNum=…, OpType=…)' lines",
            "Compare the last SeqNum of every rank: the lowest one is the rank that stopped. Look for an IB completion "
                    + "error or a NIC event at that time (`nccl-doctor counters`), and rerun with NCCL_DEBUG=INFO.");

    public NcclWatchdogTimeout() {
        super(INFO);
    }

    @Override
    Optional<Finding> judge(String name, NcclLog log) {
        if (log.watchdogTimeouts().isEmpty()) {
            return Optional.empty();
        }
        List<String> evidence = new ArrayList<>(log.watchdogTimeouts());
        evidence.add("source: " + name);
        return Optional.of(finding(name, log.watchdogTimeouts().size() + " watchdog timeout"
                + (log.watchdogTimeouts().size() == 1 ? "" : "s"), evidence));
    }
}
