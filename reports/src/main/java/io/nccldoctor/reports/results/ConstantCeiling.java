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
import java.util.Optional;

/** The same bandwidth for many sizes, well below what the path allows: a mechanism, not noise. */
public final class ConstantCeiling implements ResultRule {

    static final RuleInfo INFO = new RuleInfo("CONSTANT_CEILING", Severity.WARN,
            "bandwidth stays constant across many message sizes, well below the path's ceiling",
            "Real sweeps rise with message size while latency dominates, then level off near the slowest link. A number "
                    + "that does not move over a wide range of sizes, far below that link, is set by something that "
                    + "meters bytes: in the field report a switch flooding RoCE traffic to every port gave 9.68 Gbit/s, "
                    + "5,203 MiB/s for every size from 1 KiB up, on a 100G fabric. A suspiciously constant number is a "
                    + "mechanism, not noise.",
            "each sweep's out-of-place busbw per size; the ceilings computed from the nodes' NICs and PCIe links",
            "Look for what meters bytes at that rate: a switch flooding (unknown unicast, a missing MAC entry, "
                    + "storm control), a policer or shaper, a link negotiated down, PFC pause storms. Compare with "
                    + "`ib_write_bw` between the same two ports.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(ResultSet results, RuleContext context) {
        ResultThresholds t = context.config().thresholds().results();
        List<Finding> found = new ArrayList<>();
        Optional<Ceiling> ceiling = results.narrowest();
        for (Sweep s : results.sweeps()) {
            if (s.rows().size() < t.constantMinSizes() || s.ranks().orElse(2) == 1) {
                continue;
            }
            SweepMath.Run run = SweepMath.flattest(s.rows(), t.constantBand());
            if (run == null || run.length() < t.constantMinSizes()) {
                continue;
            }
            NcclTestsOutput.Row first = s.rows().get(run.from());
            NcclTestsOutput.Row last = s.rows().get(run.to());
            boolean multiNode = s.nodes().orElse(2) > 1;
            Optional<Ceiling> applies = ceiling.filter(c -> multiNode);
            boolean flatWhereItShouldRise = first.sizeBytes() <= t.constantSmallBytes();
            boolean atTheLink = applies.isPresent()
                    && Math.abs(run.median() - applies.get().busBwGBps()) <= t.linkTolerance() * applies.get().busBwGBps();
            // Flat where a real sweep still rises; a plateau that only forms at large sizes is FAR_BELOW_EXPECTED's, and
            // one at a link's ceiling is LINK_LIMITED's.
            boolean fires = flatWhereItShouldRise && !atTheLink;
            if (!fires) {
                continue;
            }
            List<String> evidence = new ArrayList<>();
            evidence.add(run.length() + " consecutive sizes from " + SweepMath.size(first.sizeBytes()) + " to "
                    + SweepMath.size(last.sizeBytes()) + " all give " + SweepMath.gb(run.median()) + " busbw (spread "
                    + SweepMath.pct(run.spread()) + ", threshold " + SweepMath.pct(t.constantBand()) + ") in " + s.source());
            evidence.add("already flat at " + SweepMath.size(first.sizeBytes()) + ", where latency should still dominate and bandwidth "
                    + "rise with size (threshold: flat from " + SweepMath.size(t.constantSmallBytes()) + " or below)");
            applies.ifPresent(c -> evidence.add("narrowest ceiling: " + c.label() + " = " + SweepMath.gb(c.busBwGBps())
                    + "; the plateau is " + SweepMath.pct(run.median() / c.busBwGBps()) + " of it"));
            evidence.add(String.format(java.util.Locale.ROOT, "%.2f GB/s = %.2f Gbit/s = %,.0f MiB/s", run.median(), run.median() * 8,
                    run.median() * 1e9 / 1048576));
            found.add(finding(s.label(), SweepMath.describe(s) + " is constant at " + SweepMath.gb(run.median()) + " from "
                    + SweepMath.size(first.sizeBytes()) + " to " + SweepMath.size(last.sizeBytes()) + ": something meters it", evidence));
        }
        return Outcome.flag(found);
    }
}
