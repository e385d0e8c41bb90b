package io.nccldoctor.reports.results;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * PyTorch's ProcessGroupNCCL saw the job stop: a collective ran past its timeout (the watchdog thread), or the watchdog
 * thread itself stopped making progress (its heartbeat monitor); either way the process is taken down.
 */
public final class NcclWatchdogTimeout extends NcclLogRule {

    static final RuleInfo INFO = new RuleInfo("NCCL_WATCHDOG_TIMEOUT", Severity.ERROR,
            "a collective never finished: PyTorch's NCCL watchdog, or its heartbeat monitor, timed out",
            "ProcessGroupNCCL's watchdog saw a collective (SeqNum, OpType) run past its timeout and took the process "
                    + "down. Either a rank never reached that collective (a code path, a data-loader stall, an earlier "
                    + "crash), or the transfer itself hung (an IB error, a link down, GPU Direct RDMA across a path that "
                    + "cannot carry it). When the heartbeat monitor reports the watchdog thread stuck instead "
                    + "(TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC, 480 s or 600 s by release), the watchdog could not even check its "
                    + "collectives: an NCCL or CUDA call blocked it (a hung communicator, a GPU fault, another thread holding "
                    + "the GIL inside a CUDA call), and the process is aborted.",
            "'Watchdog caught collective operation timeout: WorkNCCL(SeqNum=…, OpType=…)' lines; 'Heartbeat monitor timed "
                    + "out!' and 'ProcessGroupNCCL's watchdog got stuck for N seconds' lines",
            "Compare the last SeqNum of every rank: the lowest one is the rank that stopped. Look for an IB completion "
                    + "error or a NIC event at that time (`nccl-doctor counters`), and rerun with NCCL_DEBUG=INFO. A stuck "
                    + "watchdog: take the stacks of the hung process (py-spy dump --native) to see which NCCL or CUDA call "
                    + "blocks, and read the flight recorder dump PyTorch wrote (TORCH_NCCL_TRACE_BUFFER_SIZE).");

    public NcclWatchdogTimeout() {
        super(INFO);
    }

    @Override
    Optional<Finding> judge(String name, NcclLog log) {
        List<String> timeouts = log.watchdogTimeouts();
        List<String> hangs = log.watchdogHangs();
        if (timeouts.isEmpty() && hangs.isEmpty()) {
            return Optional.empty();
        }
        List<String> evidence = new ArrayList<>(timeouts);
        evidence.addAll(hangs);
        evidence.add("source: " + name);
        String title = timeouts.isEmpty() ? "PyTorch's NCCL watchdog stuck: " + lines(hangs.size(), "heartbeat monitor line")
                : timeouts.size() + " watchdog timeout" + (timeouts.size() == 1 ? "" : "s")
                        + (hangs.isEmpty() ? "" : ", and the watchdog stuck (" + lines(hangs.size(), "heartbeat monitor line") + ")");
        return Optional.of(finding(name, title, evidence));
    }

    private static String lines(int n, String what) {
        return n + " " + what + (n == 1 ? "" : "s");
    }
}
