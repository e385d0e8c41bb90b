package io.nccldoctor.reports.results;

import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import io.nccldoctor.reports.baseline.Expectation;
import java.util.ArrayList;
import java.util.List;

/** Sweeps no published figure applies to: what was recognised, so that the reader knows what is missing. */
public final class NoBaseline implements ResultRule {

    static final RuleInfo INFO = new RuleInfo("NO_BASELINE", Severity.INFO,
            "no published baseline applies to these runs",
            "A baseline needs the hardware: the GPU model (nccl-tests' device lines), the GPUs per node (their host names), "
                    + "and for runs across nodes the NICs (a capture, NCCL's System dump, or a bundle's hardware entry). An "
                    + "output pasted without its header, or hardware nobody has published a figure for, cannot be judged "
                    + "this way; the run is then judged only against ceilings and other runs.",
            "each sweep's hardware as read, and the entries of configs/baselines.yaml",
            "Paste nccl-tests' whole output (its '# Using devices' block), give a capture of a node or a bundle with "
                    + "'hardware: {nicsPerNode, nicRateGbps}', or add an entry with its source to configs/baselines.yaml.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(ResultSet results, RuleContext context) {
        if (Judged.noBaselines(results)) {
            return Outcome.waived("no baselines file (configs/baselines.yaml, or --baselines FILE)");
        }
        List<String> evidence = new ArrayList<>();
        int none = 0;
        List<Judged> all = Judged.of(results, context.config().thresholds().results());
        for (Judged j : all) {
            Expectation e = j.expectation();
            if (e.verdict() == Expectation.Verdict.NO_BASELINE || e.verdict() == Expectation.Verdict.TOO_SMALL) {
                none++;
                evidence.add(j.run().describe() + ": " + e.why());
            }
        }
        if (none == 0) {
            return Outcome.pass();
        }
        return Outcome.flag(finding("results", none + " of " + all.size() + " sweep" + (all.size() == 1 ? "" : "s")
                + " judged against no published baseline", evidence));
    }
}
