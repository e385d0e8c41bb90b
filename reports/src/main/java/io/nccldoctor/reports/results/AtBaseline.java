package io.nccldoctor.reports.results;

import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import io.nccldoctor.reports.baseline.Baselines;
import io.nccldoctor.reports.baseline.Expectation;
import java.util.ArrayList;
import java.util.List;

/** A run within the published range for its hardware: said, so that a pass rests on a named reference. */
public final class AtBaseline implements ResultRule {

    static final RuleInfo INFO = new RuleInfo("AT_BASELINE", Severity.INFO,
            "bus bandwidth within the published range for this hardware",
            "The run reaches what a healthy system of its GPUs, links and NICs is published to reach (configs/baselines.yaml). "
                    + "The finding names the entry and its source, so that a pass rests on a reference a reader can check.",
            "as BELOW_BASELINE: the hardware the input shows matched against configs/baselines.yaml",
            "Nothing to do for bandwidth; keep the run as this system's own reference for later comparisons (`compare`).");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(ResultSet results, RuleContext context) {
        List<Judged> all = Judged.of(results, context.config().thresholds().results());
        String none = Judged.noneJudged(results, all);
        if (none != null) {
            return Outcome.waived(none);
        }
        List<Finding> found = new ArrayList<>();
        for (Judged j : all) {
            Expectation e = j.expectation();
            if (e.verdict() != Expectation.Verdict.WITHIN) {
                continue;
            }
            Baselines.Baseline b = e.baseline().get();
            found.add(finding(j.run().label(), j.run().describe() + " reaches " + SweepMath.gb(e.figureGBps().get()) + ", "
                    + SweepMath.pct(e.ratio().get()) + " of baseline " + b.id() + " (" + SweepMath.gb(e.expectedGBps().get()) + ")",
                    List.of(e.why() + " in " + j.run().source(), "baseline " + b.id() + " (" + b.kind() + "): " + Judged.cite(b),
                            "healthy range: from " + SweepMath.gb(e.lowGBps().get()) + "; " + b.spreadSource(),
                            "hardware read: " + j.run().hardware().summary())));
        }
        return Outcome.flag(found);
    }
}
