package io.nccldoctor.collectives.parse;

/**
 * The lines PyTorch's ProcessGroupNCCL prints when a job stops making progress, in the wordings of its source
 * (torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp), wherever a launcher's or a logger's prefix put them:
 * <ul>
 * <li>a collective ran past its timeout, seen by the watchdog thread: "Watchdog caught collective operation timeout:
 * WorkNCCL(SeqNum=…, OpType=…, …) ran for … milliseconds before timing out.";</li>
 * <li>the watchdog thread itself stopped (an NCCL or CUDA call blocked it), seen by the heartbeat monitor: PyTorch 2.3
 * logs "Heartbeat monitor timed out! Process will be terminated after dumping debug info. workMetaList_.size()=…" and
 * then aborts through LOG(FATAL) with "ProcessGroupNCCL's watchdog got stuck for N seconds without making progress in
 * monitoring enqueued collectives. …" (heartbeatMonitor: errorMsg and exitMsg); later releases log the second
 * sentence alone as the error (HeartbeatMonitor::runLoop, errorMsg).</li>
 * </ul>
 * The heartbeat sentence is taken only on a line that names ProcessGroupNCCL (its log location, ProcessGroupNCCL.cpp):
 * the process groups of other vendors' collective libraries, forks of this file, print the same sentence. A wording
 * after a backtick on its line is Markdown quoting it (a README, a report), not PyTorch's log.
 */
final class TorchWatchdog {

    private TorchWatchdog() {
    }

    /** What a line says: nothing of these, a collective's timeout, or the watchdog stuck. */
    enum Said { NONE, TIMEOUT, HANG }

    static final String TIMEOUT = "Watchdog caught collective operation timeout";
    static final String STUCK = "ProcessGroupNCCL's watchdog got stuck for ";
    static final String HEARTBEAT = "Heartbeat monitor timed out!";
    static final String PROCESS_GROUP = "ProcessGroupNCCL";

    static Said of(String line) {
        return of(line, true);
    }

    /**
     * The same; a line whose first "NCCL " starts NCCL's own INFO or WARN message ({@code hangs} false) is looked at for a
     * timeout glued onto it only: the hang messages hold no "NCCL " word, and NCCL's lines are most of what the reader
     * hands here, so they are spared two searches each.
     */
    static Said of(String line, boolean hangs) {
        if (logged(line, line.indexOf(TIMEOUT))) {
            return Said.TIMEOUT;
        }
        if (hangs && (logged(line, line.indexOf(STUCK)) || logged(line, line.indexOf(HEARTBEAT)) && line.contains(PROCESS_GROUP))) {
            return Said.HANG;
        }
        return Said.NONE;
    }

    /** The wording at {@code at} (-1: absent) with no backtick before it on the line. */
    private static boolean logged(String line, int at) {
        return at >= 0 && line.lastIndexOf('`', at) < 0;
    }
}
