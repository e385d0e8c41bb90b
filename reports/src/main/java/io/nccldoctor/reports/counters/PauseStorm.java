package io.nccldoctor.reports.counters;

import io.nccldoctor.gdr.CounterDelta;
import io.nccldoctor.gdr.CounterFigure;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;

/** The NIC kept pausing the switch past its stall watermarks: a pause storm, and storm prevention dropping. */
public final class PauseStorm implements CounterRule {

    static final RuleInfo INFO = new RuleInfo("COUNTER_PAUSE_STORM", Severity.ERROR,
            "the NIC kept sending pauses past its stall watermarks (a PFC pause storm)",
            "A NIC that cannot drain its receive buffer keeps sending PFC pauses; upstream, the switch port stops, its own "
                    + "buffers fill and it pauses its other ports: one stuck host can stall a whole lossless class. mlx5 "
                    + "counts how long the port has been stalled against two watermarks: tx_pause_storm_warning_events "
                    + "(past device_stall_minor_watermark) and tx_pause_storm_error_events (past "
                    + "device_stall_critical_watermark, 8 s by default), after which storm prevention stops sending pauses "
                    + "and drops instead, so the lossless class loses packets and RDMA retransmits.",
            "tx_pause_storm_warning_events and tx_pause_storm_error_events of `ethtool -S` over the interval, with "
                    + "outbound_pci_stalled_rd/wr_events (seconds in which the NIC's PCIe reads or writes stalled over 30 %)",
            "Find why this host stops draining: a NIC PCIe link running degraded or stalled (outbound_pci_stalled_*, "
                    + "`nccl-doctor topo`), a GPU or memory that cannot take the writes, a hung process whose receive queues "
                    + "fill. Keep PFC storm prevention and the switch's PFC watchdog on; drain the node until the cause is fixed.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(CounterDelta d, RuleContext ctx) {
        return CounterPorts.eachPort(d, List.of(CounterFigure.PAUSE_STORM_ERRORS, CounterFigure.PAUSE_STORM_WARNINGS), p -> {
            long errors = CounterPorts.value(p, CounterFigure.PAUSE_STORM_ERRORS);
            long warnings = CounterPorts.value(p, CounterFigure.PAUSE_STORM_WARNINGS);
            if (errors == 0 && warnings == 0) {
                return List.of();
            }
            List<String> evidence = new ArrayList<>(List.of(CounterPorts.line(p, CounterFigure.PAUSE_STORM_ERRORS),
                    CounterPorts.line(p, CounterFigure.PAUSE_STORM_WARNINGS)));
            for (String pci : List.of("ethtool/outbound_pci_stalled_wr_events", "ethtool/outbound_pci_stalled_rd_events")) {
                var v = p.counters().get(pci);
                if (v != null && v.orElse(0L) > 0) {
                    evidence.add(pci.substring(8) + " +" + CounterPorts.num(v.get()) + ": the NIC's PCIe "
                            + (pci.contains("_wr_") ? "writes to host memory" : "reads") + " stalled over 30 % in that many seconds");
                }
            }
            return List.of(errors > 0
                    ? finding(p.label(), "pause storm: stalled past the critical watermark " + CounterPorts.num(errors)
                    + " times; storm prevention dropped instead of pausing", evidence)
                    : finding(Severity.WARN, p.label(), "pause storm warning: stalled past the minor watermark "
                    + CounterPorts.num(warnings) + " times", evidence));
        });
    }
}
