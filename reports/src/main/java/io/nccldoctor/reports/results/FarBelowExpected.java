package io.nccldoctor.reports.results;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.ResultThresholds;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** A sweep whose best busbw is a small fraction of what the narrowest link allows. */
public final class FarBelowExpected implements ResultRule {

    static final RuleInfo INFO = new RuleInfo("FAR_BELOW_EXPECTED", Severity.WARN,
            "peak bus bandwidth far below the ceiling computed from topology and NIC rates",
            "Bus bandwidth is nccl-tests' measure of how fast the slowest link is driven; at large sizes a healthy "
                    + "multi-node sweep gets most of the way to the narrowest link's ceiling. Half of it or less means "
                    + "something on the path is not what the topology says: GPUDirect RDMA off, traffic on the wrong "
                    + "NIC or over TCP, a link trained down, congestion, or a protocol or algorithm choice that does not "
                    + "suit the fabric.",
            "each multi-node sweep's highest out-of-place busbw against the narrowest ceiling",
            "Check `nccl-doctor gdr` (is GPUDirect RDMA on for every pair?), the NCCL log of the run (`via NET/IB/…/GDRDMA` "
                    + "or NET/Socket?), and compare with nccl-tests on the same ranks (`run --reference nccl-tests`).");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(ResultSet results, RuleContext context) {
        ResultThresholds t = context.config().thresholds().results();
        Optional<Ceiling> narrowest = results.narrowest();
        if (narrowest.isEmpty()) {
            return Outcome.waived("no ceiling known: give node captures or a bundle with ceilings");
        }
        Ceiling c = narrowest.get();
        List<Finding> found = new ArrayList<>();
        for (Sweep s : results.sweeps()) {
            if (s.nodes().orElse(2) < 2 || s.ranks().orElse(2) < 2 || s.rows().isEmpty()) {
                continue;
            }
            NcclTestsOutput.Row peak = s.rows().stream().max(Comparator.comparingDouble(SweepMath::busBw)).orElseThrow();
            double fraction = SweepMath.busBw(peak) / c.busBwGBps();
            if (fraction >= t.farBelowFraction()) {
                continue;
            }
            found.add(finding(s.label(), SweepMath.describe(s) + " peaks at " + SweepMath.gb(SweepMath.busBw(peak)) + ", "
                    + SweepMath.pct(fraction) + " of the " + SweepMath.gb(c.busBwGBps()) + " ceiling", List.of(
                    "peak busbw " + SweepMath.gb(SweepMath.busBw(peak)) + " at " + SweepMath.size(peak.sizeBytes()) + " in " + s.source(),
                    "narrowest ceiling: " + c.label() + " = " + SweepMath.gb(c.busBwGBps()) + " (" + c.link() + ")",
                    "threshold: below " + SweepMath.pct(t.farBelowFraction()) + " of the ceiling")));
        }
        return Outcome.flag(found);
    }
}
