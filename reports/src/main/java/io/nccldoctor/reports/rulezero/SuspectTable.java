package io.nccldoctor.reports.rulezero;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.collectives.coll.Collective;
import io.nccldoctor.collectives.coll.DataType;
import io.nccldoctor.collectives.coll.Sizing;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import io.nccldoctor.core.read.Inputs;
import io.nccldoctor.reports.csv.CsvReader;
import io.nccldoctor.reports.results.ResultInputs;
import io.nccldoctor.reports.results.Sweep;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A table of suspect measurements, one row per measurement, as CSV or JSON (docs/rulezero.md). Columns, in any order and
 * any case: collective, dtype, ranks, count (elements in the whole buffer) or bytes or both, and busbw (GB/s) or
 * time_us or algbw (GB/s). Where busbw is missing it is computed from time_us, else from algbw, with the collective's
 * bus bandwidth factor. '#' starts a comment in either form. CSV (RFC 4180, {@link CsvReader}: a field in double quotes may
 * hold commas and '#'): the first record is the header, an empty cell is a value not given. JSON: an array of objects, or an object whose "rows" is one. A bad row is
 * an {@link InputException} naming FILE:LINE. A `nccl-doctor run --json` file is read as a run ({@link SuspectRow#of}).
 */
public final class SuspectTable {

    static final Set<String> COLUMNS = Set.of("collective", "dtype", "count", "bytes", "ranks", "time_us", "busbw", "algbw");
    private static final String KNOWN = "collective, dtype, count, bytes, ranks, time_us, busbw, algbw";
    /** What a number cell may hold: no sign, no NaN or Infinity, no Java suffix such as 5.2f. */
    private static final Pattern DECIMAL = Pattern.compile("(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

    private SuspectTable() {
    }

    public static List<SuspectRow> parse(Path p) {
        String text = read(p);
        String start = text.replaceAll("(?m)^\\s*#.*$", "").strip();
        if (!start.startsWith("{") && !start.startsWith("[")) {
            return parseCsv(text.lines().toList(), p.toString());
        }
        return isRun(text) ? run(p) : parseJson(text, p.toString());
    }

    private static String read(Path p) {
        if (!Files.isRegularFile(p)) {
            throw new InputException(p + ": no such file");
        }
        return Inputs.text(p).text();
    }

    private static final JsonFactory JSON = JsonFactory.builder().enable(JsonReadFeature.ALLOW_YAML_COMMENTS).build();

    /** Whether the JSON is `nccl-doctor run --json` output (ResultInputs' test: "launch" and "result" at the top). */
    private static boolean isRun(String text) {
        try (JsonParser p = JSON.createParser(text)) {
            JsonNode doc = Json.mapper().readTree(p);
            return doc != null && doc.has("launch") && doc.has("result");
        } catch (IOException e) {
            return false; // parseJson says where the syntax breaks
        }
    }

    /** `nccl-doctor run --json`, read as `report` reads it. */
    private static List<SuspectRow> run(Path p) {
        List<Sweep> sweeps = new ResultInputs(dir -> {
            throw new InputException(dir + ": a capture folder, not a suspect table");
        }).read(List.of(p.toString()), "").sweeps();
        List<SuspectRow> out = new ArrayList<>();
        sweeps.forEach(s -> out.addAll(SuspectRow.of(s)));
        return out;
    }

    static List<SuspectRow> parseCsv(List<String> lines, String source) {
        List<String> header = null;
        List<SuspectRow> rows = new ArrayList<>();
        for (CsvReader.Record r : CsvReader.read(lines, source, true)) {
            String where = source + ":" + r.line();
            List<String> cells = r.fields();
            if (header == null) {
                header = header(cells, where);
                continue;
            }
            if (cells.size() != header.size()) {
                throw new InputException(where + ": " + cells.size() + " cells where the header has " + header.size() + " ("
                        + String.join(",", header) + ")");
            }
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < cells.size(); i++) {
                row.put(header.get(i), cells.get(i));
            }
            rows.add(row(row, where));
        }
        if (rows.isEmpty()) {
            throw new InputException(source + ": no rows (a header line " + KNOWN + ", then one line per measurement)");
        }
        return rows;
    }

    private static List<String> header(List<String> cells, String where) {
        List<String> names = cells.stream().map(c -> c.toLowerCase(Locale.ROOT)).toList();
        for (String c : names) {
            if (!COLUMNS.contains(c)) {
                throw new InputException(where + ": unknown column '" + c + "'; the columns are " + KNOWN);
            }
            if (names.indexOf(c) != names.lastIndexOf(c)) {
                throw new InputException(where + ": column '" + c + "' appears twice");
            }
        }
        return names;
    }

    static List<SuspectRow> parseJson(String text, String source) {
        List<SuspectRow> rows = new ArrayList<>();
        try (JsonParser p = JSON.createParser(text)) {
            JsonToken t = p.nextToken();
            if (t == JsonToken.START_OBJECT) {
                t = p.nextToken();
                if (t != JsonToken.FIELD_NAME || !p.currentName().equalsIgnoreCase("rows")) {
                    throw new InputException(source + ":" + line(p) + ": expected \"rows\": [ … ] (or a top-level array of rows)");
                }
                t = p.nextToken();
            }
            if (t != JsonToken.START_ARRAY) {
                throw new InputException(source + ":" + line(p) + ": expected an array of rows, one object per measurement");
            }
            while ((t = p.nextToken()) == JsonToken.START_OBJECT) {
                String where = source + ":" + line(p);
                rows.add(row(fields(Json.mapper().readTree(p), where), where));
            }
            if (t != JsonToken.END_ARRAY) {
                throw new InputException(source + ":" + line(p) + ": a row is an object {\"collective\": …}, not " + p.getText());
            }
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            throw new InputException(source + (at == null ? "" : ":" + at.getLineNr()) + ": not valid JSON ("
                    + e.getOriginalMessage().lines().findFirst().orElse("") + ")", e);
        } catch (IOException e) {
            throw new InputException(source + ": cannot read (" + e.getMessage() + ")", e);
        }
        if (rows.isEmpty()) {
            throw new InputException(source + ": no rows");
        }
        return rows;
    }

    private static int line(JsonParser p) {
        return p.currentTokenLocation().getLineNr();
    }

    private static Map<String, String> fields(JsonNode o, String where) {
        Map<String, String> row = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String k = e.getKey().toLowerCase(Locale.ROOT);
            if (!COLUMNS.contains(k)) {
                throw new InputException(where + ": unknown field '" + e.getKey() + "'; the fields are " + KNOWN);
            }
            if (row.containsKey(k)) {
                throw new InputException(where + ": field '" + k + "' appears twice");
            }
            JsonNode v = e.getValue();
            if (!v.isValueNode()) {
                throw new InputException(where + ": field '" + k + "' is " + v.getNodeType().name().toLowerCase(Locale.ROOT)
                        + ", give a number or a string");
            }
            row.put(k, v.isNull() ? "" : v.asText());
        }
        return row;
    }

    /** One measurement from its cells (empty: not given); every complaint names the row. */
    private static SuspectRow row(Map<String, String> cells, String where) {
        String collective = required(cells, "collective", where);
        String dtype = required(cells, "dtype", where);
        Collective c;
        DataType t;
        try {
            c = Collective.parse(collective);
            t = DataType.parse(dtype);
        } catch (InputException e) {
            throw new InputException(where + ": " + e.getMessage(), e);
        }
        long ranks = whole(required(cells, "ranks", where), "ranks", where);
        if (ranks < 2 || ranks > Integer.MAX_VALUE) {
            throw new InputException(where + ": ranks " + ranks + ": bus bandwidth needs 2 or more ranks (it is 0 by definition on one)");
        }
        long count = size(cells, c, t, (int) ranks, where);
        long bytes = c.sizingUntrimmed(count, t.size(), (int) ranks).sizeBytes();
        Fact<Double> time = number(cells, "time_us", where);
        Fact<Double> busBw = number(cells, "busbw", where);
        Fact<Double> algBw = number(cells, "algbw", where);
        if (time.isValue() && time.get() <= 0) {
            throw new InputException(where + ": time_us " + time.get() + ": a time is above 0");
        }
        if (!busBw.isValue()) {
            busBw = time.isValue() ? Fact.of(SuspectRow.busBwFromTime(c, bytes, (int) ranks, time.get()))
                    : algBw.map(a -> a * c.busBwFactor((int) ranks));
        }
        if (!busBw.isValue()) {
            throw new InputException(where + ": no busbw, time_us or algbw: give one of them");
        }
        return new SuspectRow(c.name(), t.ncclTestsName(), count, bytes, (int) ranks, busBw, time, where);
    }

    /**
     * The count from the count or bytes cell (bytes: a whole number of elements). With both, the bytes are the count's
     * (count × element size) or what its untrimmed split moves.
     */
    private static long size(Map<String, String> cells, Collective c, DataType t, int ranks, String where) {
        String countCell = cells.getOrDefault("count", "");
        String bytesCell = cells.getOrDefault("bytes", "");
        if (countCell.isEmpty() && bytesCell.isEmpty()) {
            throw new InputException(where + ": no count or bytes: give the buffer's elements (count) or its size (bytes)");
        }
        Long bytes = bytesCell.isEmpty() ? null : whole(bytesCell, "bytes", where);
        if (bytes != null && bytes % t.size() != 0) {
            throw new InputException(where + ": bytes " + bytes + " is no whole number of " + t.ncclTestsName() + " elements ("
                    + t.size() + " bytes each)");
        }
        long count = countCell.isEmpty() ? bytes / t.size() : whole(countCell, "count", where);
        Sizing s = c.sizingUntrimmed(count, t.size(), ranks);
        if (count < 1 || s.sizeBytes() < 1) {
            throw new InputException(where + ": count " + count + " over " + ranks + " ranks leaves no element to move");
        }
        if (bytes != null && bytes != count * t.size() && bytes != s.sizeBytes()) {
            throw new InputException(where + ": bytes " + bytes + " does not match count " + count + " of " + t.ncclTestsName() + " ("
                    + count * t.size() + " bytes; " + s.sizeBytes() + " moved when split over " + ranks + " ranks)");
        }
        return count;
    }

    private static String required(Map<String, String> cells, String column, String where) {
        String v = cells.getOrDefault(column, "");
        if (v.isEmpty()) {
            throw new InputException(where + ": no " + column + " (the columns are " + KNOWN + ")");
        }
        return v;
    }

    private static long whole(String v, String column, String where) {
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new InputException(where + ": " + column + " '" + v + "': give a whole number");
        }
    }

    private static Fact<Double> number(Map<String, String> cells, String column, String where) {
        String v = cells.getOrDefault(column, "");
        if (v.isEmpty()) {
            return Fact.absent("no " + column);
        }
        double d = DECIMAL.matcher(v).matches() ? Double.parseDouble(v) : Double.NaN;
        if (!Double.isFinite(d)) { // 1e999 matches the pattern and is no measurement
            throw new InputException(where + ": " + column + " '" + v + "': give a number 0 or more, with a decimal point and no unit");
        }
        return Fact.of(d);
    }
}
