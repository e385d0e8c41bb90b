package io.nccldoctor.collectives.parse;

import io.nccldoctor.collectives.parse.NcclTestsOutput.Placement;
import io.nccldoctor.collectives.parse.NcclTestsOutput.Row;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.libs.NativeCalls;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads nccl-tests text line by line into {@link NcclTestsOutput}. Every line is either read, counted (NCCL INFO/WARN
 * lines), one of nccl-tests' own header lines, or listed as not understood with its number; a row whose cells do not
 * match the table's column header is refused with the reason, never read with shifted columns.
 */
final class NcclTestsReader {

    /**
     * A log collector's timestamp before a line: `kubectl logs --timestamps` and `docker logs -t` write RFC 3339 with
     * nanoseconds and the zone ("2026-08-06T09:30:29.167268308-07:00 "), the CRI log files under /var/log/pods add the
     * stream and the full/partial tag ("...Z stdout F "), other collectors ISO 8601 with a space or in brackets, with or
     * without a zone. Only a whole date and time at the start of the line: nccl-tests' own -S stamp ends a row.
     */
    private static final String TIMESTAMP = "(?:\\[?\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}:\\d{2}(?:[.,]\\d+)?(?:Z|[+-]\\d{2}(?::?\\d{2})?)?\\]?"
            + "(?:\\s+std(?:out|err)\\s+[FP])?(?:\\s+|$))?";
    /**
     * What comes before nccl-tests' own text on a line, after any indentation: a log collector's timestamp, then a
     * launcher's prefix: Ray/SkyPilot "(head, rank=0, pid=1) ", mpirun "[1,0]<stdout>:", srun --label "0: ".
     */
    private static final Pattern PREFIX = Pattern.compile("^\\s*" + TIMESTAMP
            + "\\s*(?:\\([^)]*(?:rank|pid)=[^)]*\\)\\s*)?(?:\\[\\d+,\\d+\\]<std(?:out|err)>:|\\d+: )?");
    private static final Pattern BANNER = Pattern.compile("^NCCL version (\\d+\\.\\d+\\.\\d+)");
    /*
     * The '#' that starts nccl-tests' own lines is optional in what follows: an output pasted into a GitHub issue or a
     * wiki without a code block loses it to Markdown, which makes those lines headings.
     */
    /**
     * "# nccl-tests version 2.18.2 nccl-headers=23007 nccl-library=23007"; 2.20 adds the git revision: "2.20.0 (b4d5bee)".
     * rccl-tests prints the same line with its own names and its git revision after a dash (src/util.cu
     * writeDeviceReport: "# rccl-tests version %s-%s rccl-headers=%d rccl-library=%d", NCCL_TESTS_VERSION,
     * rcclTestsGitHash, NCCL_VERSION_CODE, ncclGetVersion): "2.17.9-develop:2596ca5f71 rccl-headers=22803", RCCL's code
     * in NCCL's X*10000+Y*100+Z form (22803 is RCCL 2.28.3, as its "RCCL version : 2.28.3-…" line says).
     */
    private static final Pattern VERSION = Pattern.compile(
            "(?:^|#)\\s*(nccl|rccl)-tests version (\\S+(?: \\([^)]*\\))?) \\1-headers=(\\d{1,9}) \\1-library=(\\d{1,9})");
    /** The same line ending after the version (a paste trimmed or cut there): the library codes are not in the text. */
    private static final Pattern VERSION_ONLY = Pattern.compile("^#?\\s*(nccl|rccl)-tests version (\\d+\\.\\d+\\.\\d+\\S*)\\s*$");
    /**
     * rccl-tests' older header line instead (src/common.cu, 2024: PRINT("rccl-tests: Version %s\\n", rcclTestsGitHash)):
     * "rccl-tests: Version develop:83d38d9", "Version Unknown" when built outside its build; some builds print "rcccl-tests".
     */
    private static final Pattern RCCL_VERSION = Pattern.compile("^rc+l-tests: Version (\\S.*?)\\s*$");
    /**
     * RCCL's own banner with NCCL_DEBUG=VERSION (src/init.cc showVersion): "RCCL version : 2.28.3-gfx1151-rccl:a188cf2"
     * (version, suffix, git hash), then "HIP version  : …", "ROCm version : …", "Hostname     : …", "Librccl path : …";
     * before ROCm/rccl c755b9cf (2024-07) one line, "RCCL version 2.16.5+hip5.6 HEAD:…". Only RCCL prints it, and the
     * program that prints an nccl-tests table on RCCL is rccl-tests (nccl-tests builds with CUDA only).
     */
    private static final Pattern RCCL_BANNER = Pattern.compile("^RCCL version (?:: )?(\\d+\\.\\d+\\.\\d+)");
    /**
     * A wrapper's line naming the binary it starts: "Running /nix/store/…-nccl-tests-2.13.6/bin/all_gather_perf" (the
     * nixpkgs package's test script). The test is the binary's name; a version is read only from a directory named
     * nccl-tests-X.Y.Z, as a source tarball or a package unpacks (nccl-tests tags its releases vX.Y.Z).
     */
    private static final Pattern RUNNING = Pattern.compile("^Running\\s+(\\S*/)?(\\w+_perf(?:_mpi)?)\\s*$");
    private static final Pattern PATH_VERSION = Pattern.compile("(?:^|[/-])nccl-tests-(\\d+\\.\\d+\\.\\d+)/");
    /**
     * A number cut short: C's printf writes at least two exponent digits (%e, and %g in exponent form), so "3e", "3e-"
     * or "3e-0" is the start of a cell ("3e-08") whose end the paste lost.
     */
    private static final Pattern CUT_NUMBER = Pattern.compile("[-+]?(?:\\d+\\.?\\d*|\\.\\d+)[eE][-+]?\\d?");
    /** NCCL's banner in its INFO log (src/init.cc showVersion): "host:pid:tid [0] NCCL INFO NCCL version 2.22.3+cuda12.6". */
    private static final Pattern INFO_VERSION = Pattern.compile(" NCCL INFO NCCL version (\\d+\\.\\d+\\.\\d+)");
    /**
     * The line above the column header naming the two groups: "out-of-place … in-place" in nccl-tests; mscclpp-test
     * prints "in-place … out-of-place" (test/mscclpp-test/common.cc BaseTestEngine::runTest) and measures one
     * placement per row, indenting an out-of-place row's cells by the in-place group's width.
     */
    private static final Pattern GROUPS = Pattern.compile("^#?\\s*(out-of-place|in-place)\\s+(?:out-of-place|in-place)\\s*$");
    private static final Pattern TEST = Pattern.compile("(?:^|#)\\s*Collective test starting: (\\S+)");
    /** The footer's last line (src/util.cu writeResultFooter): it names the test where the header was cut. */
    private static final Pattern CONCLUDED = Pattern.compile("(?:^|#)\\s*Collective test concluded: (\\S+)");
    private static final Pattern DEVICE = Pattern.compile("^#?\\s*Rank\\s+\\d+.*device\\s+\\d+.*$");
    private static final Pattern RANK_ZERO = Pattern.compile("^#?\\s*Rank\\s+0\\s");
    private static final Pattern OOB = Pattern.compile("(?:^|#)\\s*Out of bounds values\\s*:\\s*(\\d+)\\s+(OK|FAILED)");
    private static final Pattern AVG = Pattern.compile("(?:^|#)\\s*Avg bus bandwidth\\s*:\\s*([0-9.eE+-]+|nan|-?inf|N/A)(?:\\s+(OK|FAILED))?");
    /** The mode lines under the parameters line (src/util.cu writeDeviceReport) and the -M line after the footer. */
    /**
     * rccl-tests' line above its footer when it validated (src/common.cu since 2019: "if (datacheck) PRINT(…)"), which
     * nccl-tests never printed; rccl-tests' rows of 2019 to February 2024 (merge of PR #58, which brought nccl-tests'
     * #wrong column) end the max-error cell with '*' for a size over the threshold ({@link #ASTERISK}); #wrong rows carry none.
     */
    private static final Pattern ASTERISK = Pattern.compile("[-+0-9.eE]+\\*");
    private static final String RCCL_ASTERISKS = "Errors with asterisks indicate errors that have exceeded the maximum threshold.";
    private static final List<String> MODES = List.of("Blocking Enabled", "Per-Iteration Report", "Parallel Init Enabled",
            "GPU memory usage");
    private static final Pattern ERROR = Pattern.compile("^#\\s*error: (.+)$");
    private static final Pattern REDUCED = Pattern.compile("(?:^|#)\\s*Reducing maxBytes to (\\d+) due to memory limitation");
    /** Other lines of nccl-tests' own (and of `nccl-doctor run`'s table), read without their '#': nothing in them for the table. */
    private static final List<String> KNOWN = List.of("Using devices", "out-of-place", "(B)",
            "Writing JSON output to", "skipping json output", "NCCL_TESTS_ALLTOALLV_PRINT_SUMMARY", "rank=",
            "nccl-doctor run:", "HIP version  : ", "ROCm version : ", "Hostname     : ", "Librccl path : ");
    /** "export NCCL_IB_HCA=mlx5_0" before the command, or a bare "NCCL_IB_HCA=mlx5_0" line as `env | grep NCCL` prints it. */
    private static final Pattern EXPORT = Pattern.compile(
            "^(?:(?:\\S+[$#]\\s+|[$#>]\\s+)?export\\s+([A-Za-z_][A-Za-z0-9_]*)|(NCCL_[A-Za-z0-9_]*))=(\\S*)\\s*$");
    /** The tests that leave their in-place result unchecked: alltoall.cu, alltoallv.cu, sendrecv.cu (v2.13.2+). */
    /** A decimal as printf writes it (%f, %g, %e); Java's own extras ("1d", "0x1p3", "Infinity") are not numbers here. */
    private static final Pattern NUMBER = Pattern.compile("[-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?");
    private static final Set<String> UNCHECKED_IN_PLACE = Set.of("alltoall_perf", "alltoallv_perf", "sendrecv_perf");

    private final String source;
    private Fact<String> version = Fact.absent("no '# nccl-tests version' header (nccl-tests before 2.17.4, or cut)");
    private Fact<String> headers = version;
    private Fact<String> library = version;
    private Fact<String> test = Fact.absent("no '# Collective test starting' or '# Collective test concluded' line");
    private String tool = "nccl-tests";
    private boolean toolNamed;
    private boolean markdown;
    /** Old-layout rows (error column) whose in-place maximum error is above 0: size and error, judged once the test is known. */
    private final List<InPlaceError> inPlaceErrors = new ArrayList<>();
    private final List<String> devices = new ArrayList<>();
    private final List<Row> rows = new ArrayList<>();
    private Fact<Long> oob = Fact.absent("no 'Out of bounds values' footer");
    private Fact<Boolean> oobOk = Fact.absent("no 'Out of bounds values' footer");
    private Fact<Double> avg = Fact.absent("no 'Avg bus bandwidth' footer");
    private Fact<Boolean> avgOk = Fact.absent("NCCL_TESTS_MIN_BW was not set (no OK/FAILED after the average)");
    private int info;
    private final List<String> skipped = new ArrayList<>();
    private final List<String> parameterLines = new ArrayList<>();
    private final List<List<String>> modes = new ArrayList<>();
    private NcclTestsLayout layout;
    /** The columns the last header-less row was read by. */
    private NcclTestsLayout inferred;
    private List<String> columns = List.of();
    private boolean errorColumn;
    private StringBuilder pendingCommand;
    private final Map<String, String> exports = new LinkedHashMap<>();
    private Fact<NcclTestsCommand> command = Fact.absent("no command line in the text");
    private final Set<String> warnings = new LinkedHashSet<>();
    private final List<String> errors = new ArrayList<>();
    private final NcclTestsFailures failureLines = new NcclTestsFailures();
    private int rankZero;
    /** True once the footer ("Out of bounds values", "Avg bus bandwidth") was read: a later command or sweep is another run's. */
    private boolean footerSeen;
    /** The line this run starts at (1 for the text's first run). */
    private int startLine = 1;
    /** A section line after this run's table, not yet followed by a row; its line number. */
    private String pendingSection;
    private int pendingSectionLine;
    /** True after "Reducing maxBytes to …": the parameters line then shows less than the command's -e. */
    private boolean reduced;
    /** True when this run is another cycle of the run before it (its sizes started again under the same header). */
    private boolean cycle;
    /** The line being read, prefixes taken off but its spacing kept, and the column header line so kept. */
    private String rawLine = "";
    private String headerRaw = "";
    /** The table prints its in-place columns before its out-of-place ones (mscclpp-test's order). */
    private boolean inPlaceFirst;
    private Fact<Integer> validation = Fact.absent("no '# nThread … validation:' line");

    /** An old-layout row's in-place maximum error above 0, and whether its table has neither a redop nor a root column. */
    private record InPlaceError(long size, double error, boolean noOpColumns) {
    }

    NcclTestsReader(String source) {
        this.source = source;
    }

    /**
     * Reads the text; each run in it (see {@link NcclTestsRuns}) is read by a reader of its own, and the first run's
     * output carries the others as its further runs.
     */
    NcclTestsOutput read(List<String> raw) {
        NcclTestsQuoting quoting = NcclTestsQuoting.of(raw);
        List<NcclTestsReader> runs = new ArrayList<>(List.of(this));
        NcclTestsReader run = this;
        for (int n = 0; n < raw.size(); n++) {
            NcclTestsQuoting.Line q = quoting.line(raw.get(n));
            if (q.removed()) {
                run.skipped.add(source + ":" + (n + 1) + ": " + raw.get(n).strip() + " (a line the diff removes: the old text, not read)");
                continue;
            }
            String line = PREFIX.matcher(q.text()).replaceFirst("");
            NcclTestsReader next = run.nextRun(line, n + 1);
            if (next != null) {
                runs.add(next);
                run = next;
            }
            run.line(line, n + 1);
        }
        if (quoting.diff()) {
            warnings.add("the text is quoted from a diff ('+' before added lines, '-' before removed ones): the marks were taken off "
                    + "every line, and removed lines are listed as not read");
        }
        for (int i = runs.size() - 1; i > 0; i--) {
            if (runs.get(i).cycle) {
                runs.get(i - 1).footerOfCycles(runs.get(i));
            }
        }
        List<NcclTestsOutput> further = new ArrayList<>();
        for (NcclTestsReader r : runs.subList(1, runs.size())) {
            further.add(r.finish(false));
        }
        if (!further.isEmpty()) {
            warnings.add(further.size() + " further run" + (further.size() == 1 ? "" : "s") + " in this text, starting at line"
                    + (further.size() == 1 ? " " : "s ") + String.join(", ", runs.subList(1, runs.size()).stream()
                    .map(r -> String.valueOf(r.startLine)).toList()) + ": each read as its own table with its own summary "
                    + "(furtherRuns), never merged into this run's sweep");
        }
        return finish(true).withFurtherRuns(further);
    }

    /** A new reader when {@code line} starts another run after this one's rows or footer, else null. */
    private NcclTestsReader nextRun(String line, int number) {
        if (pendingCommand != null || rows.isEmpty() && !footerSeen) {
            return null;
        }
        String t = NcclTestsMarkdown.plain(line.strip()).plain();
        NcclTestsRuns.Start start = t.isEmpty() ? null : NcclTestsRuns.start(t, rows.isEmpty() ? -1 : rows.get(rows.size() - 1).sizeBytes());
        int from = number;
        if (pendingSection != null && !t.isEmpty() && Character.isDigit(t.charAt(0))) {
            start = new NcclTestsRuns.Start("the section line '" + pendingSection + "' above its first row", false);
            from = pendingSectionLine; // the run starts at its label
        }
        if (start == null) {
            return null;
        }
        pendingSection = null; // the section line names the run that starts here
        NcclTestsReader next = new NcclTestsReader(source);
        boolean cycle = start.cycle() && !footerSeen;
        if (cycle) {
            next.inherit(this);
            next.cycle = true;
        }
        next.startLine = from;
        next.warnings.add("a further run, from line " + from + ": " + start.why() + (cycle ? "; the header, command and columns "
                + "above it are taken as this sweep's too" : ""));
        return next;
    }

    /**
     * The footer after a run's last cycle is the whole run's: nccl-tests adds every size of every cycle into the average
     * (src/common.cu BenchTime: bw[0] += busBw; bw_count[0]++, divided once at the end) and its wrong-value count, and
     * "# Collective test concluded" names the test of them all. An earlier cycle takes it from the cycle after it.
     */
    private void footerOfCycles(NcclTestsReader next) {
        if (!test.isValue() && next.test.isValue()) {
            test = next.test;
        }
        if (!footerSeen && next.footerSeen) {
            oob = next.oob;
            oobOk = next.oobOk;
            avg = next.avg;
            avgOk = next.avgOk;
            warnings.add("the footer after the last cycle (" + next.avg.map(v -> "average " + v + " GB/s").orElse("no average")
                    + ") covers every cycle of the run: nccl-tests averages busbw and counts wrong values over all of them");
        }
    }

    /** Another cycle of the same run: what its header said holds for it. */
    private void inherit(NcclTestsReader from) {
        version = from.version;
        headers = from.headers;
        library = from.library;
        test = from.test;
        tool = from.tool;
        toolNamed = from.toolNamed;
        devices.addAll(from.devices);
        parameterLines.addAll(from.parameterLines);
        from.modes.forEach(m -> modes.add(new ArrayList<>(m)));
        validation = from.validation;
        command = from.command;
        exports.putAll(from.exports);
        layout = from.layout;
        columns = from.columns;
        headerRaw = from.headerRaw;
        inPlaceFirst = from.inPlaceFirst;
        errorColumn = from.errorColumn;
    }

    /** This run's output; {@code first}: the text's first run, which must show nccl-tests' output (a further run may be a command alone). */
    private NcclTestsOutput finish(boolean first) {
        finishCommand();
        finishSection();
        if (first && rows.isEmpty() && !version.isValue() && oob.isAbsent() && layout == null && parameterLines.isEmpty()) {
            throw new InputException(source + ": not nccl-tests output (no '# nccl-tests version' header, no '# nThread' parameters, "
                    + "no size/time table, no 'Out of bounds values' footer); give the output of all_reduce_perf or another *_perf binary");
        }
        if (rankZero > 1) {
            warnings.add("Rank 0 is listed " + rankZero + " times: several runs in one text, or processes that each ran alone "
                    + "(nccl-tests built without MPI=1 and started by mpirun), in which case no two GPUs talked to each other");
        }
        if (!exports.isEmpty() && !command.isValue()) {
            command = Fact.of(NcclTestsCommand.parse("", exports));
        }
        if (!test.isValue() && test.reason().startsWith("no ") && command.isValue() && command.get().binary().isValue()) {
            // the binary is the test: all_reduce_perf runs all_reduce (logs of one rank print no "Collective test" line)
            test = Fact.of(command.get().binary().get());
        }
        List<NcclTestsParameters> parameters = new ArrayList<>();
        for (int i = 0; i < parameterLines.size(); i++) {
            parameters.add(NcclTestsParameters.parse(parameterLines.get(i), modes.get(i)));
        }
        commandAgrees(parameters);
        if (parameterLines.isEmpty() && !modes.isEmpty()) {
            warnings.add("mode lines without a '# nThread' parameters line: " + String.join("; ", modes.get(0)));
        }
        if (markdown) {
            warnings.add("the table was rendered as Markdown (cells joined by ' | ', a '-- | --' line, '\\#' for '#'): each row was split "
                    + "at its '|' into the cells of the plain table and read by the same column header");
        }
        inPlaceErrorWarning();
        errors.addAll(failureLines.errors());
        return new NcclTestsOutput(version, headers, library, test, devices, errorColumn, rows, oob, oobOk, avg, avgOk, info, skipped,
                parameters, command, columns, List.copyOf(warnings), errors, tool);
    }

    private void line(String line, int number) {
        rawLine = line;
        if (NcclTestsRuns.SECTION.matcher(line.strip()).matches()) {
            if (!rows.isEmpty() || footerSeen) { // after a table: the label of the run whose first row comes next
                pendingSection = line.strip();
                pendingSectionLine = number;
            }
            return;
        }
        NcclTestsMarkdown.Line md = NcclTestsMarkdown.plain(line.strip());
        markdown |= md.markdown();
        if (md.refused() != null) {
            skipped.add(source + ":" + number + ": " + line.strip() + " (" + md.refused() + ")");
        }
        String t = md.plain();
        if (pendingCommand != null) {
            if (!t.isEmpty() && !t.startsWith("#")) {
                continueCommand(t);
                return;
            }
            finishCommand(); // a command cut after its "\": the output starts here
        }
        if (t.isEmpty() || t.startsWith("```")) {
            return; // a blank line, or the fence of a Markdown code block the output was pasted in
        }
        if (t.contains(" NCCL INFO ") || t.contains(" NCCL WARN ")) {
            info++;
            Matcher v = INFO_VERSION.matcher(t);
            if (!library.isValue() && v.find()) {
                library = Fact.of(v.group(1)); // the library's own banner, printed by NCCL_DEBUG=INFO in the same run
            }
        } else if (!header(t) && !footer(t) && !failureLines.line(t) && !table(t, number) && !t.equals("#")
                && KNOWN.stream().noneMatch(k -> t.replaceFirst("^#\\s*", "").startsWith(k)) && !commandLine(t)) {
            skipped.add(source + ":" + number + ": " + t);
        }
    }

    /** The version, test, parameters, mode and device lines above the table. */
    private boolean header(String t) {
        Matcher m;
        String bare = t.replaceFirst("^#\\s*", "");
        if ((m = VERSION.matcher(t)).find()) {
            tool = m.group(1) + "-tests";
            toolNamed = true;
            version = Fact.of(m.group(2));
            headers = Fact.of(NativeCalls.ncclVersion(Integer.parseInt(m.group(3))));
            library = Fact.of(NativeCalls.ncclVersion(Integer.parseInt(m.group(4))));
        } else if ((m = VERSION_ONLY.matcher(t)).matches()) {
            tool = m.group(1) + "-tests";
            toolNamed = true;
            version = Fact.of(m.group(2));
            String why = "the '# " + m.group(1) + "-tests version' line ends after the version (trimmed or cut): no " + m.group(1) + "-headers";
            headers = Fact.absent(why);
            library = library.isValue() ? library : Fact.absent(why.replace("-headers", "-library"));
        } else if ((m = RCCL_VERSION.matcher(bare)).matches()) {
            tool = "rccl-tests";
            toolNamed = true;
            version = Fact.of(m.group(1)); // as printed: rccl-tests built outside its own build prints "Version Unknown"
        } else if ((m = BANNER.matcher(t)).find() || (m = RCCL_BANNER.matcher(t)).find()) {
            if (!library.isValue()) {
                library = Fact.of(m.group(1)); // older nccl-tests print NCCL's banner instead of the version header
            }
            if (t.startsWith("RCCL") && !toolNamed) {
                tool = "rccl-tests";
            }
        } else if ((m = RUNNING.matcher(t)).matches()) {
            running(m);
        } else if ((m = TEST.matcher(t)).find()) {
            test = Fact.of(m.group(1));
        } else if ((m = CONCLUDED.matcher(t)).find()) {
            concluded(m.group(1));
        } else if (bare.equals(RCCL_ASTERISKS)) {
            tool = "rccl-tests"; // nccl-tests never printed it
        } else if (NcclTestsParameters.LINE.matcher(t).find()) {
            parameterLines.add(t);
            modes.add(new ArrayList<>());
            validation = NcclTestsParameters.parse(t, List.of()).validation();
        } else if (MODES.stream().anyMatch(bare::startsWith)) {
            if (modes.isEmpty()) {
                modes.add(new ArrayList<>());
            }
            modes.get(modes.size() - 1).add(bare.strip());
        } else if (DEVICE.matcher(t).matches()) {
            devices.add(t.startsWith("#") ? t.substring(1).strip() : t);
            rankZero += RANK_ZERO.matcher(t).find() ? 1 : 0;
        } else if ((m = GROUPS.matcher(t)).matches()) {
            inPlaceFirst = m.group(1).equals("in-place");
        } else if (NcclTestsRuns.CYCLE.matcher(t).matches()) {
            return true; // a cycle's first line: where a further run starts is said in its warnings
        } else if ((m = REDUCED.matcher(t)).find()) {
            warnings.add("nccl-tests reduced maxBytes to " + m.group(1) + " for lack of GPU memory: larger sizes were not run");
            reduced = true;
        } else {
            return false;
        }
        return true;
    }

    /** The test the footer names: the test's name where the header was cut, a warning where it names another. */
    private void concluded(String name) {
        if (!test.isValue()) {
            test = Fact.of(name);
        } else if (!test.get().equals(name)) {
            warnings.add("the footer says '# Collective test concluded: " + name + "' where the text named " + test.get()
                    + " before it: two runs in one text?");
        }
    }

    /** "Running …/nccl-tests-2.13.6/bin/all_gather_perf": the test, and the version its directory names. */
    private void running(Matcher m) {
        if (!test.isValue()) {
            test = Fact.of(m.group(2));
        }
        Matcher v = PATH_VERSION.matcher(m.group(1) == null ? "" : m.group(1));
        if (!version.isValue() && v.find()) {
            version = Fact.of(v.group(1));
        }
    }

    /**
     * nccl-tests before v2.13 printed the in-place maximum error of every test, but never counted it for alltoall and
     * sendrecv: their InitData sets reportErrors = in_place ? 0 : 1 (src/alltoall.cu; src/sendrecv.cu since it came, in
     * v2.10.0), and src/common.cu counts a delta only "if (args->reportErrors && maxDelta > DeltaMaxValue(type)*(nranks - 1))".
     * Said once the test is known (the footer can name it): no failure for those two, and which tests it could be when
     * the text does not name one.
     */
    private void inPlaceErrorWarning() {
        if (inPlaceErrors.isEmpty()) {
            return;
        }
        String binary = (test.isValue() ? test.get() : command.flatMap(NcclTestsCommand::binary).orElse("")).replaceFirst("_mpi$", "");
        InPlaceError first = inPlaceErrors.get(0);
        String shown = String.format(Locale.ROOT, "%d size%s (%.0e at %d bytes%s)", inPlaceErrors.size(), inPlaceErrors.size() == 1 ? "" : "s",
                first.error(), first.size(), inPlaceErrors.size() == 1 ? "" : ", the first");
        if (UNCHECKED_IN_PLACE.contains(binary)) {
            warnings.add("the in-place maximum error of " + binary + " is above 0 in " + shown + ", which nccl-tests does not count: "
                    + "it does not check the in-place result of alltoall and sendrecv (reportErrors = in_place ? 0 : 1); no failure");
        } else if (binary.isEmpty() && inPlaceErrors.stream().allMatch(InPlaceError::noOpColumns)) {
            warnings.add("the in-place maximum error is above 0 in " + shown + ", and the text does not name the test: a table without "
                    + "redop and root columns is all_gather's, hypercube's or sendrecv's before v2.13; sendrecv does not count its in-place "
                    + "error (reportErrors = in_place ? 0 : 1), all_gather and hypercube count it into 'Out of bounds values'"
                    + (oob.isValue() ? " (the footer says " + oob.get() + ")" : ", which this text does not show"));
        }
    }

    /** The footer lines and the "# error:" line after them. */
    private boolean footer(String t) {
        Matcher m;
        if ((m = OOB.matcher(t)).find()) {
            oob = NcclTestsParameters.count(m.group(1), "Out of bounds values");
            if (oob.isError()) {
                oob = Fact.error("the footer's count " + m.group(1) + " is past the 64-bit range (nccl-tests prints an int): an edited or garbled footer");
            }
            oobOk = Fact.of(m.group(2).equals("OK"));
            footerSeen = true;
        } else if ((m = AVG.matcher(t)).find()) {
            footerSeen = true;
            avg = m.group(1).equals("N/A") ? Fact.absent("the footer's average is N/A")
                    : number(m.group(1)).map(Fact::of).orElse(Fact.error("unreadable average '" + m.group(1) + "'"));
            if (m.group(2) != null) {
                avgOk = Fact.of(m.group(2).equals("OK"));
            }
        } else if ((m = ERROR.matcher(t)).find()) {
            errors.add(m.group(1).strip());
        } else {
            return false;
        }
        return true;
    }

    /** The column header line, or a result row. */
    private boolean table(String t, int number) {
        boolean headerLine = (t.startsWith("#") || t.startsWith("size ") || t.startsWith("bytes ")) && t.contains("time")
                && (t.contains("size") || t.contains("bytes"));
        if (headerLine) {
            List<String> words = List.of((t.startsWith("#") ? t.substring(1) : t).strip().split("\\s+"));
            NcclTestsLayout read = NcclTestsLayout.fromHeader(words);
            if (read == null) {
                return false;
            }
            layout = read;
            columns = words;
            headerRaw = rawLine;
            errorColumn |= read.errorColumn();
            layoutWarnings(read);
            return true;
        }
        if (t.startsWith("#") || !Character.isDigit(t.charAt(0))) {
            return false;
        }
        String problem = row(t.split("\\s+"));
        if (problem != null) {
            skipped.add(source + ":" + number + ": " + t + " (" + problem + ")");
        }
        return true;
    }

    private void layoutWarnings(NcclTestsLayout read) {
        if (!read.unknown().isEmpty()) {
            warnings.add("column" + (read.unknown().size() > 1 ? "s " : " ") + String.join(", ", read.unknown())
                    + " not printed by any nccl-tests release this reader knows: their cells are skipped by position");
        }
        if (read.cpuTime()) {
            warnings.add("the time columns are CPU time (-C 1, 'cputime'), taken before the stream synchronises; algbw and busbw "
                    + "still come from the wall-clock time");
        }
        if (read.millis()) {
            warnings.add("the nccl-tests 1.x layout ('res' column): its times are in ms, converted to us here");
        }
    }

    /** Reads one row into {@link #rows}, or returns why it cannot be read. */
    private String row(String[] cells) {
        NcclTestsLayout use = layout;
        if (use == null) {
            use = NcclTestsLayout.infer(cells);
            if (use == null && inferred != null && inferred.read(cells).firstGroupOnly()) {
                use = inferred; // the rows above told the columns; this one ends after its out-of-place cells
            }
            if (use == null) {
                return "no column header, and " + cells.length + " cells are none of the row shapes nccl-tests prints";
            }
            inferred = use;
            warnings.add("no column header line: each row's columns were told from its cells (lead columns, then 4 cells per "
                    + "placement, or 8 with -I, and a trailing date and time with -S)");
        }
        NcclTestsLayout.Cells c = use.read(cells);
        if (c.problem() != null) {
            return c.problem();
        }
        Fact<Long> size = NcclTestsParameters.count(c.lead().getOrDefault("size", "?"), "size");
        Fact<Long> count = NcclTestsParameters.count(c.lead().getOrDefault("count", "?"), "count");
        if (!size.isValue() || !count.isValue()) {
            return (size.isValue() ? count : size).reason();
        }
        Fact<Integer> root = rootOf(c.lead());
        if (root.isError()) {
            return root.reason();
        }
        List<Map<String, String>> groups = c.placements();
        String noInPlace = "no in-place columns in this table";
        if (inPlaceFirst) {
            warnings.add("the table prints its in-place columns before its out-of-place ones (mscclpp-test's order, not nccl-tests'): "
                    + "its rows are read by that order");
            int printed = c.firstGroupOnly() ? printedGroup(c.lead().size()) : 2;
            if (printed == 0) {
                return "mscclpp-test measured this size in place only (its cells stand under the in-place columns): a row is read "
                        + "with its out-of-place measurement, which this one does not have";
            } else if (printed < 0) {
                return "one group of cells in a table whose in-place columns come first (mscclpp-test's order), and where they stand "
                        + "in the line matches neither group's columns: which placement they are cannot be told";
            }
            groups = printed == 2 ? List.of(groups.get(1), groups.get(0)) : groups;
            noInPlace = printed == 1 ? "mscclpp-test measured this size out of place only (its cells stand under the out-of-place "
                    + "columns)" : noInPlace;
        } else if (c.firstGroupOnly()) {
            noInPlace = "the row ends after its out-of-place cells: its in-place cells are not in the text (a cut line)";
            warnings.add("a row ends after its out-of-place cells (" + cells[0] + " bytes): its out-of-place half is read, its in-place "
                    + "half is absent as cut");
        }
        List<Placement> placements = new ArrayList<>();
        for (int p = 0; p < groups.size(); p++) {
            boolean otherCounted = p == 1 && placements.get(0).wrong().isValue();
            Object read = placement(groups.get(p), p, otherCounted, use);
            if (read instanceof String why) {
                return (p == 0 ? "out-of-place: " : "in-place: ") + why;
            }
            placements.add((Placement) read);
        }
        if (placements.size() > 1 && placements.get(1).maxError().isValue() && placements.get(1).maxError().get() > 0) {
            inPlaceErrors.add(new InPlaceError(size.get(), placements.get(1).maxError().get(),
                    !c.lead().containsKey("redop") && !c.lead().containsKey("root")));
        }
        String redop = c.lead().get("redop");
        String stamp = c.lead().get("timestamp");
        rows.add(new Row(size.get(), count.get(), c.lead().getOrDefault("type", ""),
                redop == null ? Fact.absent(use.names().contains("redop") ? "the redop cell is blank in this row" : "no redop column")
                        : Fact.of(redop), root, placements.get(0),
                placements.size() > 1 ? Fact.of(placements.get(1)) : Fact.absent(noInPlace),
                stamp == null ? Fact.absent("no timestamp column (-S 0)") : Fact.of(stamp)));
        return null;
    }

    /**
     * Which of the header's two groups a row's single group stands under: 0 or 1 by the end of its time cell against the
     * ends of the header's time columns (both counted from the end of the size cell, as printf right-aligns them), -1
     * when it matches neither or the text gives no spacing to tell (a Markdown table).
     */
    private int printedGroup(int leadCells) {
        List<int[]> header = wordEnds(headerRaw);
        List<int[]> row = wordEnds(rawLine);
        List<String> names = List.of(headerRaw.replace('#', ' ').strip().split("\\s+"));
        if (markdown || header.size() != names.size() || row.size() <= leadCells || names.isEmpty()) {
            return -1;
        }
        int anchor = header.get(0)[1];
        int time = row.get(leadCells)[1] - row.get(0)[1];
        int group = 0;
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).equals("time") || names.get(i).equals("cputime")) {
                if (Math.abs(header.get(i)[1] - anchor - time) <= 1) {
                    return group;
                }
                group++;
            }
        }
        return -1;
    }

    /** Start and end of each word of a line, a '#' taken as space. */
    private static List<int[]> wordEnds(String line) {
        List<int[]> out = new ArrayList<>();
        Matcher m = WORD.matcher(line.replace('#', ' '));
        while (m.find()) {
            out.add(new int[] {m.start(), m.end()});
        }
        return out;
    }

    private static final Pattern WORD = Pattern.compile("\\S+");

    private static Fact<Integer> rootOf(Map<String, String> lead) {
        String root = lead.get("root");
        if (root == null) {
            return Fact.absent("no root column");
        }
        Fact<Long> v = NcclTestsParameters.count(root, "root");
        return v.flatMap(x -> Math.abs(x) <= Integer.MAX_VALUE ? Fact.of((int) (long) x) : Fact.error("root " + root + " is past the int range"));
    }

    /** One placement's cells: a Placement, or a String saying why not. */
    private Object placement(Map<String, String> cells, int p, boolean otherCounted, NcclTestsLayout use) {
        String timeCell = cells.containsKey("cputime") ? cells.get("cputime") : cells.get("time");
        Fact<Double> time = number(timeCell);
        Fact<Double> alg = number(cells.get("algbw"));
        Fact<Double> bus = number(cells.get("busbw"));
        if (!time.isValue() || !alg.isValue() || !bus.isValue()) {
            return "time/algbw/busbw '" + timeCell + " " + cells.get("algbw") + " " + cells.get("busbw") + "' are not all numbers";
        }
        Fact<Long> wrong = Fact.absent("the old layout reports a maximum error instead");
        Fact<Double> error = Fact.absent("the #wrong layout counts wrong elements instead");
        boolean rounded = false;
        String check = cells.containsKey("wrong") ? cells.get("wrong") : cells.get("error");
        boolean overThreshold = check != null && ASTERISK.matcher(check).matches();
        check = overThreshold ? check.substring(0, check.length() - 1) : check;
        if (check != null && CUT_NUMBER.matcher(check).matches()) {
            return "the " + (cells.containsKey("wrong") ? "#wrong" : "error") + " cell '" + check + "' is a number cut short (printf "
                    + "writes two exponent digits at least): the row is cut";
        }
        boolean oldLayout = cells.containsKey("error") || (layout == null && looksLikeMaxError(check));
        if (check == null) {
            wrong = Fact.absent("no #wrong column in this table");
        } else if (check.equals("N/A")) {
            Fact<Long> na = Fact.absent(notChecked(p, otherCounted && !oldLayout));
            wrong = oldLayout ? wrong : na;
            error = oldLayout ? Fact.absent(na.reason()) : error;
        } else if (oldLayout) {
            errorColumn = true;
            error = number(check);
        } else {
            wrong = count(check);
            rounded = wrong.isValue() && check.toLowerCase(Locale.ROOT).contains("e");
        }
        return new Placement(time.get() * (use.millis() ? 1000 : 1), alg.get(), bus.get(), wrong, error, perIteration(cells), rounded,
                overThreshold);
    }

    /** Without a header: "0e+00" or "2e-06" is the %le maximum error nccl-tests printed before 2.13, never a %g count. */
    private static boolean looksLikeMaxError(String cell) {
        if (cell == null || !cell.matches("-?\\d+(?:\\.\\d+)?[eE][+-]\\d+")) {
            return false;
        }
        double v = Double.parseDouble(cell);
        return v < 1;
    }

    /** A #wrong cell: an integer, or %g's exponent form (1.04858e+06) for a million and more. */
    private static Fact<Long> count(String cell) {
        if (cell.matches("\\d+")) {
            return NcclTestsParameters.count(cell, "#wrong");
        }
        Fact<Double> v = number(cell);
        if (v.isValue() && v.get() >= 0 && v.get() == Math.rint(v.get()) && v.get() < 9.2e18) {
            return Fact.of((long) (double) v.get());
        }
        return Fact.error("'" + cell + "' is not a count of wrong elements");
    }

    private static Fact<NcclTestsOutput.PerIteration> perIteration(Map<String, String> cells) {
        if (!cells.containsKey("i_min")) {
            return Fact.absent("no per-iteration columns (-I 0)");
        }
        List<Fact<Double>> v = List.of(number(cells.get("i_min")), number(cells.get("i_max")), number(cells.get("i_p99")),
                number(cells.get("i_cv%")));
        if (v.stream().anyMatch(f -> !f.isValue())) {
            return Fact.error("unreadable -I cells " + cells.get("i_min") + " " + cells.get("i_max") + " " + cells.get("i_p99") + " "
                    + cells.get("i_cv%"));
        }
        return Fact.of(new NcclTestsOutput.PerIteration(v.get(0).get(), v.get(1).get(), v.get(2).get(), v.get(3).get()));
    }

    /** Why a #wrong cell says N/A, from the header's validation, the pasted command's -c and the test's name. */
    private String notChecked(int placement, boolean otherCounted) {
        String binary = test.isValue() ? test.get() : command.flatMap(NcclTestsCommand::binary).orElse("");
        String flag = command.isValue() ? command.get().flags().get("check") : null;
        String why = notChecked(validation, flag, binary, placement, otherCounted);
        if (why.startsWith(UNEXPLAINED)) {
            warnings.add("N/A in a" + (placement == 0 ? "n out-of-place" : " in-place") + " #wrong cell although the header says "
                    + "validation: " + validation.get() + ": nccl-tests prints N/A only without validation or for in-place "
                    + "alltoall/alltoallv/sendrecv");
        }
        return why;
    }

    private static final String UNEXPLAINED = "N/A although the header says validation: ";

    /**
     * Why nccl-tests printed N/A (or wrote null) instead of a count: reportErrors is datacheck (-c) for every test, and
     * alltoall, alltoallv and sendrecv set it to 0 for their in-place call (src/alltoall.cu, alltoallv.cu, sendrecv.cu
     * since v2.13.2). {@code otherCounted}: the out-of-place cell of the same row holds a count.
     */
    static String notChecked(Fact<Integer> validation, String checkFlag, String binary, int placement, boolean otherCounted) {
        boolean unchecked = placement == 1 && (UNCHECKED_IN_PLACE.contains(binary.replaceFirst("_mpi$", "")) || otherCounted);
        String why = "nccl-tests does not check the in-place result of alltoall, alltoallv and sendrecv (their .cu files set "
                + "reportErrors = in_place ? 0 : 1)";
        if (validation.isValue()) {
            if (validation.get() == 0) {
                return "N/A: not validated (validation: 0, the run used -c 0)";
            }
            return unchecked ? "N/A: " + why + "; validation: " + validation.get()
                    : UNEXPLAINED + validation.get() + " (the text does not say why)";
        }
        if ("0".equals(checkFlag)) {
            return "N/A: not validated (the command line has -c 0)";
        }
        if (unchecked) {
            return "N/A: " + why;
        }
        return "N/A: not validated; the text has no '# nThread … validation:' line or -c flag to say why (nccl-tests prints N/A "
                + "with -c 0)";
    }

    /** A command line (or an export line before one); "\" at the end continues it on the next line. */
    private boolean commandLine(String t) {
        Matcher m = EXPORT.matcher(t);
        if (m.matches()) {
            exports.put(m.group(1) != null ? m.group(1) : m.group(2), m.group(3));
            return true;
        }
        String start = NcclTestsCommand.start(t);
        if (start == null) {
            return false;
        }
        finishCommand();
        pendingCommand = new StringBuilder();
        continueCommand(start);
        return true;
    }

    private void continueCommand(String t) {
        String part = t.replaceFirst("^>\\s?", "").strip(); // a Markdown quote marks each line of a quoted command
        boolean more = part.endsWith("\\");
        pendingCommand.append(pendingCommand.length() == 0 ? "" : " ").append(more ? part.substring(0, part.length() - 1).strip() : part);
        if (!more) {
            finishCommand();
        }
    }

    private void finishCommand() {
        if (pendingCommand != null) {
            NcclTestsCommand read = NcclTestsCommand.parse(pendingCommand.toString(), exports);
            if (!command.isValue()) {
                command = Fact.of(read);
            } else if (!headerStarted() && (read.binary().isValue() || !command.get().binary().isValue())) {
                // the last command before the run's header is the run's (hisohara/ai-scripts: two mpirun lines, a <snip>,
                // the second one's table); a later command that runs another program is not
                warnings.add("several command lines before the output: the last (" + read.text() + ") is taken as the run's; the "
                        + "output of '" + command.get().text() + "' is not in the text");
                command = Fact.of(read);
            }
            pendingCommand = null;
        }
    }

    /**
     * The command's -e against the parameters line's maxBytes: nccl-tests prints the size it parsed (src/common.cu
     * parsesize: K, M, G are powers of 1024), or less after "Reducing maxBytes". Another value: the command is another
     * run's (hisohara/ai-scripts pasted a one-node command above a two-node table).
     */
    private void commandAgrees(List<NcclTestsParameters> parameters) {
        String e = command.isValue() ? command.get().flags().get("maxbytes") : null;
        if (e == null || parameters.isEmpty() || !parameters.get(0).maxBytes().isValue() || reduced) {
            return;
        }
        Fact<Long> asked = NcclTestsCommand.size(e);
        long printed = parameters.get(0).maxBytes().get();
        if (asked.isValue() && asked.get() != printed) {
            warnings.add("the command's -e " + e + " (" + asked.get() + " bytes) is not the parameters line's maxBytes " + printed
                    + ": the command is another run's, and its flags and environment may not be this table's");
        }
    }

    /** A section line after the table that no row followed: not understood, as it started no run. */
    private void finishSection() {
        if (pendingSection != null) {
            skipped.add(source + ":" + pendingSectionLine + ": " + pendingSection);
            pendingSection = null;
        }
    }

    /** Whether this run's own output (version header, parameters, device lines, table) has begun. */
    private boolean headerStarted() {
        return version.isValue() || !parameterLines.isEmpty() || !devices.isEmpty() || layout != null || !rows.isEmpty();
    }

    static Fact<Double> number(String s) {
        if (s == null || !NUMBER.matcher(s).matches()) {
            return Fact.absent(s == null ? "missing" : "not a number: " + s);
        }
        try {
            double v = Double.parseDouble(s.toLowerCase(Locale.ROOT));
            return Double.isFinite(v) ? Fact.of(v) : Fact.absent("not a finite number: " + s);
        } catch (NumberFormatException e) {
            return Fact.absent("not a number: " + s);
        }
    }
}
