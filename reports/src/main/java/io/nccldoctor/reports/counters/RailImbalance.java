package io.nccldoctor.reports.counters;

import io.nccldoctor.gdr.CounterDelta;
import io.nccldoctor.gdr.CounterFigure;
import io.nccldoctor.reports.CounterThresholds;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import io.nccldoctor.reports.chart.SizeLabels;
import java.util.ArrayList;
import java.util.List;

/** The rails of the node carried unevenly: the busiest sets the pace of every collective. */
public final class RailImbalance implements CounterRule {

    static final RuleInfo INFO = new RuleInfo("COUNTER_RAIL_IMBALANCE", Severity.WARN,
            "the ports (rails) carried unevenly",
            "NCCL spreads its channels evenly over the NICs it uses, and a collective finishes when its slowest rank does, "
                    + "so the rail that carries most, or whose flows share a congested uplink and move least, sets the pace. "
                    + "Balance is measured as in the Japanese field report: the coefficient of variation (standard deviation "
                    + "over mean) of the Tx bytes of each port; 0 is perfectly even. There 5-tuple ECMP gave the highest CV "
                    + "and a longer job, since each RDMA flow keeps its 5-tuple, and so its path, for the whole run.",
            "port_xmit_data × 4 of every port over the interval, their CV against thresholds.counters.railCv, judged once "
                    + "they sent thresholds.counters.railMinBytes together",
            "Check that NCCL uses every rail (NCCL_IB_HCA, and NCCL_DEBUG=INFO's NET/IB lines), that no port is down or "
                    + "slower (`nccl-doctor gdr`), then the fabric: more QPs per connection (NCCL_IB_QPS_PER_CONNECTION) give "
                    + "ECMP more flows to spread; flowlet or adaptive load balancing, or static pinning, on the switches. "
                    + "A port that NCCL does not use (storage, management) belongs outside the set: select with --hca.");

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
        if (!d.txBytesCv().isValue()) {
            return Outcome.waived("no CV of Tx bytes: " + d.txBytesCv().reason());
        }
        CounterThresholds t = CounterPorts.thresholds(ctx);
        List<CounterDelta.PortDelta> ports = d.ports().get();
        long total = ports.stream().mapToLong(p -> CounterPorts.value(p, CounterFigure.TX_BYTES)).sum();
        double cv = d.txBytesCv().get();
        if (cv <= t.railCv() || total < t.railMinBytes()) {
            return Outcome.pass();
        }
        List<String> evidence = new ArrayList<>();
        for (CounterDelta.PortDelta p : ports) {
            evidence.add(p.figure(CounterFigure.TX_BYTES).fold(b -> p.label() + ": Tx " + SizeLabels.format(b) + " ("
                    + CounterPorts.percent(b / (double) total) + " of the total)", why -> p.label() + ": Tx n/a (" + why + ")"));
        }
        evidence.add("CV " + CounterPorts.dec(cv) + " over " + ports.size() + " ports; thresholds.counters.railCv " + t.railCv());
        return Outcome.flag(finding("node", "Tx bytes across " + ports.size() + " rails are uneven: CV " + CounterPorts.dec(cv),
                evidence));
    }
}
