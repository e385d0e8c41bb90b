package io.nccldoctor.reports.baseline;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Numbers that cannot be true: a busbw above every physical bound that applies to the run. The bounds are the per-GPU
 * links and the universal ceiling of configs/baselines.yaml, a matched baseline's high end, and the NICs (a capture's,
 * or those a bundle names) for runs across nodes; each is relaxed by the {@link Mechanism}s the run may use. Both
 * placements of every row are checked: a one-rank in-place reduce times a no-op.
 */
public final class Plausibility {

    private Plausibility() {
    }

    /**
     * The worst row above a bound by more than {@code tolerance}, or empty.
     *
     * @param network bounds on the network of a multi-node run (a capture's NIC line rate or PCIe ceilings)
     */
    public static Optional<Breach> check(Baselines b, Run run, Expectation e, List<Limit> network, double tolerance) {
        List<Limit> limits = limits(b, run, e, network);
        Breach worst = null;
        for (NcclTestsOutput.Row r : run.rows()) {
            for (boolean inPlace : new boolean[] {false, true}) {
                if (inPlace && !r.inPlace().isValue()) {
                    continue;
                }
                double v = (inPlace ? r.inPlace().get() : r.outOfPlace()).busBwGBps();
                for (Limit l : limits) {
                    if (Double.isFinite(v) && v > l.gbps() * (1 + tolerance) && (worst == null || v / l.gbps() > worst.ratio())) {
                        worst = new Breach(r.sizeBytes(), inPlace, v, l, v / l.gbps());
                    }
                }
            }
        }
        return Optional.ofNullable(worst);
    }

    /**
     * One row above one bound.
     *
     * @param ratio busbw / bound
     */
    public record Breach(long sizeBytes, boolean inPlace, double busBwGBps, Limit limit, double ratio) {
    }

    /** The bounds that apply to this run, each with what relaxed it. */
    static List<Limit> limits(Baselines b, Run run, Expectation e, List<Limit> network) {
        List<Limit> out = new ArrayList<>();
        String collective = run.collective().orElse("");
        boolean oneRank = run.hardware().ranks().fold(n -> n == 1, why -> false);
        for (Baselines.LinkLimit c : b.ceilings()) {
            if (c.match().empty()) {
                out.add(new Limit(c.id() + " (" + c.what() + ")", c.gbps(), List.of(cite(c))));
            } else if (!oneRank && Expectation.matches(c.match(), run)) { // one rank moves nothing over a link
                out.add(gpuLink(c, run, collective));
            }
        }
        e.baseline().fold(x -> x.high() != null && e.verdict() != Expectation.Verdict.NO_BASELINE
                ? out.add(new Limit("baseline " + x.id() + "'s high end", x.high() * (x.perNic() ? run.nics().get().perNode() : 1),
                List.of(x.spreadSource()))) : false, why -> false);
        boolean multiNode = run.hardware().nodes().fold(n -> n > 1, why -> false);
        if (multiNode && !collective.equals("alltoall")) {
            network(run, collective, network, nvlsPossible(b, run)).ifPresent(out::add);
        }
        return out;
    }

    private static Limit gpuLink(Baselines.LinkLimit c, Run run, String collective) {
        List<String> evidence = new ArrayList<>(List.of(cite(c)));
        double gbps = c.gbps();
        int perNode = run.hardware().gpusPerNode().orElse(8);
        boolean allreduce = collective.equals("allreduce") || collective.isEmpty(); // unknown: the lenient bound
        if (allreduce && nvSwitch(c) && !run.nvlsOff() && perNode >= 5) {
            double lift = Mechanism.nvlsLift(perNode);
            gbps *= lift;
            evidence.add("raised x" + Fmt.num(lift) + " = 2(n-1)/(n+1) for n = " + perNode + ": NVLink SHARP may run this allreduce "
                    + "(mechanism nvls" + run.hardware().gpusPerNode().fold(g -> "", why -> "; GPUs per node unknown, 8 assumed") + ")");
        }
        return new Limit(c.id() + " (" + c.what() + ")", gbps, evidence);
    }

    /** The NICs' bound on a multi-node run: the narrowest given, relaxed by the two-node tree, NVLS or CollNet. */
    private static Optional<Limit> network(Run run, String collective, List<Limit> given, boolean nvls) {
        List<Limit> all = new ArrayList<>(given);
        run.nics().filter(n -> n.rateGbps().isValue()).ifPresent(n -> all.add(new Limit("NIC line rate, " + n.perNode() + " x "
                + Fmt.num(n.rateGbps().get()) + " Gbit/s per node", n.perNode() * n.rateGbps().get() / 8, List.of(n.text() + " (" + n.source() + ")"))));
        Optional<Limit> narrowest = all.stream().min((x, y) -> Double.compare(x.gbps(), y.gbps()));
        if (narrowest.isEmpty()) {
            return Optional.empty();
        }
        Limit l = narrowest.get();
        boolean allreduce = collective.equals("allreduce");
        int nodes = run.hardware().nodes().get();
        if (allreduce && nodes == 2 && !run.ringPinned()) {
            return Optional.empty(); // mechanism two-node-tree: the tree may pass the network's rate
        }
        List<String> evidence = new ArrayList<>(l.evidence());
        double gbps = l.gbps();
        if (allreduce && (run.has(Note.Kind.COLLNET) || run.has(Note.Kind.NVLS) || nvls)) {
            gbps *= 2;
            evidence.add("raised x2: in-switch or in-network reduction (mechanisms nvls, collnet) halves what crosses the network");
        }
        return Optional.of(new Limit(l.name(), gbps, evidence));
    }

    /** NVLink SHARP needs NVSwitch: NVLink 4 and 5 systems (ceilings nvlink4, nvlink5). */
    private static boolean nvSwitch(Baselines.LinkLimit c) {
        return c.id().startsWith("nvlink4") || c.id().startsWith("nvlink5");
    }

    /** The run's GPUs sit on NVSwitch, at least 5 per node (or unknown), and nothing pins NVLS away. */
    static boolean nvlsPossible(Baselines b, Run run) {
        boolean enough = run.hardware().gpusPerNode().fold(g -> g >= 5, why -> true);
        return enough && !run.nvlsOff() && b.ceilings().stream().anyMatch(c -> nvSwitch(c) && !c.match().empty()
                && Expectation.matches(c.match(), run));
    }

    private static String cite(Baselines.LinkLimit c) {
        return c.id() + ": " + (c.derivation() != null ? c.derivation() + "; " : "") + "\"" + c.quote() + "\" (" + c.source() + ")";
    }
}
