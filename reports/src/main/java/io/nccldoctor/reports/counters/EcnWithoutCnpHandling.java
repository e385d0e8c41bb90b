package io.nccldoctor.reports.counters;

import io.nccldoctor.gdr.CounterDelta;
import io.nccldoctor.gdr.CounterFigure;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;

/** ECN marks arrive but DCQCN does not react: CNPs not sent, ignored, or never handled. */
public final class EcnWithoutCnpHandling implements CounterRule {

    static final RuleInfo INFO = new RuleInfo("COUNTER_ECN_WITHOUT_CNP_HANDLING", Severity.WARN,
            "ECN marks arrive but DCQCN does not slow the senders",
            "DCQCN is RoCE's congestion control: a congested switch marks packets ECN CE; the receiving NIC (notification "
                    + "point) counts them (np_ecn_marked_roce_packets) and sends a CNP to the sender (np_cnp_sent); the "
                    + "sending NIC (reaction point) lowers that QP's rate (rp_cnp_handled). The Japanese field report traced "
                    + "exactly this chain on Nexus switches, with CNPs on their own priority. When it breaks, congestion is left "
                    + "to PFC alone: more pauses, head-of-line blocking, and drops wherever PFC is off. rp_cnp_ignored "
                    + "rising means CNPs arrive and the reaction point does not act on them (disabled for that priority, or a "
                    + "firmware setting); marks without CNPs sent means the notification point is off; marks while no CNP "
                    + "is ever handled, in a collective where every node both sends and receives, means the CNPs do not "
                    + "make it back.",
            "np_ecn_marked_roce_packets, np_cnp_sent, rp_cnp_handled and rp_cnp_ignored of hw_counters over the interval; "
                    + "judged on ports with at least thresholds.counters.ecnMinMarked marks (any rp_cnp_ignored counts)",
            "Enable DCQCN on the RoCE priority at both ends (/sys/class/net/DEV/ecn/roce_np/enable/P and "
                    + "roce_rp/enable/P on mlx5, or the NIC's firmware defaults), give CNPs a priority and DSCP the "
                    + "switches trust and forward (cnp_802p_prio / cnp_dscp), and keep the same settings on every node.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(CounterDelta d, RuleContext ctx) {
        long min = CounterPorts.thresholds(ctx).ecnMinMarked();
        return CounterPorts.eachPort(d, List.of(CounterFigure.ECN_MARKED, CounterFigure.CNP_IGNORED), p -> {
            long marked = CounterPorts.value(p, CounterFigure.ECN_MARKED);
            long sent = CounterPorts.value(p, CounterFigure.CNP_SENT);
            long handled = CounterPorts.value(p, CounterFigure.CNP_HANDLED);
            long ignored = CounterPorts.value(p, CounterFigure.CNP_IGNORED);
            List<String> why = new ArrayList<>();
            if (ignored > 0) {
                why.add("the reaction point ignored " + CounterPorts.num(ignored) + " of the " + CounterPorts.num(ignored + handled)
                        + " CNPs this port received");
            }
            if (marked >= min && p.figure(CounterFigure.CNP_SENT).isValue() && sent == 0) {
                why.add("marked packets arrived but the notification point sent no CNP");
            }
            if (marked >= min && p.figure(CounterFigure.CNP_HANDLED).isValue() && handled == 0 && ignored == 0) {
                why.add("marked packets arrived but no CNP came back to slow this port's own traffic");
            }
            if (why.isEmpty()) {
                return List.of();
            }
            List<String> evidence = new ArrayList<>(why.subList(1, why.size()));
            for (CounterFigure f : List.of(CounterFigure.ECN_MARKED, CounterFigure.CNP_SENT, CounterFigure.CNP_HANDLED,
                    CounterFigure.CNP_IGNORED)) {
                evidence.add(CounterPorts.line(p, f));
            }
            evidence.add("judged from " + CounterPorts.num(min) + " marks (thresholds.counters.ecnMinMarked); any ignored CNP counts");
            return List.of(finding(p.label(), "DCQCN is not reacting: " + why.get(0), evidence));
        });
    }
}
