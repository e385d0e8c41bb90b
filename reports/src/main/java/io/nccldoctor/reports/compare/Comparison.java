package io.nccldoctor.reports.compare;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.nccldoctor.core.Fact;
import io.nccldoctor.reports.results.Sweep;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Two result sets side by side: A (the baseline, e.g. NCCL 2.28) and B (the candidate, e.g. NCCL 2.30.7). Per
 * collective, message size and environment, the out-of-place busbw of every run of each arm is one sample; repeats
 * give several. Each such key gets the ratio of medians B/A and, with enough runs, an interval, a U test and a verdict
 * ({@link Verdict}); each collective and environment gets a summary line. One model for every format: JSON through
 * {@code Json.write}, {@link CompareMarkdown}, {@link CompareHtml}.
 *
 * @param a          the baseline arm
 * @param b          the arm compared against it
 * @param thresholds what the verdicts used, every key set
 * @param notes      caveats that apply to the whole comparison (different world sizes, mixed versions, few runs)
 * @param summaries  one per collective and environment, in the order of {@code rows}
 * @param rows       one per collective, environment and size: collectives by name, "default" environment first, then
 *                   the others by name, sizes ascending
 */
@JsonPropertyOrder({"schemaVersion", "kind", "a", "b", "thresholds", "notes", "summaries", "rows"})
public record Comparison(Arm a, Arm b, CompareThresholds thresholds, List<String> notes, List<Summary> summaries, List<Row> rows) {

    /** busbw below this is nccl-tests' rounded zero (it prints two decimals): tiny sizes, nothing to divide by. */
    public static final double ZERO = 0.005;

    /** The environment label of a sweep without NCCL_* settings. */
    public static final String DEFAULT_ENV = "default";

    public Comparison {
        notes = List.copyOf(notes);
        summaries = List.copyOf(summaries);
        rows = List.copyOf(rows);
    }

    @JsonProperty
    public int schemaVersion() {
        return 1;
    }

    @JsonProperty
    public String kind() {
        return "compare";
    }

    /**
     * One arm.
     *
     * @param name           what the reader calls it: "NCCL 2.28", "before"
     * @param sweeps         how many sweeps it holds, repeats included
     * @param ncclVersions   the NCCL versions its sweeps report, sorted
     * @param versionUnknown how many of its sweeps do not say their NCCL version
     * @param ranks          the world sizes of its sweeps where known, sorted
     * @param sources        the files its sweeps came from, in input order, each once
     * @param decisions      what NCCL decided in its runs, from the NCCL logs among or inside its inputs
     * @param skipped        files of its folders that are none of the inputs report reads, with why
     */
    public record Arm(String name, int sweeps, List<String> ncclVersions, int versionUnknown, List<Integer> ranks, List<String> sources,
                      Decisions decisions, List<String> skipped) {

        public Arm {
            ncclVersions = List.copyOf(ncclVersions);
            ranks = List.copyOf(ranks);
            sources = List.copyOf(sources);
            decisions = decisions == null ? Decisions.none() : decisions;
            skipped = skipped == null ? List.of() : List.copyOf(skipped);
        }

        Arm with(Decisions d, List<String> files) {
            return new Arm(name, sweeps, ncclVersions, versionUnknown, ranks, sources, d, files);
        }

        static Arm of(String name, List<Sweep> sweeps) {
            TreeSet<String> versions = new TreeSet<>();
            TreeSet<Integer> ranks = new TreeSet<>();
            LinkedHashSet<String> sources = new LinkedHashSet<>();
            int unknown = 0;
            for (Sweep s : sweeps) {
                if (s.ncclVersion().isValue()) {
                    versions.add(s.ncclVersion().get());
                } else {
                    unknown++;
                }
                if (s.ranks().isValue()) {
                    ranks.add(s.ranks().get());
                }
                sources.add(s.source());
            }
            return new Arm(name, sweeps.size(), List.copyOf(versions), unknown, List.copyOf(ranks), List.copyOf(sources), null, null);
        }

        /** "2.28.3", "2.28.3, 2.28.9 and 1 unknown", "unknown". */
        public String versions() {
            List<String> parts = new ArrayList<>(ncclVersions);
            if (versionUnknown > 0) {
                parts.add(ncclVersions.isEmpty() ? "unknown" : versionUnknown + " unknown");
            }
            return String.join(", ", parts);
        }
    }

    /**
     * One collective, environment and message size.
     *
     * @param collective  allreduce, allgather …; "unknown" where the output does not name it
     * @param env         the sweep's NCCL_* settings as "K=V K=V" sorted by name, or {@value #DEFAULT_ENV}
     * @param sizeBytes   the message size
     * @param a           out-of-place busbw (GB/s) of every run of A at this key, in input order
     * @param b           the same for B
     * @param medianA     median of {@code a}; absent when A did not measure this size
     * @param medianB     median of {@code b}; absent likewise
     * @param ratio       medianB / medianA; absent when either is absent or rounds to zero
     * @param interval    95 % bootstrap percentile interval of the ratio; absent with fewer than minSamples runs in an
     *                    arm, or when busbw rounds to zero
     * @param test        the two-sided Mann-Whitney U test of b against a; absent like the interval
     * @param roundedZero some run printed busbw 0.00 here (the smallest sizes): kept, never judged
     * @param verdict     see {@link Verdict}
     * @param reason      one phrase on why this verdict
     * @param interpolatedA how many of A's samples were read between a run's own sizes ({@link SizeCurve}): that run
     *                    did not measure this size
     * @param interpolatedB the same for B
     */
    @JsonPropertyOrder({"collective", "env", "sizeBytes", "nA", "nB"})
    public record Row(String collective, String env, long sizeBytes, @JsonProperty("busBwGBpsA") List<Double> a,
                      @JsonProperty("busBwGBpsB") List<Double> b, @JsonProperty("medianBusBwGBpsA") Fact<Double> medianA,
                      @JsonProperty("medianBusBwGBpsB") Fact<Double> medianB, Fact<Double> ratio, Fact<Stats.Interval> interval,
                      Fact<Stats.UTest> test, boolean roundedZero, Verdict verdict, String reason, int interpolatedA, int interpolatedB) {

        public Row {
            a = List.copyOf(a);
            b = List.copyOf(b);
        }

        /** Every sample measured at this size. */
        public Row(String collective, String env, long sizeBytes, List<Double> a, List<Double> b, Fact<Double> medianA,
                   Fact<Double> medianB, Fact<Double> ratio, Fact<Stats.Interval> interval, Fact<Stats.UTest> test,
                   boolean roundedZero, Verdict verdict, String reason) {
            this(collective, env, sizeBytes, a, b, medianA, medianB, ratio, interval, test, roundedZero, verdict, reason, 0, 0);
        }

        /** The row with how many samples of each arm were interpolated. */
        Row interpolated(int inA, int inB) {
            return new Row(collective, env, sizeBytes, a, b, medianA, medianB, ratio, interval, test, roundedZero, verdict, reason, inA, inB);
        }

        /** Runs of A at this key. */
        @JsonProperty("nA")
        public int nA() {
            return a.size();
        }

        /** Runs of B at this key. */
        @JsonProperty("nB")
        public int nB() {
            return b.size();
        }
    }

    /**
     * One collective and environment.
     *
     * @param collective  as in the rows
     * @param env         as in the rows
     * @param faster      the sizes where B is FASTER, ascending
     * @param slower      the sizes where B is SLOWER, ascending
     * @param judged      sizes with a verdict other than NOT_TESTED
     * @param notTested   sizes without one
     * @param medianRatio the median of the ratios over sizes from {@link Summaries#FROM_BYTES} up (below, latency
     *                    dominates busbw), rounded-zero sizes left out; absent when no such size has a ratio
     * @param line        one line that stands on its own: "allgather: B faster from 4 MiB to 8 GiB, median x4.92"
     */
    public record Summary(String collective, String env, @JsonProperty("fasterSizesBytes") List<Long> faster,
                          @JsonProperty("slowerSizesBytes") List<Long> slower, int judged, int notTested, Fact<Double> medianRatio,
                          String line) {

        public Summary {
            faster = List.copyOf(faster);
            slower = List.copyOf(slower);
        }
    }

    /**
     * Compares B against A.
     *
     * @param thresholds null for the defaults; unset keys take theirs
     */
    public static Comparison of(String nameA, List<Sweep> a, String nameB, List<Sweep> b, CompareThresholds thresholds) {
        Objects.requireNonNull(nameA, "arm A needs a name");
        Objects.requireNonNull(nameB, "arm B needs a name");
        CompareThresholds t = thresholds == null ? CompareThresholds.DEFAULTS : thresholds.withDefaults();
        Samples samples = Samples.of(a, b, t.interpolateMaxFactor());
        List<Row> rows = samples.values().entrySet().stream()
                .map(e -> Judge.row(e.getKey().collective(), e.getKey().env(), e.getKey().sizeBytes(), e.getValue().get(0),
                        e.getValue().get(1), t).interpolated(samples.interpolated(e.getKey(), 0), samples.interpolated(e.getKey(), 1)))
                .toList();
        Arm armA = Arm.of(nameA, a);
        Arm armB = Arm.of(nameB, b);
        return new Comparison(armA, armB, t, Judge.notes(armA, armB, rows, t), Summaries.of(rows), rows);
    }

    /** Compares two arms as read from the command line, with what NCCL decided in each and the files they skipped. */
    public static Comparison of(ArmInput a, ArmInput b, CompareThresholds thresholds) {
        Comparison c = of(a.name(), a.sweeps(), b.name(), b.sweeps(), thresholds);
        return new Comparison(c.a().with(a.decisions(), a.skipped()), c.b().with(b.decisions(), b.skipped()), c.thresholds(), c.notes(),
                c.summaries(), c.rows());
    }

    /** What the samples are grouped by. */
    record Key(String collective, String env, long sizeBytes) {
        static final Comparator<Key> ORDER = Comparator.comparing(Key::collective)
                .thenComparing(Key::env, Comparison::compareEnv)
                .thenComparingLong(Key::sizeBytes);
    }

    /** {@value #DEFAULT_ENV} first, then by name. */
    static int compareEnv(String x, String y) {
        if (x.equals(y)) {
            return 0;
        }
        return x.equals(DEFAULT_ENV) ? -1 : y.equals(DEFAULT_ENV) ? 1 : x.compareTo(y);
    }

    /** "NCCL_ALGO=Ring NCCL_PROTO=Simple", sorted by name, or {@value #DEFAULT_ENV}. */
    public static String envLabel(Map<String, String> env) {
        if (env.isEmpty()) {
            return DEFAULT_ENV;
        }
        return new TreeMap<>(env).entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" "));
    }
}
