package io.nccldoctor.collectives.parse;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.collectives.coll.DataType;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * rccl-tests' own result file, {@code -x/--output_file FILE -Z/--output_format json} (class Reporter in src/common.cu,
 * first in ROCm/rccl-tests PR #93, 2024-10), read into the same {@link NcclTestsOutput} as the text. It is not the
 * {@code -J FILE.json} file rccl-tests took over from nccl-tests 2.17 (jsonOutputInit), which {@link NcclTestsJson}
 * reads. The Reporter writes one object per placement and size, by three writers so far:
 * <ul>
 * <li>PR #93: one object per line, keys sorted and no blanks, {@code "#wrong":"0"} (the form of the PR's description);
 * <li>later: one object per line in the writer's order, {@code ", "} between pairs, {@code "wrong":"0"};
 * <li>current: the same objects as one array ({@code [} and {@code ]} on their own lines, {@code },} between objects),
 * written at the end of the run (Reporter::writeFile), each led by {@code "numCycle"} (the stress cycle, -s).</ul>
 * Each object: {@code name} (the collective, e.g. "AllReduce"), {@code gpus} (GPUs per process) or, built with MPI,
 * {@code nodes ranks ranksPerNode gpusPerRank}, {@code size} (bytes: max of send and receive, the text's size
 * column), {@code type}, {@code redop}, {@code inPlace} 0 or 1, {@code time} (microseconds), {@code algBw},
 * {@code busBw} (GB/s), and the wrong-element count as a string, "N/A" when not checked. Numbers are
 * {@code std::to_string}, so a NaN is the bare, invalid token {@code nan} or {@code -nan}. The file holds no version,
 * no device lines, no root, no element count and no footer.
 */
final class RcclTestsReporterJson {

    /** std::to_string of a NaN or an infinity: a bare token where a value belongs. */
    private static final Pattern BARE = Pattern.compile("(?<=:)\\s*(-?(?:nan|inf))(?=\\s*[,}])");
    /** Reporter names (collTest->name of each src/*.cu) to the binary nccl-tests and rccl-tests name a run by. */
    private static final Map<String, String> BINARIES = Map.of("AllReduce", "all_reduce_perf", "AllGather", "all_gather_perf",
            "AlltoAll", "alltoall_perf", "AlltoAllv", "alltoallv_perf", "Broadcast", "broadcast_perf", "Reduce", "reduce_perf",
            "ReduceScatter", "reduce_scatter_perf", "SendRecv", "sendrecv_perf", "Gather", "gather_perf", "Scatter", "scatter_perf");
    /**
     * Collectives whose send, receive and parameter counts all equal the element count (AllReduce, Broadcast and Reduce
     * GetCollByteCount in src/all_reduce.cu, broadcast.cu, reduce.cu): their size is count × element size. Every other
     * collective scales one of them by the ranks, which the file does not always give, so its count is not derived.
     */
    private static final Set<String> SIZE_IS_COUNT = Set.of("AllReduce", "Broadcast", "Reduce");
    private static final List<String> REQUIRED = List.of("name", "size", "type", "inPlace", "time", "algBw", "busBw");

    private RcclTestsReporterJson() {
    }

    /** True for the Reporter's file: an array's opening line, or a first object with name, inPlace and busBw. */
    static boolean looksLike(String text) {
        String first = text.strip().lines().findFirst().orElse("").strip();
        return first.equals("[") || first.startsWith("{") && first.contains("\"inPlace\":") && first.contains("\"busBw\":")
                && first.contains("\"name\":");
    }

    private record Entry(JsonNode node, int line) {
    }

    /** The two placements of one size in one cycle, as the text prints them on one row. */
    private static final class Pair {
        Entry out;
        Entry in;
    }

    static NcclTestsOutput parse(String text, String source) {
        List<String> lines = text.lines().toList();
        List<String> skipped = new ArrayList<>();
        Map<String, List<Pair>> groups = new LinkedHashMap<>();
        List<Pair> order = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            JsonNode o = object(lines.get(i), source + ":" + (i + 1), skipped);
            if (o == null) {
                continue;
            }
            String key = o.path("numCycle").asText("") + "|" + o.path("name").asText() + "|" + o.path("type").asText() + "|"
                    + o.path("redop").asText() + "|" + o.path("size").asLong();
            List<Pair> same = groups.computeIfAbsent(key, k -> new ArrayList<>());
            boolean inPlace = o.path("inPlace").asInt() == 1;
            Pair p = same.isEmpty() ? null : same.get(same.size() - 1);
            if (p == null || (inPlace ? p.in != null : p.out != null || p.in != null)) {
                p = new Pair(); // the same size again: a further run or cycle the file does not number
                same.add(p);
                order.add(p);
            }
            if (inPlace) {
                p.in = new Entry(o, i + 1);
            } else {
                p.out = new Entry(o, i + 1);
            }
        }
        if (order.isEmpty()) {
            throw new InputException(source + ": rccl-tests --output_file JSON without one readable result object"
                    + (skipped.isEmpty() ? "" : " (" + skipped.get(0) + ")") + "; give the file the run wrote, unedited, or its text output");
        }
        List<NcclTestsOutput.Row> rows = new ArrayList<>();
        for (Pair p : order) {
            row(p, source, rows, skipped);
        }
        List<JsonNode> all = order.stream().flatMap(p -> Stream.of(p.out, p.in)).filter(e -> e != null)
                .map(Entry::node).toList();
        return new NcclTestsOutput(Fact.absent("the rccl-tests --output_file JSON does not record the rccl-tests version"),
                Fact.absent("the rccl-tests --output_file JSON does not record the RCCL headers"),
                Fact.absent("the rccl-tests --output_file JSON does not record the RCCL library version"), test(all), List.of(), false,
                rows, Fact.absent("the rccl-tests --output_file JSON has no footer"),
                Fact.absent("the rccl-tests --output_file JSON has no footer"),
                Fact.absent("the rccl-tests --output_file JSON has no footer (average bus bandwidth)"),
                Fact.absent("the rccl-tests --output_file JSON has no footer"), 0, skipped, List.of(),
                Fact.absent("the rccl-tests --output_file JSON does not record the command line"), List.of(), notes(all), List.of(),
                "rccl-tests");
    }

    /** One line as an object, or null when it is the array's bracket, blank, or (listed) not a whole object. */
    private static JsonNode object(String raw, String where, List<String> skipped) {
        String s = raw.strip();
        if (s.startsWith("[")) {
            s = s.substring(1).strip();
        }
        if (s.endsWith("]")) {
            s = s.substring(0, s.length() - 1).strip();
        }
        if (s.endsWith(",")) {
            s = s.substring(0, s.length() - 1).strip();
        }
        if (s.isEmpty()) {
            return null;
        }
        String shown = s.length() > 80 ? s.substring(0, 77) + "..." : s;
        JsonNode o;
        try {
            o = Json.mapper().readTree(BARE.matcher(s).replaceAll("\"$1\""));
        } catch (JsonProcessingException e) {
            skipped.add(where + ": not a whole JSON object (the line is cut?): " + shown);
            return null;
        }
        if (o == null || !o.isObject()) {
            skipped.add(where + ": not a JSON object: " + shown);
            return null;
        }
        List<String> missing = REQUIRED.stream().filter(k -> !o.has(k)).toList();
        if (!missing.isEmpty()) {
            skipped.add(where + ": no " + String.join(", ", missing) + " in the object: " + shown);
            return null;
        }
        if (!o.get("size").canConvertToLong() || !o.get("size").isIntegralNumber()) {
            skipped.add(where + ": 'size' is not a whole number: " + shown);
            return null;
        }
        return o;
    }

    private static void row(Pair p, String source, List<NcclTestsOutput.Row> rows, List<String> skipped) {
        Entry any = p.out != null ? p.out : p.in;
        JsonNode o = any.node();
        String label = source + ":" + any.line() + ": " + o.path("name").asText() + " " + o.path("type").asText() + " size "
                + o.path("size").asLong();
        if (p.out == null) {
            skipped.add(label + ": only its in-place measurement (-O 0 measures in place only); a row is read from its "
                    + "out-of-place measurement, so this one is not read");
            return;
        }
        String problem = placementProblem(p.out.node());
        if (problem != null) {
            skipped.add(label + ": out-of-place " + problem);
            return;
        }
        Fact<NcclTestsOutput.Placement> in;
        if (p.in == null) {
            in = Fact.absent("no in-place object for this size in the file");
        } else {
            String inProblem = placementProblem(p.in.node());
            in = inProblem == null ? Fact.of(placement(p.in.node())) : Fact.error("in-place " + inProblem);
        }
        String redop = o.path("redop").asText("").strip();
        rows.add(new NcclTestsOutput.Row(o.get("size").asLong(), count(o), o.path("type").asText(""),
                redop.isEmpty() ? Fact.absent("no redop") : Fact.of(redop),
                Fact.absent("the rccl-tests --output_file JSON does not record the root"), placement(p.out.node()), in));
    }

    /**
     * The element count the text prints: size / element size where the collective's size is count × element size;
     * -1 where the file cannot give it (a collective that scales by the ranks, an unknown type), said in the notes.
     */
    private static long count(JsonNode o) {
        if (!SIZE_IS_COUNT.contains(o.path("name").asText())) {
            return -1;
        }
        try {
            return o.get("size").asLong() / DataType.parse(o.path("type").asText()).size();
        } catch (InputException e) {
            return -1;
        }
    }

    private static String placementProblem(JsonNode o) {
        for (String k : List.of("time", "algBw", "busBw")) {
            JsonNode n = o.get(k);
            if (n == null || !n.isNumber() || !Double.isFinite(n.asDouble())) {
                return "'" + k + "' is no finite number: " + n;
            }
        }
        return null;
    }

    private static NcclTestsOutput.Placement placement(JsonNode o) {
        return new NcclTestsOutput.Placement(o.get("time").asDouble(), o.get("algBw").asDouble(), o.get("busBw").asDouble(),
                wrong(o.has("#wrong") ? o.get("#wrong") : o.get("wrong")),
                Fact.absent("the rccl-tests --output_file JSON records the wrong-element count only"),
                Fact.absent("the rccl-tests --output_file JSON records no per-iteration times"), false);
    }

    /** The wrong-element count: a string of digits, or "N/A" when the run did not check (-c 0). */
    private static Fact<Long> wrong(JsonNode n) {
        if (n == null || n.isNull()) {
            return Fact.absent("no wrong-element count in the object");
        }
        String s = n.asText().strip();
        if (s.equals("N/A")) {
            return Fact.absent("not checked: the file writes N/A (data checking off, -c 0)");
        }
        return s.matches("\\d{1,18}") ? Fact.of(Long.parseLong(s)) : Fact.error("unreadable wrong-element count " + n);
    }

    /** The binary of the one collective the file holds (its "name"), as the text's "# Collective test starting" gives it. */
    private static Fact<String> test(List<JsonNode> all) {
        Set<String> names = new LinkedHashSet<>();
        all.forEach(o -> names.add(o.path("name").asText()));
        if (names.size() != 1) {
            return Fact.absent("the file holds several collectives: " + String.join(", ", names));
        }
        String name = names.iterator().next();
        String binary = BINARIES.get(name);
        return binary == null ? Fact.absent("the file names the collective '" + name + "', which no known binary runs") : Fact.of(binary);
    }

    /** What the file holds that the model has no field for, said rather than dropped. */
    private static List<String> notes(List<JsonNode> all) {
        List<String> notes = new ArrayList<>();
        notes.add("rccl-tests --output_file JSON (Reporter): one object per placement and size, read as the text's rows");
        TreeSet<Long> cycles = new TreeSet<>();
        all.forEach(o -> {
            if (o.has("numCycle")) {
                cycles.add(o.get("numCycle").asLong());
            }
        });
        if (cycles.size() > 1) {
            notes.add("numCycle " + cycles.first() + " to " + cycles.last() + " (-s stress cycles): the cycles' rows follow one "
                    + "another in one table, as the text prints them after '# Testing N cycle.'");
        }
        Set<String> shape = new LinkedHashSet<>();
        for (JsonNode o : all) {
            if (o.has("ranks")) {
                shape.add(o.path("nodes").asText("?") + " node(s), " + o.path("ranks").asText("?") + " process(es), "
                        + o.path("ranksPerNode").asText("?") + " per node, " + o.path("gpusPerRank").asText("?") + " GPU(s) per process");
            } else if (o.has("gpus")) {
                shape.add(o.path("gpus").asText("?") + " GPU(s) in the process (built without MPI)");
            }
        }
        shape.forEach(x -> notes.add("the file's own run shape: " + x + "; the rank count is not taken from it (no device lines)"));
        if (all.stream().anyMatch(o -> !SIZE_IS_COUNT.contains(o.path("name").asText()))) {
            notes.add("count -1: the file gives the size only, and for this collective the element count depends on the ranks");
        }
        return notes;
    }
}
