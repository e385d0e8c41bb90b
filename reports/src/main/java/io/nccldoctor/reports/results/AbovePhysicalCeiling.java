package io.nccldoctor.reports.results;

import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.ResultThresholds;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import io.nccldoctor.reports.baseline.Plausibility;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** A busbw above what the hardware can physically move: the harness, its timing or its formula, not the hardware. */
public final class AbovePhysicalCeiling implements ResultRule {

    static final RuleInfo INFO = new RuleInfo("ABOVE_PHYSICAL_CEILING", Severity.ERROR,
            "bus bandwidth above the physical ceiling: the measurement cannot be true",
            "No link carries more than its rate. A busbw above every bound that applies (the GPU's NVLink or PCIe link, the "
                    + "nodes' NICs, the fastest GPU link made) is not fast hardware but a wrong measurement: a timer that "
                    + "missed the work (a one-rank in-place reduce is a no-op, timed at a fraction of a microsecond), an "
                    + "operation that ran on fewer bytes than the formula assumes, or a bus-bandwidth formula applied to the "
                    + "wrong count (the field report trusted such an artefact). Four mechanisms legitimately print busbw above a "
                    + "link and are allowed for: NVLink SHARP, the tree on two nodes, in-network reduction, and alltoall.",
            "every row's out-of-place and in-place busbw against the per-GPU link of configs/baselines.yaml (raised for NVLS "
                    + "where possible), the matched baseline's high end, the universal ceiling, and for runs across nodes the "
                    + "NICs of a capture or a bundle",
            "Do not tune anything on this number. Check the harness: its timer (CUDA events or a synchronised host clock "
                    + "around the whole operation), the byte count the formula uses (nccl-tests' size column and factors, "
                    + "reference/nccl-internals.md §1), that the run had more than one rank; to measure the wire, pin "
                    + "NCCL_ALGO=Ring.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(ResultSet results, RuleContext context) {
        if (Judged.noBaselines(results) && results.ceilings().isEmpty()) {
            return Outcome.waived("no bound known: no baselines file and no node capture or bundle ceilings");
        }
        ResultThresholds t = context.config().thresholds().results();
        List<Finding> found = new ArrayList<>();
        for (Judged j : Judged.of(results, t)) {
            Optional<Plausibility.Breach> b = Plausibility.check(results.baselines(), j.run(), j.expectation(), Judged.network(results),
                    t.ceilingTolerance());
            if (b.isEmpty()) {
                continue;
            }
            Plausibility.Breach x = b.get();
            List<String> evidence = new ArrayList<>();
            evidence.add((x.inPlace() ? "in-place" : "out-of-place") + " busbw " + SweepMath.gb(x.busBwGBps()) + " at "
                    + SweepMath.size(x.sizeBytes()) + " in " + j.run().source() + ": " + String.format(Locale.ROOT, "%,.1f", x.ratio())
                    + " x the bound");
            evidence.add("bound: " + x.limit().name() + " = " + SweepMath.gb(x.limit().gbps()));
            evidence.addAll(x.limit().evidence());
            evidence.add("tolerance: " + SweepMath.pct(t.ceilingTolerance()) + " above the bound");
            j.run().hardware().ranks().fold(n -> n == 1 ? evidence.add("one rank: nothing crosses a link, and an in-place "
                    + "operation may move no byte at all") : false, why -> false);
            found.add(finding(j.run().label(), j.run().describe() + " prints " + SweepMath.gb(x.busBwGBps()) + " busbw at "
                    + SweepMath.size(x.sizeBytes()) + ", above " + x.limit().name().replaceFirst(" \\(.*", "") + "'s "
                    + SweepMath.gb(x.limit().gbps()) + ": a harness, timing or formula artefact, not the hardware", evidence));
        }
        return Outcome.flag(found);
    }
}
