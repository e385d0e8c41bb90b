package io.nccldoctor.reports.results;

import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.ResultThresholds;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Traffic spread unevenly over parallel links: the busiest link sets the pace. */
public final class LinkImbalance implements ResultRule {

    static final RuleInfo INFO = new RuleInfo("LINK_IMBALANCE", Severity.WARN,
            "traffic is spread unevenly over parallel links",
            "Collectives finish when the slowest rank finishes, and on a fabric the slowest rank is the one whose flows "
                    + "share the busiest link. Load balancing is measured by the coefficient of variation of the bytes "
                    + "each parallel link carried (CV = standard deviation / mean; 0 is perfectly even). The Japanese "
                    + "field report found 5-tuple ECMP with a high CV, because each RDMA flow keeps its 5-tuple and "
                    + "so its link for the whole run, and a longer job completion time with it; per-packet dynamic load "
                    + "balancing and static pinning came close to 0.",
            "Tx bytes per link of each traffic set (switch or NIC counters read before and after a run)",
            "Use more queue pairs per connection (NCCL_IB_QPS_PER_CONNECTION) so that ECMP has more flows to spread, "
                    + "enable per-packet or flowlet load balancing on the switches, or pin flows statically.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(ResultSet results, RuleContext context) {
        if (results.traffic().isEmpty()) {
            return Outcome.waived("no per-link traffic given");
        }
        ResultThresholds t = context.config().thresholds().results();
        List<Finding> found = new ArrayList<>();
        for (PortTraffic p : results.traffic()) {
            double cv = p.cv();
            if (!(cv > t.linkCv())) {
                continue;
            }
            List<String> evidence = new ArrayList<>();
            long total = p.txBytes().values().stream().mapToLong(Long::longValue).sum();
            for (Map.Entry<String, Long> e : p.txBytes().entrySet()) {
                evidence.add(String.format(java.util.Locale.ROOT, "%s: %,d bytes (%.0f %% of the total)", e.getKey(), e.getValue(),
                        total == 0 ? 0.0 : 100.0 * e.getValue() / total));
            }
            evidence.add("CV " + SweepMath.num(cv) + " over " + p.txBytes().size() + " links; threshold " + SweepMath.num(t.linkCv())
                    + "; source: " + p.source());
            found.add(finding(p.label(), "traffic over " + p.label() + " is uneven: CV " + SweepMath.num(cv) + " across "
                    + p.txBytes().size() + " links", evidence));
        }
        return Outcome.flag(found);
    }
}
