package io.nccldoctor.reports.counters;

import io.nccldoctor.core.Fact;
import io.nccldoctor.gdr.CounterDelta;
import io.nccldoctor.gdr.CounterFigure;
import io.nccldoctor.reports.CounterThresholds;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;

/** A RoCE priority (or the whole port, by 802.3x pause) held still by pause frames for a noticeable part of the run. */
public final class PfcPauses implements CounterRule {

    static final RuleInfo INFO = new RuleInfo("COUNTER_PFC_PAUSES", Severity.WARN,
            "a priority was paused by PFC for a noticeable part of the run",
            "PFC makes a RoCE priority lossless by pausing it: a switch whose queue fills sends pause frames and the NIC "
                    + "stops sending on that priority (rx_prio{p}_pause: the fabric is back-pressuring this port), or the NIC "
                    + "whose receive buffer fills pauses the switch (tx_prio{p}_pause: this host cannot absorb what arrives, "
                    + "often PCIe or memory). A few pauses are PFC doing its job, as the Japanese field report verified with "
                    + "PFC and ECN both on and zero drops. Pause time that adds up to a visible share of the run is throughput "
                    + "the collective loses on that rail, and pauses spread upstream (head-of-line blocking, in the worst case "
                    + "deadlock). 802.3x global pause (rx/tx_global_pause) stops every priority at once; a report of 802.3x "
                    + "pause eating 21.7 % of a 400 GbE link with every drop counter at zero (NVIDIA/daqiri#250) is the pattern.",
            "rx/tx_prio{p}_pause and their _duration counters (µs) of `ethtool -S`, and rx/tx_global_pause(_duration), over "
                    + "the interval, against thresholds.counters.pauseFractionWarn, pauseFractionError and pausesPerSecond",
            "Received pauses: find the congested switch queue (show queuing / PFC counters on the switch ports of this rail) "
                    + "and make ECN mark before PFC triggers (ECN thresholds below the PFC xoff), so DCQCN slows senders "
                    + "first. Sent pauses: this host cannot drain, look at the NIC's PCIe link and outbound_pci_stalled_* "
                    + "counters, NUMA placement and IOMMU. Global pause on a RoCE port: turn it off (ethtool -A DEV rx off "
                    + "tx off) and use PFC on the RoCE priority only.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(CounterDelta d, RuleContext ctx) {
        var none = CounterPorts.whyNone(d);
        if (none.isPresent()) {
            return Outcome.waived(none.get());
        }
        List<CounterDelta.PortDelta> ports = d.ports().get();
        if (ports.stream().allMatch(p -> p.pfc().isEmpty() && p.figure(CounterFigure.RX_GLOBAL_PAUSES).isAbsent())) {
            return Outcome.waived("no port shows pause counters (PFC enabled on no priority, or no ethtool -S: "
                    + ports.get(0).figure(CounterFigure.RX_GLOBAL_PAUSES).reason() + ")");
        }
        if (!d.seconds().isValue()) {
            return Outcome.waived(d.seconds().reason());
        }
        double seconds = d.seconds().get();
        CounterThresholds t = CounterPorts.thresholds(ctx);
        List<Finding> found = new ArrayList<>();
        for (CounterDelta.PortDelta p : ports) {
            for (CounterDelta.PriorityPauses pp : p.pfc()) {
                judge(p, "priority " + pp.priority(), pp.rxPauses(), pp.rxPauseUs(), pp.txPauses(), pp.txPauseUs(), seconds, t)
                        .ifPresent(found::add);
            }
            judge(p, "all priorities (802.3x global pause)", p.figure(CounterFigure.RX_GLOBAL_PAUSES),
                    p.figure(CounterFigure.RX_GLOBAL_PAUSE_US), p.figure(CounterFigure.TX_GLOBAL_PAUSES),
                    p.figure(CounterFigure.TX_GLOBAL_PAUSE_US), seconds, t).ifPresent(found::add);
        }
        return Outcome.flag(found);
    }

    private java.util.Optional<Finding> judge(CounterDelta.PortDelta p, String what, Fact<Long> rx, Fact<Long> rxUs, Fact<Long> tx,
                                              Fact<Long> txUs, double seconds, CounterThresholds t) {
        double rxFraction = rxUs.orElse(0L) / (seconds * 1e6);
        double txFraction = txUs.orElse(0L) / (seconds * 1e6);
        double fraction = Math.max(rxFraction, txFraction);
        long frames = rx.orElse(0L) + tx.orElse(0L);
        boolean durations = rxUs.isValue() || txUs.isValue();
        boolean flagged = durations ? fraction >= t.pauseFractionWarn() : frames / seconds >= t.pausesPerSecond();
        if (!flagged) {
            return java.util.Optional.empty();
        }
        List<String> evidence = new ArrayList<>();
        evidence.add("received " + CounterPorts.num(rx.orElse(0L)) + " pause frames" + paused(rxUs, rxFraction)
                + ": the switch stopped this port's Tx on " + what);
        evidence.add("sent " + CounterPorts.num(tx.orElse(0L)) + " pause frames" + paused(txUs, txFraction)
                + ": this port's receive buffer filled and it stopped the switch");
        evidence.add(durations ? "over " + CounterPorts.dec(seconds) + " s; thresholds.counters.pauseFractionWarn "
                + t.pauseFractionWarn() + ", pauseFractionError " + t.pauseFractionError()
                : "no pause-duration counters: " + CounterPorts.dec(frames / seconds) + " pause frames/s against "
                + "thresholds.counters.pausesPerSecond " + t.pausesPerSecond());
        Severity s = durations && fraction >= t.pauseFractionError() ? Severity.ERROR : Severity.WARN;
        String title = what + (durations ? " paused " + CounterPorts.percent(fraction) + " of the run"
                : " received and sent " + CounterPorts.num(frames) + " pause frames") + " ("
                + (rxFraction >= txFraction ? "pauses received: fabric back-pressure" : "pauses sent: this host cannot drain") + ")";
        return java.util.Optional.of(finding(s, p.label(), title, evidence));
    }

    private static String paused(Fact<Long> us, double fraction) {
        return us.fold(v -> ", paused " + CounterPorts.dec(v / 1000.0) + " ms (" + CounterPorts.percent(fraction) + ")", why -> "");
    }
}
