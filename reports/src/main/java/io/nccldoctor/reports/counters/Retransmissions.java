package io.nccldoctor.reports.counters;

import io.nccldoctor.gdr.CounterDelta;
import io.nccldoctor.gdr.CounterFigure;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.List;

/** The port resent data: NAK sequence errors, adaptive retransmissions, RNR retries. */
public final class Retransmissions implements CounterRule {

    static final List<CounterFigure> RESENDS = List.of(CounterFigure.PACKET_SEQ_ERRORS, CounterFigure.RETRANSMISSIONS,
            CounterFigure.RNR_NAK_RETRIES);

    static final RuleInfo INFO = new RuleInfo("COUNTER_RETRANSMISSIONS", Severity.WARN,
            "the port retransmitted",
            "On a lossless RoCE fabric an RC queue pair should never resend. packet_seq_err counts NAKs the peer sent for a "
                    + "PSN gap (a drop, or re-ordering), after which this port goes back N and resends everything from the "
                    + "gap; roce_adp_retrans counts adaptive retransmissions after a lost ACK or packet; rnr_nak_retry_err "
                    + "counts receiver-not-ready NAKs, a peer with no receive posted. Each resend costs a round trip and "
                    + "re-sends data already on the wire, and a collective waits for its slowest rank: RoCE throughput is "
                    + "commonly said to hold only below a loss rate of about 1e-5.",
            "packet_seq_err, roce_adp_retrans and rnr_nak_retry_err of hw_counters against port_xmit_packets over the "
                    + "interval, per million packets sent, against thresholds.counters.retransmissionsPerMillion",
            "Find the drop or the re-ordering: COUNTER_DISCARDS and COUNTER_OUT_OF_SEQUENCE on this and the peer nodes, "
                    + "switch drop counters on the lossless class, PFC actually enabled on the priority RoCE uses "
                    + "(mlnx_qos -i DEV); RNR NAKs point at the application posting receives too late.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(CounterDelta d, RuleContext ctx) {
        double limit = CounterPorts.thresholds(ctx).retransmissionsPerMillion();
        return CounterPorts.eachPort(d, RESENDS, p -> {
            long resends = RESENDS.stream().mapToLong(f -> CounterPorts.value(p, f)).sum();
            if (resends == 0) {
                return List.of();
            }
            long packets = CounterPorts.value(p, CounterFigure.TX_PACKETS);
            double perMillion = packets > 0 ? resends * 1e6 / packets : Double.NaN;
            if (packets > 0 && perMillion < limit) {
                return List.of();
            }
            List<String> evidence = new java.util.ArrayList<>(RESENDS.stream().map(f -> CounterPorts.line(p, f)).toList());
            evidence.add(CounterPorts.line(p, CounterFigure.TX_PACKETS));
            evidence.add(packets > 0 ? CounterPorts.dec(perMillion) + " per million sent; thresholds.counters.retransmissionsPerMillion " + limit
                    : "packets sent unknown: any resend is flagged");
            return List.of(finding(p.label(), CounterPorts.num(resends) + " retransmission events"
                    + (packets > 0 ? " (" + CounterPorts.dec(perMillion) + " per million packets sent)" : ""), evidence));
        });
    }
}
