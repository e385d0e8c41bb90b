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

/** Sizes whose per-peer chunks are not 16-byte aligned, far slower than aligned neighbours or nccl-tests. */
public final class AlignmentCliff implements ResultRule {

    static final RuleInfo INFO = new RuleInfo("ALIGNMENT_CLIFF", Severity.WARN,
            "misaligned chunks run far slower than aligned sizes",
            "NCCL moves data with 16-byte vector loads and stores when each rank's or peer's chunk starts on a 16-byte "
                    + "boundary, and falls back to a slower path when it does not. nccl-tests trims every count so that "
                    + "chunks stay aligned; a harness that sizes its own tensors may not. In the field report a 3-rank "
                    + "alltoall with 178,956,968-byte chunks (not a multiple of 16) ran at a fraction of nccl-tests' "
                    + "speed for the same size, and the harness, not the hardware, was to blame.",
            "the rows a run marked as misaligned (`nccl-doctor run` records per size whether every chunk is 16-byte "
                    + "aligned) against the interpolated busbw of the aligned sizes around them, or nccl-tests at the same size",
            "Size tensors so that count / ranks (or / ranks^2 for alltoall) elements make a multiple of 16 bytes "
                    + "(`nccl-doctor align` prints the nearest aligned count), or pad them.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(ResultSet results, RuleContext context) {
        ResultThresholds t = context.config().thresholds().results();
        if (results.sweeps().stream().noneMatch(s -> s.aligned().containsValue(false))) {
            return Outcome.waived("no run recorded a misaligned size (nccl-tests always aligns; `run --conditioning none` records it)");
        }
        List<Finding> found = new ArrayList<>();
        for (Sweep s : results.sweeps()) {
            List<String> evidence = new ArrayList<>();
            for (int i = 0; i < s.rows().size(); i++) {
                NcclTestsOutput.Row r = s.rows().get(i);
                if (s.aligned().getOrDefault(r.sizeBytes(), true)) {
                    continue;
                }
                Optional<String> reference = Optional.empty();
                double ref = Double.NaN;
                Optional<Sweep> tests = results.sweeps().stream().filter(o -> o != s && o.tool().startsWith("nccl-tests")
                        && o.collective().equals(s.collective()) && o.ranks().equals(s.ranks()) && o.row(r.sizeBytes()).isPresent())
                        .findFirst();
                if (tests.isPresent()) {
                    ref = SweepMath.busBw(tests.get().row(r.sizeBytes()).get());
                    reference = Optional.of("nccl-tests '" + tests.get().label() + "' at the same size: " + SweepMath.gb(ref));
                } else {
                    double interpolated = interpolate(s, i);
                    if (!Double.isNaN(interpolated)) {
                        ref = interpolated;
                        reference = Optional.of("aligned sizes around it interpolate to " + SweepMath.gb(ref));
                    }
                }
                double got = SweepMath.busBw(r);
                if (reference.isPresent() && ref > SweepMath.ZERO && got < t.cliffFraction() * ref) {
                    evidence.add(String.format(java.util.Locale.ROOT, "%s (%,d bytes, chunks not 16-byte aligned): %s, %s of the "
                            + "reference; %s", SweepMath.size(r.sizeBytes()), r.sizeBytes(), SweepMath.gb(got), SweepMath.pct(got / ref),
                            reference.get()));
                }
            }
            if (evidence.isEmpty()) {
                continue;
            }
            evidence.add("threshold: below " + SweepMath.pct(t.cliffFraction()) + " of the reference; source: " + s.source());
            found.add(finding(s.label(), SweepMath.describe(s) + " falls off a cliff at " + (evidence.size() - 1) + " misaligned size"
                    + (evidence.size() == 2 ? "" : "s"), evidence));
        }
        return Outcome.flag(found);
    }

    /** busbw at row i from the nearest aligned rows below and above, linear in log2(size); NaN without both. */
    private static double interpolate(Sweep s, int i) {
        int lo = i - 1;
        while (lo >= 0 && !s.aligned().getOrDefault(s.rows().get(lo).sizeBytes(), true)) {
            lo--;
        }
        int hi = i + 1;
        while (hi < s.rows().size() && !s.aligned().getOrDefault(s.rows().get(hi).sizeBytes(), true)) {
            hi++;
        }
        if (lo < 0 || hi >= s.rows().size()) {
            return Double.NaN;
        }
        NcclTestsOutput.Row a = s.rows().get(lo);
        NcclTestsOutput.Row b = s.rows().get(hi);
        double x = log2(s.rows().get(i).sizeBytes());
        double xa = log2(Math.max(1, a.sizeBytes()));
        double xb = log2(Math.max(1, b.sizeBytes()));
        return xb == xa ? SweepMath.busBw(a) : SweepMath.busBw(a) + (SweepMath.busBw(b) - SweepMath.busBw(a)) * (x - xa) / (xb - xa);
    }

    private static double log2(long v) {
        return Math.log(Math.max(1, v)) / Math.log(2);
    }
}
