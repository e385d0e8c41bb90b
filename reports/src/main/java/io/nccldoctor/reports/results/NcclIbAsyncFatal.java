package io.nccldoctor.reports.results;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.List;
import java.util.Optional;

/** A fatal InfiniBand async event in an NCCL log: the NIC, a completion queue or a queue pair failed. */
public final class NcclIbAsyncFatal extends NcclLogRule {

    static final RuleInfo INFO = new RuleInfo("NCCL_IB_ASYNC_FATAL", Severity.ERROR,
            "the NIC reported a fatal async event: the device, a completion queue or a queue pair failed",
            "NCCL's IB transport reads each device's async events (ibv_get_async_event) and prints their rdma-core names. "
                    + "Five are fatal: 'local catastrophic error' (IBV_EVENT_DEVICE_FATAL: the adapter itself failed, its "
                    + "firmware or PCIe link; every queue pair on it is gone), 'CQ error' (a completion queue overran), and "
                    + "'local work queue catastrophic error', 'invalid request local work queue error', 'local access "
                    + "violation work queue error' (a queue pair went to the error state: a malformed request, or an access "
                    + "to memory it may not touch, such as a GPU buffer the NIC cannot reach). From 2.23 NCCL prints them as "
                    + "'async fatal event' and fails every communicator using that device, CQ or QP ('communicator "
                    + "encountered a fatal error (detected in …)'); before, it warned 'Got async event : …' and the job hung "
                    + "or failed on the next completion. Either way the transfers on it are lost: a measurement around it is "
                    + "no result.",
            "'NET/IB : [mlx5_0:1] Got async event : local catastrophic error', '… async fatal event[ on CQ|QP (0x…)]: …' "
                    + "lines, counted per device port and event",
            "A device fatal error: look at the NIC on that node (dmesg for mlx5_core 'health' or 'fatal' lines, the firmware "
                    + "version, the PCIe link: `nccl-doctor preflight`); it needs a driver reload or a reboot. A queue pair "
                    + "error: an access violation points at the memory registration (GPU Direct RDMA across a path the NIC "
                    + "cannot use, nvidia-peermem or DMA-BUF, ACS on the PCIe path); an invalid request at a plugin or NCCL "
                    + "version mismatch with the NIC's firmware. The first event in time is the cause.");

    public NcclIbAsyncFatal() {
        super(INFO);
    }

    @Override
    Optional<Finding> judge(String name, NcclLog log) {
        List<NcclLog.IbAsyncEvent> fatal = log.ibAsyncEvents().events().stream().filter(NcclLog.IbAsyncEvent::fatal).toList();
        if (fatal.isEmpty()) {
            return Optional.empty();
        }
        List<String> evidence = NcclIbAsyncEvent.perPort(fatal);
        evidence.add("first: " + fatal.get(0).line());
        evidence.add("source: " + name);
        return Optional.of(finding(name, NcclIbAsyncEvent.title(fatal, "fatal IB async event"), evidence));
    }
}
