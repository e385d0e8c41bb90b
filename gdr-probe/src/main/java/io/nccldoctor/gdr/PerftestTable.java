package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The columns of a perftest result table, read from the table's header line so that every row is split by what the
 * header names (perftest_parameters.h: RESULT_FMT, RESULT_FMT_G, RESULT_FMT_PER_PORT, RESULT_FMT_QOS, RESULT_FMT_LAT,
 * RESULT_FMT_LAT_DUR, RESULT_EXT_CPU_UTIL, RESULT_FMT_FS_RATE). A header with text this reader does not know gives no
 * table: its rows are listed as not understood.
 */
final class PerftestTable {

    /** Every column name perftest prints, with the unit in brackets where it has one. */
    private static final Pattern COLUMN = Pattern.compile("#bytes|#sl|#iterations|#flows|BW (?:peak|average|Port\\d)\\[[^\\]]+]"
            + "|MsgRate(?: Port\\d)?\\[[^\\]]+]|t_(?:min|max|typical|avg|stdev)\\[[^\\]]+]|99(?:\\.9)?% percentile\\[[^\\]]+]"
            + "|tps average|CPU_Util\\[%]|fs_\\w+\\[[^\\]]+]|fps\\[[^\\]]+]");
    private static final Pattern NUMBER = Pattern.compile("[-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?");
    private static final Pattern UNIT = Pattern.compile("BW average\\[([^\\]]+)]");

    private final List<String> columns;

    private PerftestTable(List<String> columns) {
        this.columns = columns;
    }

    /** True for a line that starts a result table (" #bytes …", " #flows …"). */
    static boolean isHeader(String line) {
        String s = line.strip();
        return s.startsWith("#bytes") || s.startsWith("#flows");
    }

    /** The table a header line names, or null when it holds text that is no perftest column. */
    static PerftestTable of(String line) {
        Matcher m = COLUMN.matcher(line);
        List<String> columns = new ArrayList<>();
        StringBuilder rest = new StringBuilder();
        int at = 0;
        while (m.find()) {
            rest.append(line, at, m.start());
            columns.add(m.group());
            at = m.end();
        }
        rest.append(line.substring(at));
        return rest.toString().isBlank() ? new PerftestTable(columns) : null;
    }

    List<String> columns() {
        return columns;
    }

    boolean latency() {
        return columns.stream().anyMatch(c -> c.startsWith("t_"));
    }

    boolean bandwidth() {
        return columns.stream().anyMatch(c -> c.startsWith("BW average"));
    }

    /** The bandwidth unit of the table, as printed: "MiB/sec", "MB/sec" or "Gb/sec". */
    String unit() {
        return columns.stream().map(UNIT::matcher).filter(Matcher::matches).map(m -> m.group(1)).findFirst().orElse("none");
    }

    /** A row's cells by column name, or null when the cells are not one number per column. */
    Map<String, Double> cells(String line) {
        String[] c = line.strip().split("\\s+");
        if (c.length != columns.size()) {
            return null;
        }
        Map<String, Double> out = new LinkedHashMap<>();
        for (int i = 0; i < c.length; i++) {
            if (!NUMBER.matcher(c[i]).matches()) {
                return null;
            }
            out.put(columns.get(i), Double.parseDouble(c[i]));
        }
        return out;
    }

    /** Why a row does not fit, for the not-understood list. */
    String misfit(String line) {
        String[] c = line.strip().split("\\s+");
        return c.length != columns.size() ? c.length + " cells where the table has " + columns.size() + " columns"
                : "a cell that is not a number";
    }

    /** A bandwidth row; null when #bytes, #iterations, BW peak and BW average are not all there. */
    PerftestOutput.Row bandwidthRow(Map<String, Double> cells) {
        Double bytes = cells.get("#bytes");
        Double iterations = cells.get("#iterations");
        Double peak = find(cells, "BW peak[");
        Double average = find(cells, "BW average[");
        if (bytes == null || iterations == null || peak == null || average == null) {
            return null;
        }
        Double rate = cells.get("MsgRate[Mpps]");
        Map<String, Double> extra = new LinkedHashMap<>(cells);
        extra.keySet().removeIf(k -> k.equals("#bytes") || k.equals("#iterations") || k.startsWith("BW peak[") || k.startsWith("BW average[")
                || k.equals("MsgRate[Mpps]"));
        return new PerftestOutput.Row(bytes.longValue(), iterations.longValue(), peak, average,
                rate == null ? Fact.absent("no MsgRate column") : Fact.of(rate), extra);
    }

    /** A latency row; null without #bytes and #iterations. */
    PerftestOutput.LatencyRow latencyRow(Map<String, Double> cells) {
        Double bytes = cells.get("#bytes");
        Double iterations = cells.get("#iterations");
        if (bytes == null || iterations == null) {
            return null;
        }
        Map<String, Double> extra = new LinkedHashMap<>(cells);
        extra.keySet().removeIf(k -> k.equals("#bytes") || k.equals("#iterations") || k.startsWith("t_") || k.contains("percentile")
                || k.equals("tps average"));
        return new PerftestOutput.LatencyRow(bytes.longValue(), iterations.longValue(), value(cells, "t_min["), value(cells, "t_max["),
                value(cells, "t_typical["), value(cells, "t_avg["), value(cells, "t_stdev["), value(cells, "99% percentile["),
                value(cells, "99.9% percentile["), value(cells, "tps average"), extra);
    }

    private static Double find(Map<String, Double> cells, String prefix) {
        return cells.entrySet().stream().filter(e -> e.getKey().startsWith(prefix)).map(Map.Entry::getValue).findFirst().orElse(null);
    }

    private static Fact<Double> value(Map<String, Double> cells, String prefix) {
        Double v = find(cells, prefix);
        return v == null ? Fact.absent("no " + prefix.replace("[", "") + " column in this table") : Fact.of(v);
    }
}
