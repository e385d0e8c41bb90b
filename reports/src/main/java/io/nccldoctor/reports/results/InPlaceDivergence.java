package io.nccldoctor.reports.results;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.ResultThresholds;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;

/** In-place and out-of-place runs of the same size that disagree: the buffers, not the network, differ. */
public final class InPlaceDivergence implements ResultRule {

    static final RuleInfo INFO = new RuleInfo("INPLACE_DIVERGENCE", Severity.WARN,
            "in-place and out-of-place bandwidth diverge",
            "nccl-tests runs every size twice, with separate send and receive buffers and in place. The bytes on the "
                    + "wire are the same, so the two normally agree within a few percent at large sizes. When they do "
                    + "not, the difference is in the buffers: their alignment, registration (one buffer registered for "
                    + "GPUDirect RDMA and the other not), or memory placement.",
            "out-of-place and in-place busbw of every row from thresholds.results.minBytes up",
            "Compare with nccl-tests at the same sizes; check NCCL's log for registration messages; if a harness of your "
                    + "own shows it, look at how it allocates and offsets its buffers (`nccl-doctor align`).");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(ResultSet results, RuleContext context) {
        ResultThresholds t = context.config().thresholds().results();
        List<Finding> found = new ArrayList<>();
        for (Sweep s : results.sweeps()) {
            List<String> evidence = new ArrayList<>();
            for (NcclTestsOutput.Row r : s.rows()) {
                if (r.sizeBytes() < t.minBytes() || !r.inPlace().isValue()) {
                    continue;
                }
                double out = r.outOfPlace().busBwGBps();
                double in = r.inPlace().get().busBwGBps();
                double larger = Math.max(out, in);
                if (larger > SweepMath.ZERO && Math.abs(out - in) / larger > t.divergenceFraction()) {
                    evidence.add(SweepMath.size(r.sizeBytes()) + ": out-of-place " + SweepMath.gb(out) + ", in-place " + SweepMath.gb(in)
                            + " (" + SweepMath.pct(Math.abs(out - in) / larger) + " apart)");
                }
            }
            if (evidence.size() < 2) {
                continue; // one size can be noise
            }
            evidence.add("threshold: more than " + SweepMath.pct(t.divergenceFraction()) + " apart, at two sizes or more from "
                    + SweepMath.size(t.minBytes()) + "; source: " + s.source());
            found.add(finding(s.label(), SweepMath.describe(s) + ": in-place and out-of-place differ by more than "
                    + SweepMath.pct(t.divergenceFraction()) + " at " + (evidence.size() - 1) + " sizes", evidence));
        }
        return Outcome.flag(found);
    }
}
