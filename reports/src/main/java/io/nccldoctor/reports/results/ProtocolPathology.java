package io.nccldoctor.reports.results;

import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.ResultThresholds;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** One collective far below allreduce on the same ranks, which a pinned protocol lifts several-fold. */
public final class ProtocolPathology implements ResultRule {

    static final RuleInfo INFO = new RuleInfo("PROTOCOL_PATHOLOGY", Severity.WARN,
            "one collective runs far below allreduce, and a pinned NCCL protocol lifts it",
            "On the same ranks and sizes the collectives should land in the same range of bus bandwidth. When one is "
                    + "far below allreduce, NCCL's protocol choice for it may not suit the fabric. In the field report "
                    + "3-node allgather ran at 18.5 Gbit/s with NCCL's default choice and at 65.6 Gbit/s with "
                    + "NCCL_PROTO=LL128; pinned globally, the same setting cost the other collectives 20-30 %.",
            "out-of-place busbw per size from thresholds.results.minBytes up: each collective against allreduce on the "
                    + "same ranks and nodes (no NCCL_PROTO), and against its own runs with NCCL_PROTO pinned",
            "Pin the protocol only where it helps (per job, for the phase dominated by that collective), not globally; "
                    + "report the case to NCCL with the tuning lines of NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(ResultSet results, RuleContext context) {
        ResultThresholds t = context.config().thresholds().results();
        List<Finding> found = new ArrayList<>();
        for (Sweep base : results.sweeps()) {
            if (!base.collective().isValue() || base.collective().get().equals("allreduce") || pinned(base) || base.repeat() > 0) {
                continue;
            }
            Optional<Sweep> allreduce = results.sweeps().stream().filter(o -> o.collective().orElse("").equals("allreduce")
                    && !pinned(o) && same(o, base)).min(java.util.Comparator.comparing(o -> o.ncclVersion().equals(base.ncclVersion()) ? 0 : 1));
            if (allreduce.isEmpty()) {
                continue;
            }
            double ratio = ratio(base, allreduce.get(), t.minBytes());
            if (Double.isNaN(ratio) || ratio >= t.protocolFraction()) {
                continue;
            }
            List<String> evidence = new ArrayList<>();
            evidence.add(SweepMath.describe(base) + " runs at " + SweepMath.pct(ratio) + " of allreduce's busbw (median over common sizes "
                    + "from " + SweepMath.size(t.minBytes()) + "; threshold " + SweepMath.pct(t.protocolFraction()) + ")");
            Sweep best = null;
            double bestLift = 0;
            for (Sweep v : results.sweeps()) {
                if (pinned(v) && v.collective().equals(base.collective()) && same(v, base)) {
                    double lift = ratio(v, base, t.minBytes());
                    if (!Double.isNaN(lift)) {
                        evidence.add("NCCL_PROTO=" + v.env().get("NCCL_PROTO") + " gives " + SweepMath.num(lift) + "x ('" + v.label() + "')");
                        if (lift > bestLift) {
                            bestLift = lift;
                            best = v;
                        }
                    }
                }
            }
            String title;
            if (best != null && bestLift >= t.protocolLift()) {
                String proto = best.env().get("NCCL_PROTO");
                java.util.Set<String> costed = new java.util.HashSet<>();
                for (Sweep other : results.sweeps()) {
                    if (!pinned(other) && other.repeat() == 0 && same(other, base) && !other.collective().equals(base.collective())
                            && other.collective().isValue() && costed.add(other.collective().get())) { // the first sweep of each
                        results.sweeps().stream().filter(p -> proto.equals(p.env().get("NCCL_PROTO")) && p.collective().equals(other.collective())
                                && same(p, other)).findFirst().ifPresent(p -> {
                                    double change = ratio(p, other, t.minBytes()) - 1;
                                    if (!Double.isNaN(change)) {
                                        evidence.add(String.format(java.util.Locale.ROOT, "the same pin changes %s by %+.0f %%",
                                                other.collective().get(), change * 100));
                                    }
                                });
                    }
                }
                title = base.collective().get() + " runs at " + SweepMath.pct(ratio) + " of allreduce; NCCL_PROTO=" + proto + " lifts it "
                        + SweepMath.num(bestLift) + "x";
            } else {
                title = base.collective().get() + " runs at " + SweepMath.pct(ratio) + " of allreduce on the same ranks"
                        + (best == null ? "; no run with NCCL_PROTO pinned was given to test the protocol"
                        : "; no pinned protocol lifted it " + SweepMath.num(t.protocolLift()) + "x");
            }
            found.add(finding(base.label(), title, evidence));
        }
        return Outcome.flag(found);
    }

    private static boolean pinned(Sweep s) {
        return s.env().containsKey("NCCL_PROTO");
    }

    /** The same ranks, nodes and NCCL library: a comparison across versions is `compare`'s job. */
    private static boolean same(Sweep a, Sweep b) {
        return Objects.equals(a.ranks(), b.ranks()) && Objects.equals(a.nodes(), b.nodes())
                && (!a.ncclVersion().isValue() || !b.ncclVersion().isValue() || a.ncclVersion().equals(b.ncclVersion()));
    }

    /** Median over common sizes from minBytes of busbw(a) / busbw(b); NaN without one. */
    static double ratio(Sweep a, Sweep b, long minBytes) {
        double[] r = a.rows().stream().filter(x -> x.sizeBytes() >= minBytes).flatMap(x -> b.row(x.sizeBytes()).stream()
                .filter(y -> SweepMath.busBw(y) > SweepMath.ZERO).map(y -> SweepMath.busBw(x) / SweepMath.busBw(y)))
                .mapToDouble(Double::doubleValue).toArray();
        return r.length == 0 ? Double.NaN : SweepMath.median(r);
    }
}
