package io.nccldoctor.collectives.parse;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.libs.NativeCalls;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * nccl-tests text output of every layout in the wild (reference/nccl-internals.md §2.2): the version header with
 * NCCL header/library codes, the device lines, the table with 5 lead columns and #wrong (v2.13+) or 4 lead columns
 * and the older max-error column, N/A cells, mpirun "[1,0]<stdout>:" and srun "0: " prefixes, interleaved NCCL INFO
 * lines, and the footer.
 *
 * @param errorColumn true for the old layout, whose last cell per placement is a maximum error, not a count
 * @param avgBusBwOk  the OK / FAILED nccl-tests adds to the average when NCCL_TESTS_MIN_BW is set (FAILED: below
 *                    0.9 × that minimum); absent otherwise
 */
public record NcclTestsOutput(Fact<String> testsVersion, Fact<String> ncclHeaders, Fact<String> ncclLibrary,
                              Fact<String> test, List<String> devices, boolean errorColumn, List<Row> rows,
                              Fact<Long> outOfBounds, Fact<Boolean> outOfBoundsOk, Fact<Double> avgBusBwGBps,
                              Fact<Boolean> avgBusBwOk, int ncclInfoLines,
                              List<String> notUnderstood) {

    /** One size: the lead columns, then the out-of-place and in-place measurements. */
    public record Row(long sizeBytes, long count, String type, Fact<String> redop, Fact<Integer> root, Placement outOfPlace,
                      Fact<Placement> inPlace) {
    }

    /**
     * @param wrong #wrong (v2.13+), absent as N/A with -c 0; or, in the old layout, absent with {@link #maxError()}
     */
    public record Placement(double timeUs, double algBwGBps, double busBwGBps, Fact<Long> wrong, Fact<Double> maxError) {
    }

    /** Launcher prefixes: Ray/SkyPilot "(head, rank=0, pid=1) ", mpirun "[1,0]<stdout>:", srun --label "0: ". */
    private static final Pattern PREFIX = Pattern.compile("^(?:\\([^)]*\\)\\s*)?(?:\\[\\d+,\\d+\\]<std(?:out|err)>:|\\d+: )?");
    private static final Pattern BANNER = Pattern.compile("^NCCL version (\\d+\\.\\d+\\.\\d+)");
    /*
     * The '#' that starts nccl-tests' own lines is optional in what follows: an output pasted into a GitHub issue or a
     * wiki without a code block loses it to Markdown, which makes those lines headings.
     */
    /** "# nccl-tests version 2.18.2 nccl-headers=23007 nccl-library=23007"; 2.20 adds the git revision: "2.20.0 (b4d5bee)". */
    private static final Pattern VERSION = Pattern.compile(
            "(?:^|#)\\s*nccl-tests version (\\S+(?: \\([^)]*\\))?) nccl-headers=(\\d{1,9}) nccl-library=(\\d{1,9})");
    private static final Pattern TEST = Pattern.compile("(?:^|#)\\s*Collective test starting: (\\S+)");
    private static final Pattern DEVICE = Pattern.compile("^#?\\s*Rank\\s+\\d+.*device\\s+\\d+.*$");
    private static final Pattern OOB = Pattern.compile("(?:^|#)\\s*Out of bounds values\\s*:\\s*(\\d+)\\s+(OK|FAILED)");
    private static final Pattern AVG = Pattern.compile("(?:^|#)\\s*Avg bus bandwidth\\s*:\\s*([0-9.eE+-]+|nan|inf)(?:\\s+(OK|FAILED))?");
    /** The rest of nccl-tests' header and footer lines, read without their '#': nothing in them for the table. */
    private static final List<String> HEADER_WORDS = List.of("nThread ", "Using devices", "out-of-place", "(B)", "Blocking Enabled",
            "Collective test concluded", "Reducing maxBytes");

    public static NcclTestsOutput parse(List<String> raw, String source) {
        Fact<String> version = Fact.absent("no '# nccl-tests version' header (older nccl-tests, or cut)");
        Fact<String> headers = version;
        Fact<String> library = version;
        Fact<String> test = Fact.absent("no '# Collective test starting' line");
        List<String> devices = new ArrayList<>();
        int leads = -1;
        boolean errorColumn = false;
        List<Row> rows = new ArrayList<>();
        Fact<Long> oob = Fact.absent("no 'Out of bounds values' footer");
        Fact<Boolean> oobOk = Fact.absent("no 'Out of bounds values' footer");
        Fact<Double> avg = Fact.absent("no 'Avg bus bandwidth' footer");
        Fact<Boolean> avgOk = Fact.absent("NCCL_TESTS_MIN_BW was not set (no OK/FAILED after the average)");
        int info = 0;
        List<String> skipped = new ArrayList<>();
        for (int n = 0; n < raw.size(); n++) {
            String line = PREFIX.matcher(raw.get(n)).replaceFirst("");
            String t = line.strip();
            if (t.isEmpty()) {
                continue;
            }
            if (t.contains(" NCCL INFO ") || t.contains(" NCCL WARN ")) {
                info++;
                continue;
            }
            Matcher m;
            if ((m = VERSION.matcher(t)).find()) {
                version = Fact.of(m.group(1));
                headers = Fact.of(NativeCalls.ncclVersion(Integer.parseInt(m.group(2))));
                library = Fact.of(NativeCalls.ncclVersion(Integer.parseInt(m.group(3))));
            } else if ((m = BANNER.matcher(t)).find()) {
                if (!library.isValue()) {
                    library = Fact.of(m.group(1)); // older nccl-tests print NCCL's banner instead of the version header
                }
            } else if ((m = TEST.matcher(t)).find()) {
                test = Fact.of(m.group(1));
            } else if (DEVICE.matcher(t).matches()) {
                devices.add(t.startsWith("#") ? t.substring(1).strip() : t);
            } else if ((m = OOB.matcher(t)).find()) {
                oob = Fact.of(Long.parseLong(m.group(1)));
                oobOk = Fact.of(m.group(2).equals("OK"));
            } else if ((m = AVG.matcher(t)).find()) {
                avg = number(m.group(1)).map(Fact::of).orElse(Fact.error("unreadable average '" + m.group(1) + "'"));
                if (m.group(2) != null) {
                    avgOk = Fact.of(m.group(2).equals("OK"));
                }
            } else if ((t.startsWith("#") || t.startsWith("size ")) && t.contains("size") && t.contains("time")) {
                List<String> words = List.of((t.startsWith("#") ? t.substring(1) : t).strip().split("\\s+"));
                leads = words.indexOf("time");
                errorColumn = words.contains("error");
            } else if (!t.startsWith("#") && Character.isDigit(t.charAt(0))) {
                Row r = row(t.split("\\s+"), leads, errorColumn);
                if (r == null) {
                    skipped.add(source + ":" + (n + 1) + ": " + t);
                } else {
                    rows.add(r);
                }
            } else if (!t.startsWith("#") && HEADER_WORDS.stream().noneMatch(t::startsWith)) {
                skipped.add(source + ":" + (n + 1) + ": " + t);
            }
        }
        if (rows.isEmpty() && !version.isValue() && !oob.isValue() && leads < 0) {
            throw new InputException(source + ": not nccl-tests output (no '# nccl-tests version' header, no size/time table, "
                    + "no 'Out of bounds values' footer); give the output of all_reduce_perf or another *_perf binary");
        }
        return new NcclTestsOutput(version, headers, library, test, devices, errorColumn, rows, oob, oobOk, avg, avgOk, info, skipped);
    }

    /**
     * size count type [redop] [root] then (time algbw busbw #wrong|error) for out-of-place and in-place. The lead
     * columns are read from the row itself: old alltoall rows have none after type although the header names redop.
     */
    private static Row row(String[] c, int leads, boolean errorColumn) {
        int lead = guessLeads(c);
        if (lead < 3 || c.length < lead + 4) {
            return null;
        }
        try {
            long size = Long.parseLong(c[0]);
            long count = Long.parseLong(c[1]);
            Fact<String> redop = Fact.absent("no redop column");
            Fact<Integer> root = Fact.absent("no root column");
            if (lead >= 5) {
                redop = Fact.of(c[3]);
                root = Fact.of(Integer.parseInt(c[4]));
            } else if (lead == 4) {
                if (c[3].matches("-?\\d+")) {
                    root = Fact.of(Integer.parseInt(c[3]));
                } else {
                    redop = Fact.of(c[3]);
                }
            }
            Placement out = placement(c, lead, errorColumn);
            if (out == null) {
                return null;
            }
            Placement in = c.length >= lead + 8 ? placement(c, lead + 4, errorColumn) : null;
            return new Row(size, count, c[2], redop, root, out,
                    in == null ? Fact.absent("no in-place measurement (N/A)") : Fact.of(in));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** 3 lead columns (size count type), 4 (+ redop or root) or 5 (+ redop and root), so that 4 or 8 cells follow. */
    private static int guessLeads(String[] c) {
        if (c.length < 4) {
            return -1;
        }
        boolean word = !c[3].matches("-?[0-9.]+(?:[eE][+-]?\\d+)?");
        if (word) {
            return c.length > 4 && c[4].matches("-?\\d+") && fits(c.length - 5) ? 5 : 4;
        }
        return fits(c.length - 3) ? 3 : 4;
    }

    private static boolean fits(int cells) {
        return cells == 4 || cells == 8;
    }

    private static Placement placement(String[] c, int at, boolean errorColumn) {
        Fact<Double> time = number(c[at]);
        Fact<Double> alg = number(c[at + 1]);
        Fact<Double> bus = number(c[at + 2]);
        if (!time.isValue() || !alg.isValue() || !bus.isValue()) {
            return null;
        }
        String last = c[at + 3];
        Fact<Long> wrong = Fact.absent(errorColumn ? "the old layout reports a maximum error instead" : "N/A: validation off (-c 0)");
        Fact<Double> error = Fact.absent("the #wrong layout counts wrong elements instead");
        if (errorColumn) {
            error = number(last);
        } else if (last.matches("\\d+")) {
            wrong = Fact.of(Long.parseLong(last));
        }
        return new Placement(time.get(), alg.get(), bus.get(), wrong, error);
    }

    static Fact<Double> number(String s) {
        try {
            return Fact.of(Double.parseDouble(s.toLowerCase(Locale.ROOT)));
        } catch (NumberFormatException e) {
            return Fact.absent("not a number: " + s);
        }
    }

    /** Wrong elements over all rows and placements; absent when the run did not validate. */
    public Fact<Long> totalWrong() {
        long sum = 0;
        boolean any = false;
        for (Row r : rows) {
            if (r.outOfPlace().wrong().isValue()) {
                sum += r.outOfPlace().wrong().get();
                any = true;
            }
            if (r.inPlace().isValue() && r.inPlace().get().wrong().isValue()) {
                sum += r.inPlace().get().wrong().get();
                any = true;
            }
        }
        return any ? Fact.of(sum) : Fact.absent("no #wrong values (validation off, or the old error layout)");
    }

    /**
     * Why this run's results cannot be trusted, one line per reason; empty when nothing says so. Reads the #wrong
     * cells (v2.13+ layout) and the "Out of bounds values : N FAILED" footer; the old layout's maximum error is a
     * float difference that nccl-tests itself only judges through that footer.
     */
    @JsonProperty("failures")
    public List<String> failures() {
        List<String> why = new ArrayList<>();
        List<Long> bad = new ArrayList<>();
        for (Row r : rows) {
            boolean out = r.outOfPlace().wrong().isValue() && r.outOfPlace().wrong().get() > 0;
            boolean in = r.inPlace().isValue() && r.inPlace().get().wrong().isValue() && r.inPlace().get().wrong().get() > 0;
            if (out || in) {
                bad.add(r.sizeBytes());
            }
        }
        if (!bad.isEmpty()) {
            why.add(String.format(Locale.ROOT, "%,d wrong elements in %d of %d sizes (%,d to %,d bytes): the collective returned "
                    + "corrupted data", totalWrong().get(), bad.size(), rows.size(), bad.get(0), bad.get(bad.size() - 1)));
        }
        if (avgBusBwOk.isValue() && !avgBusBwOk.get()) {
            why.add("the average bus bandwidth " + avgBusBwGBps.describe() + " GB/s is below 0.9 x NCCL_TESTS_MIN_BW (the footer says FAILED)");
        }
        if (outOfBoundsOk.isValue() && !outOfBoundsOk.get()) {
            why.add("the footer says 'Out of bounds values : " + outOfBounds.get() + " FAILED'");
        }
        return why;
    }

    /** The row with the highest out-of-place bus bandwidth, the number nccl-tests users quote. */
    @JsonProperty("peakBusBw")
    public Fact<Row> peakBusBw() {
        return rows.stream().max(java.util.Comparator.comparingDouble(r -> r.outOfPlace().busBwGBps())).map(Fact::of)
                .orElse(Fact.absent("no rows"));
    }
}
