package io.nccldoctor.collectives.parse;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where one nccl-tests run ends and the next begins in one text, so that each is read as its own table with its own
 * summary and no two runs are merged into one sweep. A run that has rows or a footer ends at:
 * <ul>
 * <li>a line that starts another run's output: a command line (the command printed after a run's "# Avg bus
 * bandwidth" belongs to the next run, NVIDIA/nccl#340), a version header, a "# nThread" parameters line, a
 * "# Collective test starting" line, a device line, a column header;</li>
 * <li>the first row after a section line a script or a person put between runs ("====== 2-node ======"); a section
 * line with no row after it starts nothing and is listed as not understood;</li>
 * <li>a row whose size is below the previous row's: the sizes start again (equal sizes repeat where a size rounds to the
 * same count, as size 0 does for small sizes on many ranks). nccl-tests -N prints every cycle's
 * sweep back to back in one table (src/common.cu TimeTest: {@code do { for (size …) … } while (--repeat)}), rccl-tests
 * too, with "# Testing N cycle." before each when it runs more than one ({@code if (run_cycles > 1) PRINT("# Testing
 * %lu cycle.\n", iter+1)}); a cycle keeps its run's header, command and layout.</li>
 * </ul>
 */
final class NcclTestsRuns {

    /**
     * Why a line starts a new run.
     *
     * @param why   said in the new run's warnings
     * @param cycle true when the new sweep is another cycle of the same run (header, command and layout carry over)
     */
    record Start(String why, boolean cycle) {
    }

    /** "# Testing 2 cycle." (rccl-tests, -N above 1): the cycle number. */
    static final Pattern CYCLE = Pattern.compile("^#?\\s*Testing (\\d{1,9}) cycle\\.\\s*$");
    /** A line of '=' (or '-') around a name: "====== 1-node ======", a script's or a person's label of the run below it. */
    static final Pattern SECTION = Pattern.compile("^(={3,}|-{3,})\\s*(\\S.*?)\\s*\\1$");
    private static final Pattern HEADERS = Pattern.compile(
            "(?:^|#)\\s*(?:(?:nccl|rccl)-tests version |rc+l-tests: Version |Collective test starting: )");
    private static final Pattern DEVICE = Pattern.compile("^#?\\s*Rank\\s+\\d+.*device\\s+\\d+.*$");
    private static final Pattern ROW_SIZE = Pattern.compile("^(\\d{1,18})\\s");

    private NcclTestsRuns() {
    }

    /**
     * Whether {@code t} (a plain line, prefixes and Markdown removed) starts a new run after a run that read rows or
     * a footer; {@code lastSize} is that run's last row's size, -1 when it has none. Null when the line belongs to it.
     */
    static Start start(String t, long lastSize) {
        Matcher m;
        if ((m = CYCLE.matcher(t)).matches() && Integer.parseInt(m.group(1)) > 1) {
            return new Start("'" + t + "': rccl-tests prints each cycle of -N as its own sweep", true);
        }
        if (HEADERS.matcher(t).find() || NcclTestsParameters.LINE.matcher(t).find() || DEVICE.matcher(t).matches()) {
            return new Start("another run's header line '" + t + "' after the previous run's table", false);
        }
        if (header(t)) {
            return new Start("another column header after the previous run's table", false);
        }
        if (NcclTestsCommand.start(t) != null) {
            return new Start("a command line after the previous run's table: its run follows it", false);
        }
        if ((m = ROW_SIZE.matcher(t)).find() && lastSize >= 0 && Long.parseLong(m.group(1)) < lastSize) {
            return new Start("the sizes start again (" + m.group(1) + " bytes after " + lastSize + "): another sweep, "
                    + "as nccl-tests -N prints its cycles or as runs pasted one after another", true);
        }
        return null;
    }

    /** A column header line ("#  size  count  type … time  algbw  busbw …") that names a table. */
    static boolean header(String t) {
        boolean headerLine = (t.startsWith("#") || t.startsWith("size ") || t.startsWith("bytes ")) && t.contains("time")
                && (t.contains("size") || t.contains("bytes"));
        return headerLine && NcclTestsLayout.fromHeader(List.of((t.startsWith("#") ? t.substring(1) : t).strip().split("\\s+"))) != null;
    }
}
