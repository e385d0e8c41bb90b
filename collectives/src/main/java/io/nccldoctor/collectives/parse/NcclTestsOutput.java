package io.nccldoctor.collectives.parse;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.nccldoctor.core.Fact;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * nccl-tests output of every layout in the wild (reference/nccl-internals.md §2.2): the version header with NCCL
 * header/library codes, the run parameters line, the device lines, the table with its columns read from the column
 * header (5 lead columns and #wrong since v2.13, 4 lead columns and the older max-error column before; -S timestamps,
 * -I per-iteration columns, -C cputime), N/A cells with the reason the text gives, mpirun "[1,0]&lt;stdout&gt;:" and
 * srun "0: " prefixes, interleaved NCCL INFO lines, the footer, and the command line pasted with it.
 *
 * @param errorColumn true for the old layout, whose last cell per placement is a maximum error, not a count
 * @param avgBusBwOk  the OK / FAILED nccl-tests adds to the average when NCCL_TESTS_MIN_BW is set (FAILED: below
 *                    0.9 × that minimum); absent otherwise
 * @param parameters  each "# nThread … validation: … graph: …" line, with the mode lines printed under it
 * @param command     the command line pasted with the output (launcher, environment, the test's flags)
 * @param columns     the column names of the table header as printed, empty when the text has none
 * @param warnings    what the reader flags about the layout: unknown columns, CPU time, several tables, N/A cells
 *                    the header does not explain
 * @param errors      the "# error: …" lines (NCCL's last error, printed at the end of a run)
 * @param tool        the program that printed the text: "nccl-tests", or "rccl-tests" (ROCm's fork, whose header names
 *                    RCCL where nccl-tests names NCCL); "nccl-doctor" for its own measurements
 * @param furtherRuns the runs after this one in the same text, each read as its own table with its own header,
 *                    footer and summary: a run's rows are never merged into another's sweep (see {@link NcclTestsRuns})
 */
@JsonIgnoreProperties(value = {"failures", "peakBusBw", "ranks"}, allowGetters = true) // derived: written, recomputed when read back
public record NcclTestsOutput(Fact<String> testsVersion, Fact<String> ncclHeaders, Fact<String> ncclLibrary,
                              Fact<String> test, List<String> devices, boolean errorColumn, List<Row> rows,
                              Fact<Long> outOfBounds, Fact<Boolean> outOfBoundsOk, Fact<Double> avgBusBwGBps,
                              Fact<Boolean> avgBusBwOk, int ncclInfoLines, List<String> notUnderstood,
                              List<NcclTestsParameters> parameters, Fact<NcclTestsCommand> command, List<String> columns,
                              List<String> warnings, List<String> errors, String tool, List<NcclTestsOutput> furtherRuns) {

    /** JSON written before these components existed reads back with them empty, never null. */
    public NcclTestsOutput {
        devices = devices == null ? List.of() : devices;
        rows = rows == null ? List.of() : rows;
        notUnderstood = notUnderstood == null ? List.of() : notUnderstood;
        parameters = parameters == null ? List.of() : parameters;
        command = command == null ? Fact.absent("not recorded") : command;
        columns = columns == null ? List.of() : columns;
        warnings = warnings == null ? List.of() : warnings;
        errors = errors == null ? List.of() : errors;
        tool = tool == null ? "nccl-tests" : tool;
        furtherRuns = furtherRuns == null ? List.of() : List.copyOf(furtherRuns);
    }

    /** One run: no further runs in its text. */
    public NcclTestsOutput(Fact<String> testsVersion, Fact<String> ncclHeaders, Fact<String> ncclLibrary, Fact<String> test,
                           List<String> devices, boolean errorColumn, List<Row> rows, Fact<Long> outOfBounds,
                           Fact<Boolean> outOfBoundsOk, Fact<Double> avgBusBwGBps, Fact<Boolean> avgBusBwOk, int ncclInfoLines,
                           List<String> notUnderstood, List<NcclTestsParameters> parameters, Fact<NcclTestsCommand> command,
                           List<String> columns, List<String> warnings, List<String> errors, String tool) {
        this(testsVersion, ncclHeaders, ncclLibrary, test, devices, errorColumn, rows, outOfBounds, outOfBoundsOk, avgBusBwGBps,
                avgBusBwOk, ncclInfoLines, notUnderstood, parameters, command, columns, warnings, errors, tool, List.of());
    }

    /** This run with the runs that follow it in the same text. */
    NcclTestsOutput withFurtherRuns(List<NcclTestsOutput> runs) {
        return new NcclTestsOutput(testsVersion, ncclHeaders, ncclLibrary, test, devices, errorColumn, rows, outOfBounds, outOfBoundsOk,
                avgBusBwGBps, avgBusBwOk, ncclInfoLines, notUnderstood, parameters, command, columns, warnings, errors, tool, runs);
    }

    /** A result without header parameters, command line or column names (nccl-doctor's own measurements). */
    public NcclTestsOutput(Fact<String> testsVersion, Fact<String> ncclHeaders, Fact<String> ncclLibrary, Fact<String> test,
                           List<String> devices, boolean errorColumn, List<Row> rows, Fact<Long> outOfBounds,
                           Fact<Boolean> outOfBoundsOk, Fact<Double> avgBusBwGBps, Fact<Boolean> avgBusBwOk, int ncclInfoLines,
                           List<String> notUnderstood) {
        this(testsVersion, ncclHeaders, ncclLibrary, test, devices, errorColumn, rows, outOfBounds, outOfBoundsOk, avgBusBwGBps,
                avgBusBwOk, ncclInfoLines, notUnderstood, List.of(), Fact.absent("no command line recorded"), List.of(), List.of(),
                List.of(), "nccl-doctor");
    }

    /**
     * One size: the lead columns, then the out-of-place and in-place measurements.
     *
     * @param timestamp the "%Y-%m-%d %H:%M:%S" nccl-tests appends with -S 1 (v2.17.6+), local time of the run's host
     */
    public record Row(long sizeBytes, long count, String type, Fact<String> redop, Fact<Integer> root, Placement outOfPlace,
                      Fact<Placement> inPlace, Fact<String> timestamp) {

        public Row {
            timestamp = timestamp == null ? Fact.absent("not recorded") : timestamp;
        }

        public Row(long sizeBytes, long count, String type, Fact<String> redop, Fact<Integer> root, Placement outOfPlace,
                   Fact<Placement> inPlace) {
            this(sizeBytes, count, type, redop, root, outOfPlace, inPlace, Fact.absent("no timestamp column (-S 0)"));
        }
    }

    /**
     * @param wrong        #wrong (v2.13+); absent for N/A with the reason the text gives; or, in the old layout, absent
     *                     with {@link #maxError()}
     * @param perIteration the -I columns i_min, i_max, i_p99, i_cv% (v2.19.2+), absent without -I
     * @param wrongRounded true when nccl-tests printed the count with %g in exponent form (a million and more): six
     *                     significant digits, so the count is approximate
     * @param overThreshold true when rccl-tests ended the cell with '*': its maximum error exceeded
     *                     DeltaMaxValue(type) x (nranks - 1), the check that also counts into "Out of bounds values"
     *                     (rccl-tests src/common.cu CheckData and PRINT("%5.0le%s", maxDelta, error ? "*" : ""), 2019 to 2024);
     *                     written to JSON only when true
     */
    public record Placement(double timeUs, double algBwGBps, double busBwGBps, Fact<Long> wrong, Fact<Double> maxError,
                            Fact<PerIteration> perIteration, boolean wrongRounded,
                            @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean overThreshold) {

        public Placement {
            perIteration = perIteration == null ? Fact.absent("not recorded") : perIteration;
        }

        public Placement(double timeUs, double algBwGBps, double busBwGBps, Fact<Long> wrong, Fact<Double> maxError,
                         Fact<PerIteration> perIteration, boolean wrongRounded) {
            this(timeUs, algBwGBps, busBwGBps, wrong, maxError, perIteration, wrongRounded, false);
        }

        public Placement(double timeUs, double algBwGBps, double busBwGBps, Fact<Long> wrong, Fact<Double> maxError) {
            this(timeUs, algBwGBps, busBwGBps, wrong, maxError, Fact.absent("no per-iteration columns (-I 0)"), false);
        }
    }

    /**
     * The -I summary of one placement: CUDA-event times of each iteration, the maximum over GPUs and processes
     * (src/util.cu writePerIterReport), and their coefficient of variation in percent.
     */
    public record PerIteration(double minUs, double maxUs, double p99Us, double cvPercent) {
    }

    public static NcclTestsOutput parse(List<String> raw, String source) {
        return new NcclTestsReader(source).read(raw);
    }

    /** Wrong elements over all rows and placements; absent when the run did not validate. */
    public Fact<Long> totalWrong() {
        long sum = 0;
        boolean any = false;
        for (Row r : rows) {
            for (Placement p : placements(r)) {
                if (p.wrong().isValue()) {
                    sum = saturatingAdd(sum, p.wrong().get());
                    any = true;
                }
            }
        }
        return any ? Fact.of(sum) : Fact.absent("no #wrong values (validation off, or the old error layout)");
    }

    private static List<Placement> placements(Row r) {
        return r.inPlace().isValue() ? List.of(r.outOfPlace(), r.inPlace().get()) : List.of(r.outOfPlace());
    }

    private static long saturatingAdd(long a, long b) {
        long s = a + b;
        return ((a ^ s) & (b ^ s)) < 0 ? Long.MAX_VALUE : s;
    }

    /**
     * Why this run's results cannot be trusted, one line per reason; empty when nothing says so. Reads the #wrong
     * cells (v2.13+ layout), the "Out of bounds values : N FAILED" footer and the "# error:" lines; the old layout's
     * maximum error is a float difference that nccl-tests itself only judges through that footer.
     */
    @JsonProperty("failures")
    public List<String> failures() {
        List<String> why = new ArrayList<>();
        List<Long> bad = new ArrayList<>();
        boolean rounded = false;
        for (Row r : rows) {
            boolean wrong = false;
            for (Placement p : placements(r)) {
                wrong |= p.wrong().isValue() && p.wrong().get() > 0;
                rounded |= p.wrongRounded();
            }
            if (wrong) {
                bad.add(r.sizeBytes());
            }
        }
        if (!bad.isEmpty()) {
            why.add(String.format(Locale.ROOT, "%s%,d wrong elements in %d of %d sizes (%,d to %,d bytes): the collective returned "
                    + "corrupted data%s", rounded ? "about " : "", totalWrong().get(), bad.size(), rows.size(), bad.get(0),
                    bad.get(bad.size() - 1), rounded ? " (nccl-tests prints counts of a million and more with %g: 6 significant digits)" : ""));
        }
        List<Long> marked = rows.stream().filter(r -> placements(r).stream().anyMatch(Placement::overThreshold)).map(Row::sizeBytes).toList();
        if (!marked.isEmpty()) {
            why.add(String.format(Locale.ROOT, "rccl-tests marked the maximum error of %d of %d sizes (%,d to %,d bytes) with '*': above "
                    + "its threshold, the collective returned wrong data", marked.size(), rows.size(), marked.get(0),
                    marked.get(marked.size() - 1)));
        }
        if (avgBusBwOk.isValue() && !avgBusBwOk.get()) {
            why.add("the average bus bandwidth " + avgBusBwGBps.describe() + " GB/s is below 0.9 x NCCL_TESTS_MIN_BW (the footer says FAILED)");
        }
        if (outOfBoundsOk.isValue() && !outOfBoundsOk.get()) {
            why.add("the footer says 'Out of bounds values : " + outOfBounds.fold(String::valueOf, r -> "?") + " FAILED'");
        }
        why.addAll(runErrors());
        return why;
    }

    /**
     * The errors the run printed, worded: nccl-tests' own failure lines (a CUDA or NCCL call that failed, with the relay
     * lines after it: the run stopped there; worded by {@link NcclTestsFailures}) and the "# error:" lines (NCCL's last
     * error); empty when it printed none. Part of {@link #failures}.
     */
    @JsonIgnore
    public List<String> runErrors() {
        return errors.stream().map(e -> e.startsWith("nccl-tests stopped") ? e : "nccl-tests printed NCCL's last error: " + e).toList();
    }

    /** "Rank 12 Group 0 Pid …": the rank a device line names. */
    private static final Pattern RANK = Pattern.compile("^Rank\\s+(\\d+)\\b");

    /**
     * How many ranks ran, from the device lines, when they are the whole list nccl-tests prints: ranks 0 to n - 1,
     * each once, and at least the nThread × nGpus devices of one process. A paste that kept the last device line of
     * a 72-rank run, or two lines and "...", holds part of the list: absent, never the count of the lines kept.
     */
    @JsonProperty("ranks")
    public Fact<Integer> ranks() {
        if (devices.isEmpty()) {
            return Fact.absent("no device lines ('# Rank N … device N')");
        }
        TreeSet<Integer> seen = new TreeSet<>();
        for (String d : devices) {
            Matcher m = RANK.matcher(d.strip());
            if (!m.find() || m.group(1).length() > 9 || !seen.add(Integer.parseInt(m.group(1)))) { // a rank of ten digits is no rank
                return Fact.absent("the device lines repeat a rank or name none: several runs in one text?");
            }
        }
        int n = devices.size();
        if (seen.last() != n - 1) {
            return Fact.absent("the device lines show ranks " + seen.first() + " to " + seen.last()
                    + ", " + n + " of them: part of the list");
        }
        if (!parameters.isEmpty() && parameters.get(0).threads().isValue() && parameters.get(0).gpusPerThread().isValue()
                && n < parameters.get(0).threads().get() * parameters.get(0).gpusPerThread().get()) {
            return Fact.absent(n + " device lines, fewer than the nThread x nGpus = " + parameters.get(0).threads().get()
                    * parameters.get(0).gpusPerThread().get() + " devices of one process: part of the list");
        }
        return Fact.of(n);
    }

    /** The row with the highest out-of-place bus bandwidth, the number nccl-tests users quote. */
    @JsonProperty("peakBusBw")
    public Fact<Row> peakBusBw() {
        return rows.stream().max(Comparator.comparingDouble(r -> r.outOfPlace().busBwGBps())).map(Fact::of)
                .orElse(Fact.absent("no rows"));
    }
}
