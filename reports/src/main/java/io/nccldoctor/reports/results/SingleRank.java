package io.nccldoctor.reports.results;

import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;

/** One rank: bus bandwidth is zero by definition, which is not a failure. */
public final class SingleRank implements ResultRule {

    static final RuleInfo INFO = new RuleInfo("SINGLE_RANK", Severity.INFO,
            "a single-rank run: bus bandwidth is 0 by definition",
            "Bus bandwidth scales algorithm bandwidth by how much each rank must move between ranks, e.g. 2(n-1)/n for "
                    + "allreduce: with n = 1 nothing moves and busbw is 0 for every size. The run measured only the "
                    + "local copy; it says nothing about the GPUs' links or the network.",
            "the world size of each sweep (nccl-tests' '# Rank' lines, or the run's world size)",
            "Run with at least two ranks (-g 2, or several processes) to measure links.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(ResultSet results, RuleContext context) {
        List<Finding> found = new ArrayList<>();
        for (Sweep s : results.sweeps()) {
            if (s.ranks().isValue() && s.ranks().get() == 1) {
                found.add(finding(s.label(), SweepMath.describe(s) + " ran on one rank: its busbw of 0 is by definition, not a failure",
                        List.of("1 rank in " + s.source() + "; algbw at the largest size: "
                                + s.largest().map(r -> SweepMath.gb(r.outOfPlace().algBwGBps())).orElse("no rows"))));
            }
        }
        return Outcome.flag(found);
    }
}
