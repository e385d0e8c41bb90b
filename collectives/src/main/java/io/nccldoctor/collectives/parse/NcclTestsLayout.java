package io.nccldoctor.collectives.parse;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The columns of one nccl-tests table, read from its column header line, so that a row is split by what the header
 * names and never by position guesses. What nccl-tests prints (src/util.cu writeResultHeader, v2.19.6; the test files
 * and src/common.cu before v2.17.3):
 * <ul>
 * <li>lead columns {@code size count type redop root} (v2.13+), {@code size count type redop|root} or {@code size count
 * type} before, {@code bytes N type op} in nccl-tests 1.x;</li>
 * <li>per placement (out-of-place, then in-place) {@code time algbw busbw #wrong}; {@code cputime} instead of time with
 * -C 1; {@code error} instead of #wrong before v2.13, {@code res} in 1.x; -I 1 (v2.19.2+) adds {@code i_min i_max i_p99
 * i_cv%};</li>
 * <li>{@code timestamp} after the in-place columns with -S 1 (v2.17.6+), one column in the header but two cells in a row
 * ("%Y-%m-%d %H:%M:%S").</li>
 * </ul>
 * A name nccl-tests never printed is kept and reported: its cells are skipped by position, and a row whose cell count
 * does not match the header is refused, not shifted.
 */
final class NcclTestsLayout {

    /** One column: its name as printed, its placement (-1 none, 0 out-of-place, 1 in-place), the cells it takes. */
    record Column(String name, int placement, int width) {
    }

    /**
     * A row split by the layout: the lead cells by name, per placement its cells by name; or why it could not be.
     * {@code firstGroupOnly}: the row ends after the lead cells and the first placement group the header prints, its
     * other group's cells are not in the line.
     */
    record Cells(Map<String, String> lead, List<Map<String, String>> placements, String problem, boolean firstGroupOnly) {
        static Cells refused(String why) {
            return new Cells(Map.of(), List.of(), why, false);
        }
    }

    private static final Map<String, String> CANONICAL = Map.of("bytes", "size", "N", "count", "op", "redop", "#wrong", "wrong",
            "res", "error");
    private static final Set<String> LEADS = Set.of("size", "count", "type", "redop", "root", "timestamp");
    private static final Set<String> CELLS = Set.of("time", "cputime", "algbw", "busbw", "wrong", "error", "i_min", "i_max", "i_p99",
            "i_cv%");
    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    private static final Pattern CLOCK = Pattern.compile("\\d{2}:\\d{2}:\\d{2}");
    private static final Pattern NUMBER = Pattern.compile("-?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?");

    private final List<Column> columns;
    private final List<String> unknown;
    private final boolean millis;

    private NcclTestsLayout(List<Column> columns, List<String> unknown, boolean millis) {
        this.columns = columns;
        this.unknown = unknown;
        this.millis = millis;
    }

    /**
     * The layout a column header names ("size count type redop root time algbw busbw #wrong time …"), or null when
     * the words do not name a size and a time column.
     */
    static NcclTestsLayout fromHeader(List<String> words) {
        List<Column> columns = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        int placement = -1;
        int firstGroup = 0;
        int inGroup = 0;
        for (String word : words) {
            String name = CANONICAL.getOrDefault(word, word);
            if (name.equals("time") || name.equals("cputime")) {
                placement++;
                if (placement == 1) {
                    firstGroup = inGroup;
                }
                inGroup = 0;
            }
            boolean trailing = placement == 1 && inGroup >= firstGroup;
            int p = placement < 0 || trailing || name.equals("timestamp") ? -1 : placement;
            if (p >= 0) {
                inGroup++;
            }
            if (!LEADS.contains(name) && !CELLS.contains(name) && !unknown.contains(word)) {
                unknown.add(word);
            }
            columns.add(new Column(name, p, name.equals("timestamp") ? 2 : 1));
        }
        boolean named = columns.stream().anyMatch(c -> c.name().equals("size")) && placement >= 0;
        return named ? new NcclTestsLayout(columns, unknown, columns.stream().anyMatch(c -> c.name().equals("error"))
                && words.contains("res")) : null;
    }

    /**
     * Without a column header: the shapes nccl-tests prints, told apart by the cells themselves. 3, 4 or 5 lead
     * cells (a word in the fourth is a redop, an integer after it a root), then 8 cells (two placements of time algbw
     * busbw #wrong) or 16 (with the -I columns), then optionally a date and a time. Null for any other count.
     */
    static NcclTestsLayout infer(String[] c) {
        if (c.length < 4) {
            return null;
        }
        boolean stamped = c.length >= 2 && DATE.matcher(c[c.length - 2]).matches() && CLOCK.matcher(c[c.length - 1]).matches();
        int cells = c.length - (stamped ? 2 : 0);
        boolean word = !NUMBER.matcher(c[3]).matches() && !c[3].equals("N/A");
        List<List<String>> candidates = word
                ? List.of(List.of("size", "count", "type", "redop", "root"), List.of("size", "count", "type", "redop"))
                : List.of(List.of("size", "count", "type"), List.of("size", "count", "type", "root"));
        for (List<String> lead : candidates) {
            int rest = cells - lead.size();
            if (rest < 8 || lead.contains("root") && !c[lead.size() - 1].matches("-?\\d+")) {
                continue;
            }
            if (rest == 8 || rest == 16) {
                List<String> group = rest == 8 ? List.of("time", "algbw", "busbw", "wrong")
                        : List.of("time", "algbw", "busbw", "wrong", "i_min", "i_max", "i_p99", "i_cv%");
                List<Column> columns = new ArrayList<>();
                lead.forEach(n -> columns.add(new Column(n, -1, 1)));
                for (int p = 0; p < 2; p++) {
                    int placement = p;
                    group.forEach(n -> columns.add(new Column(n, placement, 1)));
                }
                if (stamped) {
                    columns.add(new Column("timestamp", -1, 2));
                }
                return new NcclTestsLayout(columns, List.of(), false);
            }
        }
        return null;
    }

    /** Splits one row, or says why it cannot be split as this layout says. */
    Cells read(String[] cells) {
        int width = columns.stream().mapToInt(Column::width).sum();
        List<Column> use = columns;
        if (cells.length == width - 1 && has("redop") && indexOf("redop") < cells.length && NUMBER.matcher(cells[indexOf("redop")]).matches()) {
            use = columns.stream().filter(c -> !c.name().equals("redop")).toList(); // old alltoall rows leave redop blank
        } else if (cells.length != width && cells.length == firstGroupWidth() && placementCount() == 2) {
            use = columns.subList(0, columnsOfFirstGroup()); // the line ends after its first group (a cut paste, mscclpp-test)
        } else if (cells.length != width) {
            return Cells.refused(cells.length + " cells where the columns take " + width + " (" + names() + ")");
        }
        Map<String, String> lead = new LinkedHashMap<>();
        List<Map<String, String>> placements = List.of(new LinkedHashMap<>(), new LinkedHashMap<>());
        int at = 0;
        for (Column c : use) {
            String value = c.width() == 2 ? cells[at] + " " + cells[at + 1] : cells[at];
            if (c.name().equals("timestamp") && !(DATE.matcher(cells[at]).matches() && CLOCK.matcher(cells[at + 1]).matches())) {
                return Cells.refused("the timestamp column holds '" + value + "', not a date and a time");
            }
            (c.placement() < 0 ? lead : placements.get(c.placement())).put(c.name(), value);
            at += c.width();
        }
        boolean firstOnly = use.size() < columns.size() && use.stream().noneMatch(c -> c.placement() == 1);
        return new Cells(lead, placements.get(1).isEmpty() ? List.of(placements.get(0)) : placements, null, firstOnly);
    }

    /** The columns up to the end of the first placement group: the lead columns and the first group's cells. */
    private int columnsOfFirstGroup() {
        int n = 0;
        while (n < columns.size() && columns.get(n).placement() <= 0 && !(n > 0 && columns.get(n).placement() < 0
                && columns.get(n - 1).placement() == 0)) {
            n++;
        }
        return n;
    }

    /** The cells a row takes up to the end of its first placement group. */
    private int firstGroupWidth() {
        return columns.subList(0, columnsOfFirstGroup()).stream().mapToInt(Column::width).sum();
    }

    private boolean has(String name) {
        return columns.stream().anyMatch(c -> c.name().equals(name));
    }

    private int indexOf(String name) {
        int at = 0;
        for (Column c : columns) {
            if (c.name().equals(name)) {
                return at;
            }
            at += c.width();
        }
        return -1;
    }

    String names() {
        return String.join(" ", columns.stream().map(Column::name).toList());
    }

    /** Column names nccl-tests never printed: their cells are read past, their values not used. */
    List<String> unknown() {
        return unknown;
    }

    /** True for the old layout whose last cell per placement is a maximum error. */
    boolean errorColumn() {
        return has("error");
    }

    boolean cpuTime() {
        return has("cputime");
    }

    /** nccl-tests 1.x printed times in ms (src/common.cu@v1.0.0: deltaSec * 1.0E3, no units line). */
    boolean millis() {
        return millis;
    }

    int placementCount() {
        return (int) columns.stream().mapToInt(Column::placement).filter(p -> p >= 0).distinct().count();
    }
}
