package io.nccldoctor.reports.counters;

import io.nccldoctor.gdr.CounterDelta;
import io.nccldoctor.gdr.CounterFigure;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.List;

/** A queue pair's ACK timer expired: the run stood still for the whole timeout. */
public final class AckTimeouts implements CounterRule {

    static final List<CounterFigure> TIMEOUTS = List.of(CounterFigure.ACK_TIMEOUTS, CounterFigure.RETRANSMISSION_TIMEOUTS);

    static final RuleInfo INFO = new RuleInfo("COUNTER_ACK_TIMEOUTS", Severity.ERROR,
            "a queue pair waited out its ACK timeout",
            "When neither an ACK nor a NAK comes back, an RC queue pair waits its transport timeout, 4.096 µs × "
                    + "2^timeout (InfiniBand spec), then resends. NCCL sets the timeout from NCCL_IB_TIMEOUT (20 in current "
                    + "releases: at least 4.3 s per expiry) and the retries from NCCL_IB_RETRY_CNT (7); when they run out "
                    + "the work completion fails with IBV_WC_RETRY_EXC_ERR (status 12) and the job dies with \"NET/IB : Got "
                    + "completion with error 12\". Every local_ack_timeout_err is therefore seconds of a collective "
                    + "standing still, and a step towards that error: packets or ACKs were lost (a drop, a link that went "
                    + "down, a peer that vanished), or the path is broken (GID, routing, MTU).",
            "local_ack_timeout_err and roce_adp_retrans_to of hw_counters over the interval: any is flagged",
            "Find the loss: COUNTER_LINK_ERRORS and COUNTER_DISCARDS here and on the peers, switch drops on the lossless "
                    + "class; check that every pair of ports can reach each other on the GID NCCL uses (ib_write_bw with "
                    + "-x GID_INDEX). Raising NCCL_IB_TIMEOUT only hides a lossy path.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(CounterDelta d, RuleContext ctx) {
        return CounterPorts.eachPort(d, TIMEOUTS, p -> {
            // with adaptive retransmission one expiry may count in both: the larger is the number of waits
            long timeouts = TIMEOUTS.stream().mapToLong(f -> CounterPorts.value(p, f)).max().orElse(0);
            if (timeouts == 0) {
                return List.of();
            }
            return List.of(finding(p.label(), "queue pairs waited out their ACK timeout " + CounterPorts.num(timeouts)
                    + " time(s); at NCCL's default each wait is seconds", TIMEOUTS.stream().map(f -> CounterPorts.line(p, f)).toList()));
        });
    }
}
