package io.nccldoctor.reports.rulezero;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.Fact;
import io.nccldoctor.reports.baseline.Baselines;
import io.nccldoctor.reports.baseline.Expectation;
import io.nccldoctor.reports.baseline.Hardware;
import io.nccldoctor.reports.baseline.Nics;
import io.nccldoctor.reports.baseline.Run;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The published figure for the suspect's hardware, when no nccl-tests run was given: what a healthy system of that GPU
 * model, those ranks and nodes (and NICs) reaches (configs/baselines.yaml). It cannot tell the harness from the
 * hardware as nccl-tests on the same nodes can; it says whether the number is below what the hardware is published to
 * do, which decides whether running nccl-tests is worth it before anything else.
 *
 * @param gpuModel the device name as nccl-tests prints it ("NVIDIA H100 80GB HBM3"), given by the user
 * @param nodes    how many nodes the ranks span, given by the user
 * @param nics     the NICs of a node snapshot, when one was given
 */
public record BaselineReference(Baselines baselines, Fact<String> gpuModel, Fact<Integer> nodes, Optional<Nics> nics) {

    public static BaselineReference none() {
        return new BaselineReference(Baselines.none(), Fact.absent("not given"), Fact.absent("not given"), Optional.empty());
    }

    /** The suspect row as a run of one size, judged against the first entry that applies. */
    Expectation judge(SuspectRow r, double farBelow) {
        Fact<Integer> perNode = nodes.isValue() && r.ranks() % nodes.get() == 0 ? Fact.of(r.ranks() / nodes.get())
                : Fact.absent("the nodes were not given (--nodes)");
        Hardware h = new Hardware(gpuModel, List.of(), Fact.of(r.ranks()), nodes, perNode, Map.of(),
                List.of("GPU model and nodes as given on the command line; ranks from the suspect table"));
        NcclTestsOutput.Placement p = new NcclTestsOutput.Placement(r.timeUs().orElse(0.0), 0, r.busBw().get(),
                Fact.absent("not a nccl-tests row"), Fact.absent("not a nccl-tests row"));
        NcclTestsOutput.Row row = new NcclTestsOutput.Row(r.bytes(), r.count(), r.dtype(), Fact.absent("not given"),
                Fact.absent("not given"), p, Fact.absent("not given"));
        Run run = new Run(r.source(), r.source(), Fact.of(r.collective()), h, Map.of(), List.of(), nics, List.of(row),
                Fact.absent("not given"), 0);
        return Expectation.of(baselines, run, farBelow);
    }
}
