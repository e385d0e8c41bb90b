package io.nccldoctor.reports.counters;

import io.nccldoctor.gdr.CounterDelta;
import io.nccldoctor.gdr.CounterFigure;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.List;

/** The NIC dropped packets: no receive buffer, a full port buffer, or transmit discards. */
public final class Discards implements CounterRule {

    static final List<CounterFigure> DROPS = List.of(CounterFigure.OUT_OF_BUFFER, CounterFigure.RX_DISCARDS_PHY,
            CounterFigure.TX_DISCARDS_PHY, CounterFigure.XMIT_DISCARDS);

    static final RuleInfo INFO = new RuleInfo("COUNTER_DISCARDS", Severity.WARN,
            "the NIC dropped packets during the run",
            "Each counter is a different place where a packet died: out_of_buffer, an RDMA receive queue with no WQE "
                    + "posted; rx_discards_phy, the NIC's port buffer full, so it could not absorb what the network sent "
                    + "(with PFC working the NIC should have paused the switch instead); tx_discards_phy, packets discarded "
                    + "on the way out (link down, head-of-line drop, pause from the network held them too long, as storm "
                    + "prevention does); port_xmit_discards, the IBA counter of packets the port could not send. On RoCE "
                    + "every drop is a go-back-N retransmission for the queue pair that lost it.",
            "out_of_buffer (hw_counters), rx_discards_phy and tx_discards_phy (`ethtool -S`), port_xmit_discards "
                    + "(counters) over the interval: any is flagged",
            "rx_discards_phy: check that PFC is enabled on the priority RoCE uses at both ends (mlnx_qos -i DEV) and "
                    + "that the NIC's buffer for it is sized (buffer_size, headroom for the cable length); "
                    + "tx_discards_phy: look for pause storms and link flaps; out_of_buffer: the application posts receives "
                    + "too slowly.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(CounterDelta d, RuleContext ctx) {
        return CounterPorts.eachPort(d, DROPS, p -> {
            List<CounterFigure> dropped = DROPS.stream().filter(f -> CounterPorts.value(p, f) > 0).toList();
            if (dropped.isEmpty()) {
                return List.of();
            }
            long total = dropped.stream().mapToLong(f -> CounterPorts.value(p, f)).sum();
            return List.of(finding(p.label(), CounterPorts.num(total) + " packets dropped (" + String.join(", ",
                    dropped.stream().map(f -> f.counters().get(0).substring(f.counters().get(0).indexOf('/') + 1)).toList()) + ")",
                    DROPS.stream().map(f -> CounterPorts.line(p, f)).toList()));
        });
    }
}
