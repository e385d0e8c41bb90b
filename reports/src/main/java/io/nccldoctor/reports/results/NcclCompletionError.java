package io.nccldoctor.reports.results;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** An IB completion error in an NCCL log: the transfer failed, whatever the bandwidth numbers say. */
public final class NcclCompletionError extends NcclLogRule {

    static final RuleInfo INFO = new RuleInfo("NCCL_IB_COMPLETION_ERROR", Severity.ERROR,
            "an RDMA transfer failed: NCCL logged an IB completion error",
            "NCCL's IB transport got a work completion with an error status (rdma-core's ibv_wc_status): the NIC gave "
                    + "up on a send or a receive. The job hangs or aborts; a measurement taken around it is not a result. "
                    + "The first error in time is the cause; later ones are usually flushes (status 5) of the same queue pair.",
            "'NCCL WARN NET/IB : Got completion from peer … with status=N … vendor err M' (or the older 'with error N') "
                    + "lines, and NCCL's hint that ACS breaks GPU Direct RDMA",
            "Status 12 (retries exceeded): check the link, the GID and route, and on RoCE PFC/ECN (`nccl-doctor counters`). "
                    + "Status 4 or 10 (protection, remote access): GPU Direct RDMA registration: nvidia-peermem or DMA-BUF, and "
                    + "ACS on the PCIe path (`nccl-doctor preflight`).");

    public NcclCompletionError() {
        super(INFO);
    }

    @Override
    Optional<Finding> judge(String name, NcclLog log) {
        if (log.ibErrors().isEmpty()) {
            return Optional.empty();
        }
        List<String> evidence = new ArrayList<>();
        for (NcclLog.IbError e : log.ibErrors()) {
            evidence.add("status " + e.status() + " (" + e.statusName() + "), vendor err "
                    + e.vendorErr().map(String::valueOf).orElse("not on the line") + (e.meaning().isEmpty() ? "" : ": " + e.meaning()));
        }
        if (log.acsHint()) {
            evidence.add("NCCL's hint: ACS is enabled and breaks GPU Direct RDMA (ACS_REDIRECT_ON_P2P_PATH names the bridge)");
        }
        evidence.add("first: " + log.ibErrors().get(0).line());
        evidence.add("source: " + name);
        NcclLog.IbError first = log.ibErrors().get(0);
        return Optional.of(finding(name, log.ibErrors().size() + " IB completion error" + (log.ibErrors().size() == 1 ? "" : "s")
                + ", the first " + first.statusName(), evidence));
    }
}
