package io.nccldoctor.reports.counters;

import io.nccldoctor.gdr.CounterDelta;
import io.nccldoctor.gdr.CounterFigure;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.List;

/** RoCE packets arriving out of order: the fabric sprays one flow over several paths. */
public final class OutOfSequence implements CounterRule {

    static final RuleInfo INFO = new RuleInfo("COUNTER_OUT_OF_SEQUENCE", Severity.WARN,
            "RoCE packets arrive out of sequence",
            "An RC queue pair expects packets in PSN order. A NIC without out-of-order placement treats a packet beyond the "
                    + "expected PSN as a loss: it counts out_of_sequence, NAKs, and the sender goes back and resends from the "
                    + "gap. The Japanese field report measured it: per-packet dynamic load balancing spread traffic almost "
                    + "perfectly (CV near 0) yet a ring all-reduce took about 3500 s on ConnectX-5 where flowlet balancing took about 390 s, because "
                    + "every re-ordered packet became a retransmission; NICs with out-of-order handling (ConnectX-7 and later, "
                    + "with adaptive routing) reorder in place. Flow-based balancing (5-tuple ECMP, flowlets) keeps a QP's "
                    + "packets on one path and in order.",
            "out_of_sequence of hw_counters against port_rcv_packets over the interval, per million packets received, "
                    + "against thresholds.counters.outOfSequencePerMillion",
            "Switch the fabric from per-packet spraying to flowlet or 5-tuple ECMP for the RoCE class, or use NICs and "
                    + "switches that do adaptive routing with out-of-order placement end to end (and then NCCL's "
                    + "NCCL_IB_ADAPTIVE_ROUTING); check that no path (a LAG, a mis-hashed uplink) reorders a single flow.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(CounterDelta d, RuleContext ctx) {
        double limit = CounterPorts.thresholds(ctx).outOfSequencePerMillion();
        return CounterPorts.eachPort(d, List.of(CounterFigure.OUT_OF_SEQUENCE), p -> {
            long oos = CounterPorts.value(p, CounterFigure.OUT_OF_SEQUENCE);
            if (oos == 0) {
                return List.of();
            }
            long packets = CounterPorts.value(p, CounterFigure.RX_PACKETS);
            if (packets > 0) {
                double perMillion = oos * 1e6 / packets;
                if (perMillion < limit) {
                    return List.of();
                }
                return List.of(finding(p.label(), CounterPorts.num(oos) + " packets out of sequence, "
                        + CounterPorts.percent(oos / (double) packets) + " of those received", List.of(
                        CounterPorts.line(p, CounterFigure.OUT_OF_SEQUENCE), CounterPorts.line(p, CounterFigure.RX_PACKETS),
                        CounterPorts.dec(perMillion) + " per million received; thresholds.counters.outOfSequencePerMillion " + limit,
                        CounterPorts.line(p, CounterFigure.PACKET_SEQ_ERRORS) + " (the NAKs that make a sender go back)")));
            }
            return List.of(finding(p.label(), CounterPorts.num(oos) + " packets out of sequence", List.of(
                    CounterPorts.line(p, CounterFigure.OUT_OF_SEQUENCE),
                    "packets received unknown (" + p.figure(CounterFigure.RX_PACKETS).describe() + "): any re-ordering is flagged")));
        });
    }
}
