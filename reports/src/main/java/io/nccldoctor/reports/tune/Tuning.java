package io.nccldoctor.reports.tune;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.nccldoctor.core.Fact;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.compare.Stats;
import io.nccldoctor.reports.compare.Verdict;
import java.util.List;

/**
 * What `tune` concluded, one model for every form (the tuner file, the summary, --json): per collective, rank count
 * and node count ("shape") and per measured size, whether NCCL's choice stays or a faster one replaces it and by how
 * much; the rows of the tuner file; what could not be judged and why.
 *
 * @param inputs      the files read, as given
 * @param ncclVersion the one NCCL version the runs report
 * @param library     the libnccl the runs loaded (one path), where recorded: what the verification plan runs
 * @param thresholds  what a switch needed
 * @param shapes      in the order collective, ranks, nodes
 * @param rows        the tuner file's rows, in the order written
 * @param lacking     each setting and size with fewer runs than the statistics need
 * @param leftOut     runs or settings left out, each with why
 * @param notes       caveats for the whole result
 * @param pins        with --as-env: what each global pin measured would cost; empty otherwise
 */
@JsonPropertyOrder({"schemaVersion", "kind", "findings"})
public record Tuning(List<String> inputs, Fact<String> ncclVersion, Fact<String> library, Thresholds thresholds, List<Shape> shapes, List<TunerRow> rows,
                     List<Lacking> lacking, List<String> leftOut, List<String> notes, List<PinCost> pins) {

    public Tuning {
        inputs = List.copyOf(inputs);
        shapes = List.copyOf(shapes);
        rows = List.copyOf(rows);
        lacking = List.copyOf(lacking);
        leftOut = List.copyOf(leftOut);
        notes = List.copyOf(notes);
        pins = List.copyOf(pins);
    }

    @JsonProperty
    public int schemaVersion() {
        return 1;
    }

    @JsonProperty
    public String kind() {
        return "tune";
    }

    /** NCCL_GLOBAL_PIN for each pin --as-env refused. */
    @JsonProperty
    public List<Finding> findings() {
        return TuneFindings.of(this);
    }

    /**
     * @param minGain    a switch needs the 95 % interval of busbw(best) / busbw(NCCL's choice) above 1 + this
     * @param alpha      and the Mann-Whitney p below this (or at the floor of its sample sizes, as compare judges)
     * @param minSamples runs per setting and size below which nothing is judged
     */
    public record Thresholds(double minGain, double alpha, int minSamples) {
    }

    /** One collective on one number of ranks and nodes: what a row's collective, nRanks and nNodes columns say. */
    public record Shape(String collective, int ranks, int nodes, List<SizeDecision> sizes) {

        public Shape {
            sizes = List.copyOf(sizes);
        }
    }

    /** What happens at one size: NCCL's choice stays, a measured faster one replaces it, or there is not enough to judge. */
    public enum Decision {
        SWITCH, KEEP, NOT_JUDGED
    }

    /**
     * One measured size.
     *
     * @param ncclChoice          what NCCL ran with its defaults (its TUNING lines), or why not known
     * @param defaultRuns         runs with NCCL's defaults at this size
     * @param medianBusBwGBps     their median out-of-place busbw; absent without such runs
     * @param best                the fastest setting that is faster for real, or the fastest measured when none is
     * @param reason              one phrase on why this decision
     */
    public record SizeDecision(long sizeBytes, Decision decision, Fact<Choice> ncclChoice, int defaultRuns, Fact<Double> medianBusBwGBps,
                               Fact<Candidate> best, String reason) {
    }

    /**
     * A setting against NCCL's defaults at one size, as compare judges it.
     *
     * @param setting         "NCCL_PROTO=LL128"
     * @param choice          what ran under it, or why not known
     * @param runs            its runs at this size
     * @param medianBusBwGBps its median busbw
     * @param ratio           its median over the defaults' median
     * @param interval        the 95 % bootstrap interval of the ratio; absent with too few runs
     * @param p               the two-sided Mann-Whitney p; absent likewise
     * @param verdict         compare's verdict of the setting against the defaults
     * @param judgement       compare's phrase for it
     */
    public record Candidate(String setting, Fact<Choice> choice, int runs, double medianBusBwGBps, double ratio, Fact<Stats.Interval> interval,
                            Fact<Double> p, Verdict verdict, String judgement) {
    }

    /** A setting and size with fewer runs than minSamples: named, never judged. */
    public record Lacking(String collective, int ranks, int nodes, String setting, long sizeBytes, int runs, int needed) {
    }

    /**
     * What a global pin (one environment of the measurements) would do everywhere it was measured.
     *
     * @param pin     "NCCL_PROTO=LL128"
     * @param refused it loses somewhere by more than the threshold
     * @param gains   each run of consecutive sizes where it is faster for real
     * @param losses  each where it is slower for real
     * @param notJudged sizes without a verdict (too few runs, one side missing)
     */
    public record PinCost(String pin, boolean refused, List<PinRange> gains, List<PinRange> losses, int notJudged) {

        public PinCost {
            gains = List.copyOf(gains);
            losses = List.copyOf(losses);
        }
    }

    /**
     * Consecutive measured sizes with the same verdict.
     *
     * @param ratioLow  the smallest median ratio in the range
     * @param ratioHigh the largest
     * @param intervalLow  the lowest low end of the intervals in the range
     * @param intervalHigh the highest high end
     */
    public record PinRange(String collective, int ranks, int nodes, long fromBytes, long toBytes, double ratioLow, double ratioHigh,
                           double intervalLow, double intervalHigh) {
    }
}
