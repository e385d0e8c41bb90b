package io.nccldoctor.reports.results;

import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.ResultThresholds;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import io.nccldoctor.reports.baseline.Baselines;
import io.nccldoctor.reports.baseline.Expectation;
import io.nccldoctor.reports.baseline.Note;
import java.util.ArrayList;
import java.util.List;

/** A run below the published figure for its hardware, with the causes the input shows. */
public final class BelowBaseline implements ResultRule {

    static final RuleInfo INFO = new RuleInfo("BELOW_BASELINE", Severity.WARN,
            "bus bandwidth below the published figure for this hardware",
            "Rule zero: before blaming the fabric, hold the number against a reference. With no node capture and no reference "
                    + "run, the reference is what a healthy system of the same GPUs, links and NICs is published to reach "
                    + "(configs/baselines.yaml: NVIDIA's maintainers, vendors' health checks, published runs, each with its "
                    + "source). A run below the low end of that range lost bandwidth somewhere; far below it, something on the "
                    + "path is not what the hardware allows: peer-to-peer off, a path across sockets, TCP sockets instead of "
                    + "RDMA, no GPU Direct RDMA, or a virtual machine's emulated bridges.",
            "the hardware the input shows (nccl-tests device lines, the command line, NCCL's log lines, nvidia-smi topo, "
                    + "lspci, captures) matched against configs/baselines.yaml; the run's best out-of-place busbw from the "
                    + "entry's minBytes up",
            "Follow the likely causes listed: enable peer-to-peer (NCCL_P2P_DISABLE, ACS, IOMMU), put GPUs and NICs on one "
                    + "socket's switch, fix the RDMA network or plugin that fell back to sockets, load nvidia-peermem or use "
                    + "DMA-BUF for GPU Direct RDMA; in a VM pass the PCIe topology through (NCCL_TOPO_FILE). Then run again "
                    + "at the entry's sizes.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(ResultSet results, RuleContext context) {
        ResultThresholds t = context.config().thresholds().results();
        List<Judged> all = Judged.of(results, t);
        String none = Judged.noneJudged(results, all);
        if (none != null) {
            return Outcome.waived(none);
        }
        List<Finding> found = new ArrayList<>();
        for (Judged j : all) {
            Expectation e = j.expectation();
            if (e.verdict() != Expectation.Verdict.BELOW && e.verdict() != Expectation.Verdict.FAR_BELOW) {
                continue;
            }
            Baselines.Baseline b = e.baseline().get();
            boolean far = e.verdict() == Expectation.Verdict.FAR_BELOW;
            List<Note> causes = j.run().causes();
            List<String> evidence = new ArrayList<>();
            evidence.add(e.why() + " in " + j.run().source());
            evidence.add("baseline " + b.id() + " (" + b.kind() + "): " + Judged.cite(b));
            evidence.add("healthy range: from " + SweepMath.gb(e.lowGBps().get()) + "; " + b.spreadSource());
            evidence.add("threshold: far below under " + SweepMath.pct(t.baselineFarFraction()) + " of the baseline");
            evidence.add("hardware read: " + j.run().hardware().summary() + "; " + String.join("; ", j.run().hardware().evidence()));
            evidence.addAll(Judged.causes(j.run()));
            String likely = causes.isEmpty() ? "" : "; likely: " + String.join(", ", causes.stream().map(n -> n.kind().name()).distinct().toList());
            found.add(finding(j.run().label(), j.run().describe() + " reaches " + SweepMath.gb(e.figureGBps().get()) + ", "
                    + SweepMath.pct(e.ratio().get()) + " of baseline " + b.id() + " (" + SweepMath.gb(e.expectedGBps().get()) + ")"
                    + (far ? ": far below" : ": below its healthy range") + likely, evidence));
        }
        return Outcome.flag(found);
    }
}
