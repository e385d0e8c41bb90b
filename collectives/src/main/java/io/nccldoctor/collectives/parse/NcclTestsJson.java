package io.nccldoctor.collectives.parse;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import io.nccldoctor.core.libs.NativeCalls;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The file nccl-tests (v2.17.3+) writes with {@code -J FILE.json} / {@code --output_file}, read into the same
 * {@link NcclTestsOutput} as the text output. Its writer (src/util.cu) prints one line without whitespace:
 * {@code version} (file format 1, 2 or 3; format 3 moves {@code devices} to the top level), {@code start_time}, {@code args}, {@code env}, {@code nccl_version} (the
 * library code, e.g. 22703), {@code config} with {@code devices}, {@code results} (one object per size with
 * {@code size count type redop root}, {@code out_of_place} and {@code in_place} each holding
 * {@code time|cpu_time alg_bw bus_bw nwrong}), {@code out_of_bounds {count okay}},
 * {@code average_bus_bandwidth {bandwidth okay}}, {@code errors} and {@code end_time}. Doubles are
 * {@code printf("%lf")}, so NaN is the string {@code "nan"} and infinity the bare, invalid token {@code inf};
 * booleans are the strings {@code "true"}/{@code "false"}; root is {@code "%6i"}, e.g. {@code "    -1"};
 * {@code nwrong} is a double, or null without validation. The file names neither the nccl-tests version nor the
 * NCCL headers, and a non-MPI run with {@code -g N} lists only its first device.
 */
public final class NcclTestsJson {

    /** {@code %lf} of an infinite double: a bare {@code inf} or {@code -inf} where a value belongs. */
    private static final Pattern BARE_INF = Pattern.compile("(?<=[:,\\[])(-?inf)(?=[,}\\]])");
    private static final Pattern KEPT_ENV = Pattern.compile("(?:NCCL|CUDA|UCX|FI)_\\w*|LD_LIBRARY_PATH|LD_PRELOAD");
    /**
     * A device named as an AMD GPU: rccl-tests (since its nccl-tests 2.17 merge, src/common.cu's jsonOutputInit) writes
     * this same -J file, and nccl-tests runs on CUDA devices only.
     */
    private static final Pattern AMD_GPU = Pattern.compile("\\] (?:AMD Instinct|AMD Radeon|Radeon)\\b");
    private static final String HINT = "give the file a *_perf binary wrote with -J FILE.json, unedited";

    private NcclTestsJson() {
    }

    /**
     * Why a JSON text of another benchmark's writer is not read, or "". rccl-tests' --output_file JSON (its Reporter) is
     * read, not refused: see {@link RcclTestsReporterJson}.
     */
    public static String otherFormat(String text) {
        return "";
    }

    /**
     * True when the first non-blank character is '{', as in every -J file and never in the text output, or when the
     * text is rccl-tests' --output_file JSON array ('[' on its own line).
     */
    public static boolean looksLikeJson(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '\uFEFF' && !Character.isWhitespace(c)) {
                return c == '{' || c == '[' && RcclTestsReporterJson.looksLike(text);
            }
        }
        return false;
    }

    /**
     * Reads one -J file. Values the file does not hold (nccl-tests version, NCCL headers, and the footer of a run
     * that stopped early) are absent with the reason; rows that cannot be read go to notUnderstood.
     *
     * @throws InputException one line, when the text is not JSON or not nccl-tests' structure
     */
    public static NcclTestsOutput parse(String json, String source) {
        if (RcclTestsReporterJson.looksLike(json.replace("\uFEFF", ""))) {
            return RcclTestsReporterJson.parse(json.replace("\uFEFF", ""), source);
        }
        JsonNode root = read(json, source);
        JsonNode results = root.get("results");
        JsonNode config = root.get("config");
        JsonNode version = root.get("nccl_version");
        boolean hasResults = results != null && results.isArray();
        boolean hasConfig = config != null && config.isObject();
        boolean hasVersion = version != null && version.isIntegralNumber();
        if (!hasResults && !(hasConfig && hasVersion)) {
            List<String> missing = new ArrayList<>();
            missing.add(results == null ? "no 'results' list" : "'results' is not a list");
            if (!hasConfig) {
                missing.add("no 'config' object");
            }
            if (!hasVersion) {
                missing.add("no 'nccl_version' number");
            }
            throw new InputException(source + ": not nccl-tests -J JSON (" + String.join(", ", missing) + ")" + otherFormat(json) + "; " + HINT);
        }

        JsonNode format = root.get("version");
        String formatNote = format != null && format.isIntegralNumber() ? " (only its file format version " + format.asInt() + ")" : "";
        Fact<String> testsVersion = Fact.absent("the -J file does not record the nccl-tests version" + formatNote);
        Fact<String> headers = Fact.absent("the -J file records only the NCCL library version, not the headers nccl-tests was built with");
        Fact<String> library = version == null ? Fact.absent("no 'nccl_version' in the -J file")
                : hasVersion ? Fact.of(NativeCalls.ncclVersion(version.asInt()))
                : Fact.error("unreadable 'nccl_version' " + version);
        Fact<String> test = test(root.get("args"));
        // formats 1 and 2 list the devices inside config; format 3 (nccl-internals §2.2) at the top level
        List<String> devices = devices(hasConfig && config.has("devices") ? config.get("devices") : root.get("devices"));

        List<NcclTestsOutput.Row> rows = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        Fact<Integer> validation = hasConfig ? integer(config, "validation") : Fact.absent("no 'config' object");
        String binary = test.orElse("");
        if (hasResults) {
            for (int i = 0; i < results.size(); i++) {
                String problem = row(results.get(i), rows, validation, binary);
                if (problem != null) {
                    skipped.add(source + ": results[" + i + "]: " + problem);
                }
            }
        }

        String noFooter = hasResults ? " (the run stopped before its footer)" : "";
        JsonNode oobNode = root.path("out_of_bounds");
        JsonNode oobCount = oobNode.get("count");
        Fact<Long> oob = oobCount == null ? Fact.absent("no 'out_of_bounds' count" + noFooter)
                : oobCount.isIntegralNumber() ? Fact.of(oobCount.asLong())
                : Fact.error("unreadable out_of_bounds count " + oobCount);
        Fact<Boolean> oobOk = bool(oobNode.get("okay"), "no 'out_of_bounds' okay" + noFooter);
        JsonNode avgNode = root.path("average_bus_bandwidth").get("bandwidth");
        Fact<Double> avg = avgNode == null ? Fact.absent("no 'average_bus_bandwidth'" + noFooter)
                : number(avgNode).map(Fact::of).orElse(Fact.error("unreadable average " + avgNode));
        JsonNode avgOkNode = root.path("average_bus_bandwidth").get("okay");
        Fact<Boolean> avgOk = avgOkNode != null && avgOkNode.asText().equals("unchecked")
                ? Fact.absent("NCCL_TESTS_MIN_BW was not set (okay: unchecked)")
                : bool(avgOkNode, "no 'average_bus_bandwidth' okay" + noFooter);
        Fact<NcclTestsParameters> parameters = hasConfig ? Fact.of(parameters(config)) : Fact.absent("no 'config' object");
        List<String> errors = new ArrayList<>();
        root.path("errors").forEach(e -> {
            if (e.isTextual() && !e.asText().isBlank()) {
                errors.add(e.asText().strip());
            }
        });
        return new NcclTestsOutput(testsVersion, headers, library, test, devices, false, rows, oob, oobOk, avg, avgOk, 0, skipped,
                parameters.isValue() ? List.of(parameters.get()) : List.of(), command(root), List.of(), List.of(), errors,
                devices.stream().anyMatch(d -> AMD_GPU.matcher(d).find()) ? "rccl-tests" : "nccl-tests");
    }

    /** The run parameters the text prints in its "# nThread" line, from the file's config object. */
    private static NcclTestsParameters parameters(JsonNode config) {
        boolean factor = config.has("step_factor");
        List<String> modes = new ArrayList<>();
        if (bool(config.get("blocking_collectives"), "").orElse(false)) {
            modes.add("Blocking Enabled (blocking_collectives: true)");
        }
        if (bool(config.get("per_iter_timing"), "").orElse(false)) {
            modes.add("Per-Iteration Report (per_iter_timing: true, per_iter_skip: " + config.path("per_iter_skip").asInt(0) + ")");
        }
        if (bool(config.get("parallel_init"), "").orElse(false)) {
            modes.add("Parallel Init Enabled (parallel_init: true)");
        }
        return new NcclTestsParameters(integer(config, "nthreads"), integer(config, "ngpus"), whole(config, "minimum_bytes"),
                whole(config, "maximum_bytes"), whole(config, factor ? "step_factor" : "step_bytes"),
                config.has("step_factor") || config.has("step_bytes") ? Fact.of(factor ? "factor" : "bytes") : Fact.absent("no step"),
                integer(config, "warmup_iters"), integer(config, "iterations"), integer(config, "aggregated_iterations"),
                integer(config, "validation"), integer(config, "graph"), Fact.absent("the -J file does not record unalign"), Map.of(),
                modes);
    }

    private static Fact<Long> whole(JsonNode config, String key) {
        JsonNode n = config.get(key);
        return n == null ? Fact.absent("no '" + key + "' in config") : n.isIntegralNumber() && n.canConvertToLong() ? Fact.of(n.asLong())
                : Fact.error("unreadable '" + key + "' " + n);
    }

    private static Fact<Integer> integer(JsonNode config, String key) {
        JsonNode n = config.get(key);
        return n == null ? Fact.absent("no '" + key + "' in config") : n.isIntegralNumber() && n.canConvertToInt() ? Fact.of(n.asInt())
                : Fact.error("unreadable '" + key + "' " + n);
    }

    /**
     * The binary's argv and the environment the file records. The file holds the whole process environment; only the
     * variables that steer NCCL and its transports are kept (NCCL_*, CUDA_*, UCX_*, FI_*, LD_LIBRARY_PATH, LD_PRELOAD),
     * so that nothing unrelated (tokens, paths of the user's shell) is copied into a report.
     */
    private static Fact<NcclTestsCommand> command(JsonNode root) {
        JsonNode args = root.get("args");
        if (args == null || !args.isArray() || args.isEmpty()) {
            return Fact.absent("no 'args' in the -J file");
        }
        List<String> argv = new ArrayList<>();
        args.forEach(a -> argv.add(a.asText()));
        Map<String, String> env = new LinkedHashMap<>();
        root.path("env").forEach(e -> {
            String s = e.asText();
            int eq = s.indexOf('=');
            if (eq > 0 && KEPT_ENV.matcher(s.substring(0, eq)).matches()) {
                env.put(s.substring(0, eq), s.substring(eq + 1));
            }
        });
        String program = argv.get(0);
        String binary = program.substring(program.lastIndexOf('/') + 1);
        return Fact.of(new NcclTestsCommand(String.join(" ", argv), Fact.absent("the -J file records the binary's argv, not its launcher"),
                env, List.of(), Fact.of(program), Fact.of(binary), NcclTestsCommand.flags(argv.subList(1, argv.size()))));
    }

    private static JsonNode read(String json, String source) {
        String why;
        try {
            JsonNode root = Json.mapper().readTree(BARE_INF.matcher(json).replaceAll("\"$1\""));
            if (root != null && root.isObject()) {
                return root;
            }
            why = root == null || root.isMissingNode() ? "the text is empty" : "the top level is not an object";
        } catch (JsonEOFException e) {
            why = "the text ends early" + at(e) + ": was the run killed before it closed the file?";
        } catch (JsonProcessingException e) {
            String message = e.getOriginalMessage() == null ? e.getClass().getSimpleName() : e.getOriginalMessage();
            message = message.lines().findFirst().orElse("").strip();
            if (message.length() > 120) {
                message = message.substring(0, 117) + "...";
            }
            why = (looksLikeJson(json) ? "not valid JSON: " : "not JSON, it does not start with '{' (text output?): ") + message + at(e);
        }
        throw new InputException(source + ": not nccl-tests -J JSON (" + why + "); " + HINT);
    }

    private static String at(JsonProcessingException e) {
        return e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
    }

    /** The binary's short name from args[0], which the text output prints as "Collective test starting". */
    private static Fact<String> test(JsonNode args) {
        if (args == null || !args.isArray() || args.isEmpty() || !args.get(0).isTextual() || args.get(0).asText().isBlank()) {
            return Fact.absent("no 'args' in the -J file to name the test binary");
        }
        String path = args.get(0).asText();
        return Fact.of(path.substring(path.lastIndexOf('/') + 1));
    }

    /** Each device in the text output's own form: "Rank  0 Group  0 Pid  41237 on node-a01 device  0 [0000:18:00] NAME". */
    private static List<String> devices(JsonNode list) {
        List<String> out = new ArrayList<>();
        if (list == null || !list.isArray()) {
            return out;
        }
        for (JsonNode d : list) {
            out.add(String.format(Locale.ROOT, "Rank %2d Group %2d Pid %6d on %10s device %2d [%s] %s", d.path("rank").asInt(),
                    d.path("group").asInt(), d.path("pid").asInt(), d.path("hostname").asText("?"), d.path("device").asInt(),
                    d.path("device_hex").asText("?"), d.path("device_info").asText("")).strip());
        }
        return out;
    }

    /** Adds the row, or returns why it cannot be read. */
    private static String row(JsonNode r, List<NcclTestsOutput.Row> rows, Fact<Integer> validation, String binary) {
        if (r == null || !r.isObject()) {
            return "not an object: " + r;
        }
        JsonNode size = r.get("size");
        JsonNode count = r.get("count");
        if (size == null || !size.canConvertToLong() || !size.isIntegralNumber() || count == null || !count.isIntegralNumber()
                || !count.canConvertToLong()) {
            return "no integral 'size' and 'count': " + r;
        }
        String label = "size " + size.asLong();
        JsonNode oopNode = r.get("out_of_place");
        if (oopNode == null || oopNode.isNull()) {
            return label + ": no out-of-place measurement" + (r.has("actual_iterations") ? " (null)"
                    : " (the row is incomplete: the run stopped during this size)");
        }
        Measured out = placement(oopNode, r.get("out_of_place_per_iter"), NcclTestsReader.notChecked(validation, null, binary, 0, false));
        if (out.problem != null) {
            return label + ": out-of-place " + out.problem;
        }
        JsonNode ipNode = r.get("in_place");
        Fact<NcclTestsOutput.Placement> in;
        if (ipNode == null || ipNode.isNull()) {
            in = Fact.absent("no in-place measurement");
        } else {
            Measured p = placement(ipNode, r.get("in_place_per_iter"),
                    NcclTestsReader.notChecked(validation, null, binary, 1, out.value.wrong().isValue()));
            in = p.problem == null ? Fact.of(p.value) : Fact.error("in-place " + p.problem);
        }
        String redop = r.path("redop").asText("");
        Fact<String> redopFact = redop.isBlank() ? Fact.absent("no redop (this collective reduces nothing)") : Fact.of(redop.strip());
        Fact<Integer> root = root(r.get("root"));
        rows.add(new NcclTestsOutput.Row(size.asLong(), count.asLong(), r.path("type").asText(""), redopFact, root, out.value, in));
        return null;
    }

    private static Fact<Integer> root(JsonNode node) {
        if (node == null || node.isNull()) {
            return Fact.absent("no root");
        }
        if (node.isIntegralNumber()) { // a rank is an int in nccl-tests; a number past that range is no rank, never wrapped
            return node.canConvertToInt() ? Fact.of(node.asInt()) : Fact.error("root " + node.asText() + " is no rank (out of range)");
        }
        String s = node.asText().strip();
        if (s.matches("-?\\d{1,10}") && Long.parseLong(s) == (int) Long.parseLong(s)) {
            return Fact.of(Integer.parseInt(s));
        }
        return s.isEmpty() ? Fact.absent("no root") : Fact.error("unreadable root '" + s + "'");
    }

    private record Measured(NcclTestsOutput.Placement value, String problem) {
    }

    private static Measured placement(JsonNode p, JsonNode perIter, String nullReason) {
        if (!p.isObject()) {
            return new Measured(null, "is not an object: " + p);
        }
        JsonNode timeNode = p.has("time") ? p.get("time") : p.get("cpu_time");
        Fact<Double> time = number(timeNode);
        Fact<Double> alg = number(p.get("alg_bw"));
        Fact<Double> bus = number(p.get("bus_bw"));
        if (!time.isValue() || !alg.isValue() || !bus.isValue()) {
            return new Measured(null, "unreadable time/alg_bw/bus_bw: " + p);
        }
        JsonNode nwrong = p.get("nwrong");
        Fact<Long> wrong;
        if (nwrong == null) {
            wrong = Fact.absent("no 'nwrong'");
        } else if (nwrong.isNull()) {
            wrong = Fact.absent(nullReason);
        } else if (nwrong.isNumber() && Double.isFinite(nwrong.asDouble()) && nwrong.asDouble() >= 0) {
            wrong = Fact.of(Math.round(nwrong.asDouble()));
        } else {
            wrong = Fact.error("unreadable nwrong " + nwrong);
        }
        Fact<Double> error = Fact.absent("the #wrong layout counts wrong elements instead");
        return new Measured(new NcclTestsOutput.Placement(time.get(), alg.get(), bus.get(), wrong, error, perIteration(perIter), false), null);
    }

    /** The *_per_iter object -I adds (file format 2+): min_us, max_us, p99_us, cv_pct among others. */
    private static Fact<NcclTestsOutput.PerIteration> perIteration(JsonNode p) {
        if (p == null || p.isNull()) {
            return Fact.absent("no per-iteration object (-I 0)");
        }
        List<Fact<Double>> v = List.of(number(p.get("min_us")), number(p.get("max_us")), number(p.get("p99_us")), number(p.get("cv_pct")));
        if (v.stream().anyMatch(f -> !f.isValue())) {
            return Fact.error("unreadable per-iteration object " + p);
        }
        return Fact.of(new NcclTestsOutput.PerIteration(v.get(0).get(), v.get(1).get(), v.get(2).get(), v.get(3).get()));
    }

    /** A finite number; the writer's "nan" and bare "inf" are unreadable, as in the text parser. */
    private static Fact<Double> number(JsonNode n) {
        if (n == null || n.isNull()) {
            return Fact.absent("missing");
        }
        if (n.isNumber() && Double.isFinite(n.asDouble())) {
            return Fact.of(n.asDouble());
        }
        return Fact.absent("not a number: " + n);
    }

    private static Fact<Boolean> bool(JsonNode n, String reasonIfMissing) {
        if (n == null || n.isNull()) {
            return Fact.absent(reasonIfMissing);
        }
        if (n.isBoolean()) {
            return Fact.of(n.asBoolean());
        }
        String s = n.asText();
        if (s.equals("true") || s.equals("false")) {
            return Fact.of(s.equals("true"));
        }
        return Fact.error("unreadable okay " + n);
    }
}
