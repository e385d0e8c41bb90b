package io.nccldoctor.reports.rulezero;

import io.nccldoctor.collectives.coll.Alignment;
import io.nccldoctor.collectives.coll.DataType;
import io.nccldoctor.core.Fact;
import io.nccldoctor.reports.baseline.Expectation;
import io.nccldoctor.reports.results.Ceiling;
import io.nccldoctor.reports.results.Sweep;
import java.util.List;

/**
 * One suspect size judged against nccl-tests.
 *
 * @param suspect            the measurement
 * @param audit              its input conditioning against nccl-tests'
 * @param reference          the nccl-tests busbw it is held against, or why there is none
 * @param ratio              suspect busbw / reference busbw, to 4 decimals
 * @param suspectOfCeiling   suspect busbw / the narrowest ceiling
 * @param referenceOfCeiling reference busbw / the narrowest ceiling
 * @param verdict            see {@link Verdict}
 * @param why                one paragraph: the numbers behind the verdict, and what to do
 */
public record Judgement(SuspectRow suspect, Audit audit, Fact<ReferenceMatch> reference, Fact<Double> ratio, Fact<Double> suspectOfCeiling,
                        Fact<Double> referenceOfCeiling, Verdict verdict, String why) {

    static Judgement of(SuspectRow r, List<Sweep> references, Fact<Ceiling> ceiling, double cliff, double farBelow) {
        return of(r, references, ceiling, cliff, farBelow, BaselineReference.none(), farBelow);
    }

    /** @param baseline the published figure to hold a size against when nccl-tests has no row for it */
    static Judgement of(SuspectRow r, List<Sweep> references, Fact<Ceiling> ceiling, double cliff, double farBelow,
                        BaselineReference baseline, double baselineFar) {
        Audit a = Audit.of(r);
        Fact<ReferenceMatch> m = References.match(r, a, references);
        double got = r.busBw().get();
        Fact<Double> suspectOfCeiling = ceiling.map(c -> Fmt.round4(got / c.busBwGBps()));
        if (!m.isValue()) {
            Expectation e = baseline.judge(r, baselineFar);
            if (e.verdict() == Expectation.Verdict.WITHIN || e.verdict() == Expectation.Verdict.BELOW
                    || e.verdict() == Expectation.Verdict.FAR_BELOW) {
                return againstBaseline(r, a, m, e, suspectOfCeiling);
            }
            String note = a.conditioningDiffers() ? " Without a comparison, note that the conditioning differs: " + conditioning(a) : "";
            return new Judgement(r, a, m, Fact.absent("no reference"), suspectOfCeiling, Fact.absent("no reference"), Verdict.NO_REFERENCE,
                    m.reason() + "." + note);
        }
        double ref = m.get().busBwGBps();
        double ratio = Fmt.round4(got / ref);
        Fact<Double> refOfCeiling = ceiling.map(c -> Fmt.round4(ref / c.busBwGBps()));
        String compared = Fmt.gb(got) + " is " + Fmt.pct(ratio) + " of nccl-tests' " + Fmt.gb(ref);
        if (ratio < cliff) {
            String cause = a.conditioningDiffers() ? "The conditioning differs: " + conditioning(a)
                    : "Its " + a.chunkName() + " chunks start on 16-byte boundaries as nccl-tests' do: the difference lies elsewhere in "
                    + "the harness (how it times, launches or allocates, or its NCCL_* environment).";
            return new Judgement(r, a, m, Fact.of(ratio), suspectOfCeiling, refOfCeiling, Verdict.HARNESS_ARTIFACT, compared + ", below the "
                    + Fmt.pct(cliff) + " that puts it on the harness, not the hardware. " + cause);
        }
        if (ceiling.isValue() && suspectOfCeiling.get() < farBelow && refOfCeiling.get() < farBelow
                && m.get().peakBusBwGBps() / ceiling.get().busBwGBps() < farBelow) {
            Ceiling c = ceiling.get();
            return new Judgement(r, a, m, Fact.of(ratio), suspectOfCeiling, refOfCeiling, Verdict.FABRIC, "nccl-tests is no faster: "
                    + Fmt.gb(got) + " and nccl-tests' " + Fmt.gb(ref) + " are " + Fmt.pct(suspectOfCeiling.get()) + " and "
                    + Fmt.pct(refOfCeiling.get()) + " of the " + Fmt.gb(c.busBwGBps()) + " ceiling (" + c.label() + "), and nccl-tests "
                    + "peaks at " + Fmt.gb(m.get().peakBusBwGBps()) + ", all below " + Fmt.pct(farBelow) + ": look at the fabric, not the "
                    + "harness.");
        }
        String despite = a.misaligned() ? "; its " + a.chunkName() + " chunks start off 16-byte boundaries, yet at this size it keeps up" : "";
        return new Judgement(r, a, m, Fact.of(ratio), suspectOfCeiling, refOfCeiling, Verdict.CONSISTENT,
                compared + against(m.get(), ceiling, suspectOfCeiling, farBelow) + despite + ".");
    }

    /** No nccl-tests row, but a published figure for the hardware given: the suspect against it, said as such. */
    private static Judgement againstBaseline(SuspectRow r, Audit a, Fact<ReferenceMatch> m, Expectation e, Fact<Double> ofCeiling) {
        var b = e.baseline().get();
        boolean within = e.verdict() == Expectation.Verdict.WITHIN;
        String why = "No nccl-tests row (" + m.reason() + "); against the published baseline " + b.id() + " (" + b.kind() + ", "
                + Fmt.gb(e.expectedGBps().get()) + ", healthy from " + Fmt.gb(e.lowGBps().get()) + "; \"" + b.quote() + "\", "
                + b.source() + "): " + Fmt.gb(r.busBw().get()) + " is " + Fmt.pct(e.ratio().get()) + " of it"
                + (within ? ". A published figure is not nccl-tests on these nodes: run it to be sure."
                : ", below its healthy range. Run nccl-tests on the same ranks to tell the harness from the hardware.");
        return new Judgement(r, a, m, Fact.of(Fmt.round4(e.ratio().get())), ofCeiling, Fact.absent("no nccl-tests reference"),
                within ? Verdict.AT_BASELINE : Verdict.BELOW_BASELINE, why);
    }

    /**
     * The suspect against the ceiling. A small size sits far below it on any fabric (latency, not bandwidth), so the
     * fabric is judged by nccl-tests' peak over its whole sweep, as FAR_BELOW_EXPECTED judges a sweep.
     */
    private static String against(ReferenceMatch m, Fact<Ceiling> ceiling, Fact<Double> suspectOfCeiling, double farBelow) {
        if (!ceiling.isValue()) {
            return "; no ceiling known";
        }
        Ceiling c = ceiling.get();
        String share = "; " + Fmt.pct(suspectOfCeiling.get()) + " of the " + Fmt.gb(c.busBwGBps()) + " ceiling (" + c.label() + ")";
        double peak = m.peakBusBwGBps() / c.busBwGBps();
        return suspectOfCeiling.get() < farBelow && peak >= farBelow ? share + ", where nccl-tests peaks at " + Fmt.pct(peak)
                + " of it: a size too small to fill the fabric" : share;
    }

    /** The conditioning difference in words: the chunk as given, which chunks are off, what nccl-tests uses, how to fix it. */
    static String conditioning(Audit a) {
        Alignment g = a.asGiven();
        Alignment t = a.asNcclTests();
        // every chunk aligned: count a multiple of ranks x (16 / element size); NCCL's types are 1, 2, 4 or 8 bytes
        long step = (long) g.ranks() * (Alignment.ALIGN_BYTES / DataType.parse(g.dtype()).size());
        return "as given, " + Fmt.grouped(g.count()) + " elements over " + Fmt.ranks(g.ranks()) + " make "
                + a.chunkName() + " chunks of " + Fmt.grouped(g.chunkElements()) + " elements = " + Fmt.grouped(g.chunkBytes())
                + " bytes, not a multiple of 16, so " + Audit.offBoundaries(g) + " and NCCL leaves its vectorised path; "
                + "nccl-tests would use " + Fmt.grouped(t.count()) + " elements (" + a.chunkName() + " chunks of "
                + Fmt.grouped(t.chunkBytes()) + " bytes, all aligned). Size the buffer to a multiple of " + Fmt.grouped(step)
                + " elements (" + Fmt.grouped(g.alignedBelow()) + " or " + Fmt.grouped(g.alignedAbove()) + "), or pad it.";
    }
}
