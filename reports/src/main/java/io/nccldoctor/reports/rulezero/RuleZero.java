package io.nccldoctor.reports.rulezero;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.nccldoctor.collectives.reference.ReferenceTest;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.InputException;
import io.nccldoctor.reports.ResultThresholds;
import io.nccldoctor.reports.chart.SizeLabels;
import io.nccldoctor.reports.results.Ceiling;
import io.nccldoctor.reports.results.Sweep;
import java.util.Comparator;
import java.util.List;

/**
 * The rule-zero report: before blaming the hardware, run the reference tool (nccl-tests) on the same sizes and read how it
 * conditions its inputs. Each suspect size gets its conditioning audit (chunks as given against nccl-tests' trimmed
 * ones), its busbw against nccl-tests' at that size and against the narrowest ceiling, and a {@link Verdict}; the
 * overall verdict line settles "the hardware or our harness" for a ticket. docs/rulezero.md has the rules.
 *
 * @param verdict          the overall verdict: HARNESS_ARTIFACT if any size is one, else FABRIC, CONSISTENT, NO_REFERENCE
 * @param verdictLine      one line for the ticket, starting with the verdict
 * @param rows             the suspect sizes judged, in input order
 * @param references       the reference sweeps given
 * @param ceiling          the narrowest ceiling, or why none is known
 * @param cliffFraction    a suspect below this fraction of nccl-tests is a harness artifact (thresholds.results)
 * @param farBelowFraction suspect and nccl-tests both below this fraction of the ceiling is the fabric (thresholds.results)
 */
@JsonPropertyOrder({"schemaVersion", "kind", "verdict", "verdictLine", "rows", "references", "ceiling", "cliffFraction", "farBelowFraction"})
public record RuleZero(Verdict verdict, String verdictLine, List<Judgement> rows, List<ReferenceCurve> references, Fact<Ceiling> ceiling,
                       double cliffFraction, double farBelowFraction) {

    public RuleZero {
        rows = List.copyOf(rows);
        references = List.copyOf(references);
    }

    @JsonProperty
    public int schemaVersion() {
        return 1;
    }

    @JsonProperty
    public String kind() {
        return "rulezero";
    }

    /**
     * @param suspect    the measurements under suspicion, at least one
     * @param reference  nccl-tests sweeps (text or -J, read by ResultInputs); each row is matched on collective and ranks
     * @param ceilings   ceilings as `nccl-doctor report` computes them (NodeCeilings, a bundle's); empty when none is known
     * @param thresholds cliffFraction and farBelowFraction are used; unset ones take their defaults
     */
    public static RuleZero of(List<SuspectRow> suspect, List<Sweep> reference, List<Ceiling> ceilings, ResultThresholds thresholds) {
        return of(suspect, reference, ceilings, thresholds, BaselineReference.none());
    }

    /**
     * The same, with a published figure to hold each size against where nccl-tests has no row for it.
     *
     * @param baseline configs/baselines.yaml and the hardware the user named
     */
    public static RuleZero of(List<SuspectRow> suspect, List<Sweep> reference, List<Ceiling> ceilings, ResultThresholds thresholds,
                              BaselineReference baseline) {
        if (suspect.isEmpty()) {
            throw new InputException("no suspect measurement to compare: give a table or a `run --json` with at least one size");
        }
        ResultThresholds t = thresholds.withDefaults();
        Fact<Ceiling> ceiling = ceilings.stream().filter(c -> c.busBwGBps() > 0).min(Comparator.comparingDouble(Ceiling::busBwGBps))
                .map(Fact::of).orElseGet(() -> Fact.absent("no ceiling known: give node captures or a bundle's ceilings"));
        List<Judgement> rows = suspect.stream().map(r -> Judgement.of(r, reference, ceiling, t.cliffFraction(), t.farBelowFraction(),
                baseline, t.baselineFarFraction())).toList();
        Verdict overall = rows.stream().map(Judgement::verdict).min(Comparator.naturalOrder()).orElseThrow();
        return new RuleZero(overall, line(overall, rows, ceiling, t), rows, reference.stream().map(ReferenceCurve::of).toList(), ceiling,
                t.cliffFraction(), t.farBelowFraction());
    }

    private static String line(Verdict overall, List<Judgement> rows, Fact<Ceiling> ceiling, ResultThresholds t) {
        List<Judgement> none = of(rows, Verdict.NO_REFERENCE);
        String rest = none.isEmpty() || overall == Verdict.NO_REFERENCE ? ""
                : "; " + none.size() + " of " + rows.size() + " sizes without a reference";
        return switch (overall) {
            case HARNESS_ARTIFACT -> harness(rows, t) + rest + ".";
            case FABRIC -> {
                List<Judgement> f = of(rows, Verdict.FABRIC);
                yield "FABRIC: nccl-tests is as slow as the suspect: at " + f.size() + " of " + rows.size() + " sizes both stay below "
                        + Fmt.pct(t.farBelowFraction()) + " of the " + Fmt.gb(ceiling.get().busBwGBps()) + " ceiling ("
                        + ceiling.get().label() + "): look at the fabric, not the harness" + rest + ".";
            }
            case CONSISTENT -> {
                List<Judgement> c = of(rows, Verdict.CONSISTENT);
                double lo = c.stream().mapToDouble(j -> j.ratio().get()).min().orElseThrow();
                double hi = c.stream().mapToDouble(j -> j.ratio().get()).max().orElseThrow();
                yield "CONSISTENT: the suspect keeps up with nccl-tests: " + c.size() + " of " + rows.size() + " sizes at "
                        + (Fmt.pct(lo).equals(Fmt.pct(hi)) ? Fmt.pct(lo) : Fmt.pct(lo).replace(" %", "") + " to " + Fmt.pct(hi))
                        + " of its busbw" + (ceiling.isValue() ? "" : "; no ceiling known, so whether both sit far below the fabric's "
                        + "limit is open") + rest + ".";
            }
            case BELOW_BASELINE -> baselineLine(rows, true) + rest + ".";
            case AT_BASELINE -> baselineLine(rows, false) + rest + ".";
            case NO_REFERENCE -> "NO_REFERENCE: no suspect size has a nccl-tests row to compare with; " + whatToRun(rows) + ".";
        };
    }

    /** The verdict when the reference is a published baseline, not nccl-tests: said so, with the entry and what to run. */
    private static String baselineLine(List<Judgement> rows, boolean below) {
        List<Judgement> judged = rows.stream().filter(j -> j.verdict() == Verdict.BELOW_BASELINE || j.verdict() == Verdict.AT_BASELINE)
                .toList();
        List<Judgement> low = of(rows, Verdict.BELOW_BASELINE);
        String against = "no nccl-tests run given, so the reference is a published baseline (configs/baselines.yaml): " + judged.size()
                + " of " + rows.size() + " sizes held against it";
        if (!below) {
            return "AT_BASELINE: " + against + ", all within its healthy range; nccl-tests on these nodes is still the better reference";
        }
        Judgement worst = low.stream().min(Comparator.comparingDouble(j -> j.ratio().get())).orElseThrow();
        return "BELOW_BASELINE: " + against + ", " + low.size() + " below its healthy range (down to " + Fmt.pct(worst.ratio().get())
                + " at " + SizeLabels.format(worst.suspect().bytes()) + "); " + whatToRun(rows) + " to tell the harness from the hardware";
    }

    private static String harness(List<Judgement> rows, ResultThresholds t) {
        List<Judgement> h = of(rows, Verdict.HARNESS_ARTIFACT);
        Judgement worst = h.stream().min(Comparator.comparingDouble(j -> j.ratio().get())).orElseThrow();
        List<Judgement> off = h.stream().filter(j -> j.audit().conditioningDiffers()).toList();
        StringBuilder b = new StringBuilder("HARNESS_ARTIFACT: it is the harness, not the hardware: ").append(h.size()).append(" of ")
                .append(rows.size()).append(" sizes run below ").append(Fmt.pct(t.cliffFraction())).append(" of nccl-tests' busbw on the same ")
                .append("ranks (down to ").append(Fmt.pct(worst.ratio().get())).append(" at ")
                .append(SizeLabels.format(worst.suspect().bytes())).append(')');
        if (!off.isEmpty()) {
            Judgement e = off.stream().min(Comparator.comparingDouble(j -> j.ratio().get())).orElseThrow();
            b.append(off.size() == h.size() ? "; every one" : "; " + off.size() + " of them").append(" splits into chunks off 16-byte ")
                    .append("boundaries, which nccl-tests trims away (").append(SizeLabels.format(e.suspect().bytes())).append(": ")
                    .append(e.audit().chunkName()).append(" chunks of ").append(Fmt.grouped(e.audit().asGiven().chunkBytes()))
                    .append(" bytes; nccl-tests uses ").append(Fmt.grouped(e.audit().asNcclTests().count())).append(" elements)")
                    .append(off.size() == h.size() ? ": fix the sizing before blaming the hardware" : ": fix the sizing, then look at the rest");
        } else {
            b.append("; their chunks are aligned like nccl-tests': look at how the harness times, launches and allocates");
        }
        int fabric = of(rows, Verdict.FABRIC).size();
        if (fabric > 0) {
            b.append("; at ").append(fabric).append(fabric == 1 ? " size" : " sizes").append(" nccl-tests is as slow (FABRIC)");
        }
        return b.toString();
    }

    /**
     * The nccl-tests command line that would give the missing reference, from the first suspect row: powers of two from
     * below its group's smallest size to above its largest, so that interpolation has a row on either side.
     */
    private static String whatToRun(List<Judgement> rows) {
        SuspectRow r = rows.get(0).suspect();
        List<Long> sizes = rows.stream().map(Judgement::suspect).filter(x -> x.collective().equals(r.collective()) && x.ranks() == r.ranks())
                .map(SuspectRow::bytes).toList();
        long lo = Long.highestOneBit(sizes.stream().mapToLong(Long::longValue).min().orElseThrow());
        long hi = Long.highestOneBit(sizes.stream().mapToLong(Long::longValue).max().orElseThrow()) * 2;
        String binary = ReferenceTest.named(r.collective()).map(ReferenceTest::binary).orElse("the nccl-tests binary of " + r.collective());
        return "run " + binary + " -d " + r.dtype() + " -b " + lo + " -e " + hi + " -f 2 on the same "
                + Fmt.ranks(r.ranks()) + " and give its output as the reference";
    }

    private static List<Judgement> of(List<Judgement> rows, Verdict v) {
        return rows.stream().filter(j -> j.verdict() == v).toList();
    }
}
