package io.nccldoctor.reports.results;

import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.collectives.parse.NcclLogSet;
import io.nccldoctor.collectives.parse.NcclTestsJson;
import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.PerftestMatrix;
import io.nccldoctor.gdr.PerftestMatrixProbe;
import io.nccldoctor.gdr.PerftestOutput;
import io.nccldoctor.reports.inputs.ReportInput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the inputs of `nccl-doctor report`: nccl-tests text or -J output, `nccl-doctor run --json` output, the JSONL
 * results of `nccl-doctor sweep`, node
 * snapshots (capture folders, replayed; or the JSON of preflight, topo or gdr), and bundles (a folder with report.yaml that names all of these, with
 * labels, environments, a perftest matrix, extra ceilings and per-link traffic). Ceilings are computed from the node
 * snapshots.
 */
public final class ResultInputs {

    /** nccl-tests binary name to collective. */
    private static final Map<String, String> COLLECTIVES = Map.of("all_reduce_perf", "allreduce", "all_gather_perf", "allgather",
            "alltoall_perf", "alltoall", "reduce_scatter_perf", "reducescatter", "broadcast_perf", "broadcast", "reduce_perf", "reduce",
            "sendrecv_perf", "sendrecv");
    private static final Pattern HOST = Pattern.compile("\\bon\\s+(\\S+)\\s+device\\b");

    /** report.yaml. */
    public record Bundle(String title, Boolean example, List<String> nodes, List<SweepEntry> sweeps, List<PerftestEntry> perftest,
                         List<CeilingEntry> ceilings, List<TrafficEntry> traffic, List<String> logs) {
    }

    public record SweepEntry(String file, String label, Map<String, String> env, Integer nodes) {
    }

    /** One cell of the NIC-read / NIC-write matrix: a perftest output file, or why it gave none. */
    public record PerftestEntry(String node, int gpu, String gpuBusId, String hca, String direction, String file, String failed) {
    }

    public record CeilingEntry(String label, double busBwGBps, String link, String why) {
    }

    public record TrafficEntry(String label, String source, Map<String, Long> txBytes) {
    }

    private final Function<Path, Snapshot> captures;
    private final List<Snapshot> nodes = new ArrayList<>();
    private final List<Sweep> sweeps = new ArrayList<>();
    private final List<Ceiling> given = new ArrayList<>();
    private final List<PortTraffic> traffic = new ArrayList<>();
    private final Map<String, NcclLog> ncclLogs = new LinkedHashMap<>();
    private final List<String> inputs = new ArrayList<>();
    private String title;
    private boolean example;

    /** @param captures replays a capture folder into a snapshot (the CLI's probes over the capture's host) */
    public ResultInputs(Function<Path, Snapshot> captures) {
        this.captures = captures;
    }

    /** Reads every input; an input that is none of the known kinds is an {@link InputException} naming it. */
    public ResultSet read(List<String> args, String createdAt) {
        for (String a : args) {
            inputs.add(a);
            add(Path.of(a), null, Map.of(), null);
        }
        List<Ceiling> ceilings = new ArrayList<>();
        nodes.forEach(n -> ceilings.addAll(NodeCeilings.of(n)));
        ceilings.addAll(given);
        String t = title != null ? title : "nccl-doctor report: " + String.join(", ", args.stream().map(x -> Path.of(x).getFileName()
                .toString()).toList());
        return new ResultSet(t, example, createdAt, inputs, nodes, numbered(sweeps), ceilings, traffic, ncclLogs);
    }

    /** Repeats: the n-th sweep with a label gets repeat n - 1. */
    private static List<Sweep> numbered(List<Sweep> in) {
        Map<String, Integer> seen = new LinkedHashMap<>();
        List<Sweep> out = new ArrayList<>();
        for (Sweep s : in) {
            int n = seen.merge(s.label(), 1, Integer::sum) - 1;
            out.add(s.withLabel(s.label(), n));
        }
        return out;
    }

    private void add(Path p, String label, Map<String, String> env, Integer nodeCount) {
        if (Files.isDirectory(p)) {
            if (Files.isRegularFile(p.resolve("report.yaml"))) {
                bundle(p);
            } else if (Files.isRegularFile(p.resolve("manifest.json"))) {
                nodes.add(captures.apply(p));
            } else {
                try {
                    ncclLogs.putAll(NcclLogSet.read(List.of(p)).logs());
                } catch (InputException e) {
                    throw new InputException(p + ": a folder that is neither a bundle (report.yaml), a capture (manifest.json) "
                            + "nor a folder of NCCL debug logs", e);
                }
            }
            return;
        }
        if (!Files.isRegularFile(p)) {
            throw new InputException(p + ": no such file or folder");
        }
        Optional<ReportInput> read = ReportInput.read(p); // every kind `parse` reads; empty for the JSON documents below
        if (read.isPresent()) {
            String sweep = label != null ? label : p.getFileName().toString().replaceFirst("\\.[A-Za-z0-9]+$", "");
            read.get().tests().ifPresent(t -> sweeps.add(fromTests(p, sweep, env, nodeCount, t, read.get().tool())));
            read.get().log().ifPresent(log -> ncclLogs.put(p.toString(), log));
            read.get().node().ifPresent(nodes::add);
            return;
        }
        String text;
        try {
            text = Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new InputException(p + ": cannot read (" + e.getMessage() + ")", e);
        }
        String name = label != null ? label : p.getFileName().toString().replaceFirst("\\.[A-Za-z0-9]+$", "");
        if (SweepResults.isSweepFile(text)) {
            sweeps.addAll(SweepResults.sweeps(p, null));
            return;
        }
        if (text.stripLeading().startsWith("{")) {
            JsonNode doc = readJson(p, text);
            runLogs(p, doc);
            if (doc.has("result") && doc.has("launch")) {
                sweeps.add(runResult(p, name, env, nodeCount, doc));
            } else if (doc.has("failure") && doc.has("launch")) {
                if (!doc.path("ncclLogs").isObject() || doc.get("ncclLogs").isEmpty()) {
                    throw new InputException(p + ": a `run --json` that failed (" + doc.get("failure").asText()
                            + ") and captured no NCCL log: nothing to report");
                }
            } else if (doc.has("reference") && doc.has("launch")) {
                JsonNode out = doc.at("/reference/output/value");
                if (out.isMissingNode()) {
                    throw new InputException(p + ": a `run --reference` result without nccl-tests output ("
                            + doc.at("/reference/output/absent").asText("no output") + ")");
                }
                sweeps.add(fromTests(p, name, env, nodeCount, Json.mapper().convertValue(out, NcclTestsOutput.class), "nccl-tests"));
            } else if (doc.has("snapshot") && doc.get("snapshot").has("sections")) {
                nodes.add(Json.mapper().convertValue(doc.get("snapshot"), Snapshot.class)); // preflight, topo or gdr --json
            } else if (doc.has("sections") && doc.has("hostName")) {
                nodes.add(Json.mapper().convertValue(doc, Snapshot.class));
            } else if (NcclTestsJson.looksLikeJson(text)) {
                sweeps.add(fromTests(p, name, env, nodeCount, NcclTestsJson.parse(text, p.toString()), "nccl-tests -J"));
            } else {
                throw new InputException(p + ": JSON that is none of nccl-tests -J output, `nccl-doctor run --json` output, or the "
                        + "--json of preflight, topo or gdr");
            }
            return;
        }
        NcclTestsOutput out;
        try {
            out = NcclTestsOutput.parse(text.lines().toList(), p.toString());
        } catch (InputException e) {
            Optional<NcclLog> log = NcclLog.parseIfNccl(p);
            if (log.isPresent()) {
                ncclLogs.put(p.toString(), log.get());
                return;
            }
            throw new InputException(p + ": not an input report knows (nccl-tests output, -J JSON, `run --json`, preflight/topo/gdr "
                    + "--json, an NCCL debug log, a capture folder or a bundle with report.yaml): " + e.getMessage(), e);
        }
        sweeps.add(fromTests(p, name, env, nodeCount, out, "nccl-tests"));
        if (out.ncclInfoLines() > 0) { // nccl-tests run with NCCL_DEBUG=INFO: its NCCL lines are a log of the same run
            NcclLog.parseIfNccl(p).ifPresent(log -> ncclLogs.put(p.toString(), log));
        }
    }

    private static JsonNode readJson(Path p, String text) {
        try {
            return Json.mapper().readTree(text);
        } catch (IOException e) {
            throw new InputException(p + ": not valid JSON (" + e.getMessage().lines().findFirst().orElse("") + ")", e);
        }
    }

    static Sweep fromTests(Path p, String label, Map<String, String> env, Integer nodeCount, NcclTestsOutput out, String tool) {
        Fact<String> collective = out.test().flatMap(t -> {
            String c = COLLECTIVES.get(t.replaceFirst("_mpi$", ""));
            return c == null ? Fact.absent("unknown test " + t) : Fact.of(c);
        });
        Fact<Integer> ranks = out.ranks(); // the device lines when the paste holds all of them
        Set<String> hosts = new LinkedHashSet<>();
        for (String d : out.devices()) {
            Matcher m = HOST.matcher(d);
            if (m.find()) {
                hosts.add(m.group(1));
            }
        }
        Fact<Integer> nodes = nodeCount != null ? Fact.of(nodeCount)
                : hosts.isEmpty() ? Fact.absent("no host names in the '# Rank' lines") : Fact.of(hosts.size());
        Fact<String> version = out.ncclLibrary().map(ResultInputs::versionOf);
        return new Sweep(label, p.toString(), tool, collective, ranks, nodes, env, version, out.rows(), Map.of(), 0);
    }

    /** NCCL's version code (22703) as 2.27.3. */
    private static String versionOf(String code) {
        try {
            int v = Integer.parseInt(code.strip());
            return v >= 10000 ? (v / 10000) + "." + (v / 100 % 100) + "." + (v % 100) : (v / 1000) + "." + (v / 100 % 10) + "." + (v % 100);
        } catch (NumberFormatException e) {
            return code;
        }
    }

    /** The NCCL logs a `run --json` (native or --reference) captured, as "FILE#nccl.host.pid.log". */
    private void runLogs(Path p, JsonNode doc) {
        if (!doc.has("launch") || !doc.path("ncclLogs").isObject()) {
            return;
        }
        doc.get("ncclLogs").fields().forEachRemaining(e -> {
            try {
                ncclLogs.put(p + "#" + e.getKey(), Json.mapper().convertValue(e.getValue(), NcclLog.class));
            } catch (IllegalArgumentException bad) {
                throw new InputException(p + ": ncclLogs." + e.getKey() + " is not an NCCL log as `run --json` writes it ("
                        + bad.getMessage().lines().findFirst().orElse("") + ")", bad);
            }
        });
    }

    private static Sweep runResult(Path p, String label, Map<String, String> env, Integer nodeCount, JsonNode doc) {
        JsonNode r = doc.get("result");
        List<NcclTestsOutput.Row> rows = new ArrayList<>();
        Map<Long, Boolean> aligned = new TreeMap<>();
        for (JsonNode size : r.path("sizes")) {
            NcclTestsOutput.Row row = Json.mapper().convertValue(size.get("row"), NcclTestsOutput.Row.class);
            rows.add(row);
            aligned.put(row.sizeBytes(), size.path("chunksAligned").asBoolean(true));
        }
        Fact<String> collective = r.at("/plan/collective").isTextual() ? Fact.of(r.at("/plan/collective").asText())
                : Fact.absent("the run does not name its collective");
        Fact<Integer> ranks = r.path("worldSize").isInt() ? Fact.of(r.get("worldSize").asInt()) : Fact.absent("no worldSize");
        Fact<Integer> nodes = nodeCount != null ? Fact.of(nodeCount) : Fact.absent("`run --json` does not record hosts; give nodes in a bundle");
        Fact<String> version = r.path("ncclVersion").isTextual() ? Fact.of(r.get("ncclVersion").asText()) : Fact.absent("not recorded");
        return new Sweep(label, p.toString(), "nccl-doctor run", collective, ranks, nodes, env, version, rows, aligned, 0);
    }

    private void bundle(Path dir) {
        Path file = dir.resolve("report.yaml");
        Bundle b;
        try {
            b = Json.yaml().readValue(file.toFile(), Bundle.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            com.fasterxml.jackson.core.JsonLocation at = e.getLocation();
            throw new InputException(file + (at == null ? "" : ":" + at.getLineNr()) + ": " + e.getOriginalMessage()
                    + " (keys: title, example, nodes, sweeps, perftest, ceilings, traffic, logs; see docs/report.md)", e);
        } catch (IOException e) {
            throw new InputException(file + ": cannot read (" + e.getMessage() + ")", e);
        }
        if (b == null) {
            throw new InputException(file + ": empty");
        }
        if (b.title() != null) {
            title = b.title();
        }
        example |= Boolean.TRUE.equals(b.example());
        int before = nodes.size();
        for (String n : orEmpty(b.nodes())) {
            add(dir.resolve(n), null, Map.of(), null);
        }
        for (SweepEntry s : orEmpty(b.sweeps())) {
            if (s.file() == null) {
                throw new InputException(file + ": a sweep without 'file'");
            }
            add(dir.resolve(s.file()), s.label(), s.env() == null ? Map.of() : s.env(), s.nodes());
        }
        attachPerftest(file, dir, orEmpty(b.perftest()), before);
        for (CeilingEntry c : orEmpty(b.ceilings())) {
            given.add(new Ceiling(c.label(), c.busBwGBps(), c.link() == null ? "given" : c.link(),
                    List.of((c.why() == null ? "given in " : c.why() + " (given in ") + file + (c.why() == null ? "" : ")")),
                    Ceiling.Kind.GIVEN));
        }
        for (TrafficEntry t : orEmpty(b.traffic())) {
            traffic.add(new PortTraffic(t.label(), t.txBytes() == null ? Map.of() : t.txBytes(), t.source() == null ? file.toString() : t.source()));
        }
        for (String log : orEmpty(b.logs())) {
            Path p = dir.resolve(log);
            if (Files.isDirectory(p)) {
                ncclLogs.putAll(NcclLogSet.read(List.of(p)).logs());
            } else {
                ncclLogs.put(p.toString(), NcclLog.parse(p));
            }
        }
    }

    /** Puts the bundle's perftest cells into the matching node's snapshot, where GDR_READ_ASYMMETRY reads them. */
    private void attachPerftest(Path file, Path dir, List<PerftestEntry> entries, int firstNode) {
        Map<String, List<PerftestMatrix.Cell>> byNode = new LinkedHashMap<>();
        for (PerftestEntry e : entries) {
            PerftestMatrix.Direction d = switch (String.valueOf(e.direction()).toLowerCase(Locale.ROOT)) {
                case "nic-reads-gpu" -> PerftestMatrix.Direction.NIC_READS_GPU;
                case "nic-writes-gpu" -> PerftestMatrix.Direction.NIC_WRITES_GPU;
                default -> throw new InputException(file + ": perftest direction '" + e.direction() + "': use nic-reads-gpu or nic-writes-gpu");
            };
            Fact<Double> gbps;
            Fact<String> problem;
            List<String> from = List.of(e.file() != null ? "perftest output " + dir.resolve(e.file()) : "given in " + file);
            if (e.file() != null) {
                Path out = dir.resolve(e.file());
                PerftestOutput p;
                try {
                    p = PerftestOutput.parse(Files.readAllLines(out, StandardCharsets.UTF_8), out.toString());
                } catch (IOException ex) {
                    throw new InputException(out + ": cannot read (" + ex.getMessage() + ")", ex);
                }
                PerftestOutput.Row row = p.rows().stream().filter(x -> x.bytes() == 1048576).findFirst()
                        .orElse(p.rows().isEmpty() ? null : p.rows().get(p.rows().size() - 1));
                problem = p.errors().isEmpty() ? Fact.absent("ran") : Fact.of(p.errors().get(0));
                gbps = row == null ? Fact.absent("no bandwidth line in " + out)
                        : p.unit().startsWith("Gb") ? Fact.of(row.average()) : Fact.of(row.average() * 1048576 * 8 / 1e9);
                if (problem.isValue()) {
                    gbps = Fact.absent(problem.get());
                }
            } else {
                problem = Fact.of(e.failed() == null ? "no result" : e.failed());
                gbps = Fact.absent(problem.get());
            }
            byNode.computeIfAbsent(e.node(), k -> new ArrayList<>()).add(new PerftestMatrix.Cell(e.gpu(), e.gpuBusId(), e.hca(), d,
                    from, gbps, problem));
        }
        for (Map.Entry<String, List<PerftestMatrix.Cell>> e : byNode.entrySet()) {
            int at = -1;
            for (int i = firstNode; i < nodes.size(); i++) {
                if (nodes.get(i).hostName().equals(e.getKey())) {
                    at = i;
                }
            }
            if (at < 0) {
                throw new InputException(file + ": perftest names node '" + e.getKey() + "', which is none of the bundle's nodes ("
                        + String.join(", ", nodes.subList(firstNode, nodes.size()).stream().map(Snapshot::hostName).toList()) + ")");
            }
            Snapshot s = nodes.get(at);
            Map<String, Object> sections = new LinkedHashMap<>(s.sections());
            sections.put(PerftestMatrixProbe.KEY, new PerftestMatrix(Fact.of(e.getValue())));
            nodes.set(at, new Snapshot(s.schemaVersion(), s.toolVersion(), s.hostName(), s.createdAt(), s.source(), s.argv(), s.env(),
                    sections));
        }
    }

    private static <T> List<T> orEmpty(List<T> l) {
        return l == null ? List.of() : l;
    }
}
