package io.nccldoctor.reports.results;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.collectives.parse.NcclLogSet;
import io.nccldoctor.collectives.parse.NcclTestsJson;
import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.collectives.reference.ReferenceTest;
import io.nccldoctor.collectives.sweep.ResultLog;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.core.read.Decoded;
import io.nccldoctor.core.read.Inputs;
import io.nccldoctor.gdr.PerftestMatrix;
import io.nccldoctor.gdr.PerftestMatrixProbe;
import io.nccldoctor.gdr.PerftestOutput;
import io.nccldoctor.gdr.text.RdmaPasteGaps;
import io.nccldoctor.reports.baseline.Companions;
import io.nccldoctor.reports.baseline.Hardware;
import io.nccldoctor.reports.baseline.Nics;
import io.nccldoctor.reports.baseline.Note;
import io.nccldoctor.reports.baseline.Notes;
import io.nccldoctor.reports.inputs.InputKind;
import io.nccldoctor.reports.inputs.ReportInput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Reads the inputs of `nccl-doctor report`: nccl-tests text or -J output, `nccl-doctor run --json` output, the JSONL
 * results of `nccl-doctor sweep`, node
 * snapshots (capture folders, replayed; or the JSON of preflight, topo or gdr), and bundles (a folder with report.yaml that names all of these, with
 * labels, environments, a perftest matrix, extra ceilings and per-link traffic). Ceilings are computed from the node
 * snapshots.
 */
public final class ResultInputs {

    /** report.yaml. */
    public record Bundle(String title, Boolean example, List<String> nodes, List<SweepEntry> sweeps, List<PerftestEntry> perftest,
                         List<CeilingEntry> ceilings, List<TrafficEntry> traffic, List<String> logs, HardwareEntry hardware) {
    }

    /** What the sweeps' nodes have that their outputs do not say: the NICs per node and their rate, with why it is known. */
    public record HardwareEntry(Integer nicsPerNode, Double nicRateGbps, String why) {
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
    private final List<Note> notes = new ArrayList<>();
    private final List<Nics> nics = new ArrayList<>();
    private final List<String> skipped = new ArrayList<>();
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
        return new ResultSet(t, example, createdAt, inputs, nodes, numbered(sweeps), ceilings, traffic, ncclLogs, notes, nics, skipped,
                null);
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
                Snapshot s = captures.apply(p);
                node(s, p.toString());
            } else {
                folder(p);
            }
            return;
        }
        if (!Files.isRegularFile(p)) {
            throw new InputException(p + ": no such file or folder");
        }
        Optional<ReportInput> read = ReportInput.read(p); // every kind `parse` reads; empty for the JSON documents below
        if (read.isPresent()) {
            String sweep = label != null ? label : p.getFileName().toString().replaceFirst("\\.[A-Za-z0-9]+$", "");
            read.get().tests().ifPresent(t -> addTests(p, sweep, env, nodeCount, t, read.get().tool()));
            read.get().log().ifPresent(log -> ncclLogs.put(p.toString(), log));
            read.get().node().ifPresent(nodes::add);
            // what a pasted RDMA text leaves out (devices not opened, an excerpt cut inside a port): why a rule was not judged
            read.get().node().map(s -> s.section(RdmaPasteGaps.KEY, RdmaPasteGaps.class))
                    .ifPresent(g -> g.notes().forEach(n -> notes.add(new Note(Note.Kind.UNREAD, n, p.toString()))));
            // bytes that are not UTF-8 counted as every verb counts them (a log is streamed, a .gz file decompressed)
            if (read.get().kind() != InputKind.NCCL_LOG && !p.getFileName().toString().endsWith(".gz")) {
                Decoded whole = Inputs.text(p);
                whole.note().ifPresent(n -> notes.add(new Note(Note.Kind.UNREAD, n, p.toString())));
                if (read.get().kind() == InputKind.NVIDIA_SMI_TOPO || read.get().kind() == InputKind.LSPCI_TREE) {
                    // how the machine of the runs given with it is wired (P2P support, SYS paths, a hypervisor's devices)
                    Companions.read(whole.lines(), p.toString(), notes);
                }
            }
            return;
        }
        Decoded in = Inputs.text(p);
        String text = in.text();
        String name = label != null ? label : p.getFileName().toString().replaceFirst("\\.[A-Za-z0-9]+$", "");
        if (SweepResults.isSweepFile(text)) {
            ResultLog.Contents c = ResultLog.contents(in);
            c.notes().forEach(n -> notes.add(new Note(Note.Kind.UNREAD, n, p.toString()))); // bytes replaced, a torn last line
            sweeps.addAll(SweepResults.sweeps(p, null, c.records()));
            return;
        }
        in.note().ifPresent(n -> notes.add(new Note(Note.Kind.UNREAD, n, p.toString())));
        if (text.stripLeading().startsWith("{")) {
            JsonNode doc = Json.tree(in);
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
                sweeps.add(fromTests(p, name, env, nodeCount, Json.convert(out, NcclTestsOutput.class, p + ": reference.output.value"),
                        "nccl-tests"));
            } else if (doc.has("snapshot") && doc.get("snapshot").has("sections")) {
                node(SnapshotJson.read(doc.get("snapshot"), p + ": snapshot"), p.toString()); // preflight, topo or gdr --json
            } else if (doc.has("sections") && doc.has("hostName")) {
                node(SnapshotJson.read(doc, p.toString()), p.toString());
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
            if (Companions.read(text.lines().toList(), p.toString(), notes)) {
                return;
            }
            throw new InputException(p + ": not an input report knows (nccl-tests output, -J JSON, `run --json`, preflight/topo/gdr "
                    + "--json, an NCCL debug log, nvidia-smi topo -m or -p2p, lspci, a capture folder or a bundle with report.yaml): "
                    + e.getMessage(), e);
        }
        addTests(p, name, env, nodeCount, out, "nccl-tests");
        if (out.ncclInfoLines() > 0) { // nccl-tests run with NCCL_DEBUG=INFO: its NCCL lines are a log of the same run
            NcclLog.parseIfNccl(p).ifPresent(log -> ncclLogs.put(p.toString(), log));
        }
    }

    /** A text's runs, each its own sweep ("label", "label run 2" …): runs are never merged into one sweep. */
    private void addTests(Path p, String label, Map<String, String> env, Integer nodeCount, NcclTestsOutput out, String tool) {
        sweeps.add(fromTests(p, label, env, nodeCount, out, tool));
        for (int i = 0; i < out.furtherRuns().size(); i++) {
            sweeps.add(fromTests(p, label + " run " + (i + 2), env, nodeCount, out.furtherRuns().get(i), tool));
        }
    }

    static Sweep fromTests(Path p, String label, Map<String, String> env, Integer nodeCount, NcclTestsOutput out, String tool) {
        Fact<Integer> ranks = out.ranks(); // the device lines when the paste holds all of them
        Fact<String> named = out.test().flatMap(t -> ReferenceTest.ofBinary(t).map(r -> Fact.of(r.name()))
                .orElseGet(() -> Fact.absent("unknown test " + t)));
        // without the "# Collective test starting" line, the table's own columns often say which test printed it
        Fact<String> collective = named.isValue() || !named.reason().startsWith("no ") ? named
                : CollectiveFromTable.of(out.rows(), ranks);
        Hardware hardware = Hardware.of(out, collective);
        Fact<Integer> nodes = nodeCount != null ? Fact.of(nodeCount) : hardware.nodes();
        Fact<String> version = out.ncclLibrary().map(ResultInputs::versionOf);
        return new Sweep(label, p.toString(), tool, collective, ranks, nodes, env, version, out.rows(), Map.of(), 0, hardware,
                out.runErrors());
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
        doc.get("ncclLogs").fields().forEachRemaining(e -> ncclLogs.put(p + "#" + e.getKey(),
                Json.convert(e.getValue(), NcclLog.class, p + ": ncclLogs." + e.getKey())));
    }

    private static Sweep runResult(Path p, String label, Map<String, String> env, Integer nodeCount, JsonNode doc) {
        JsonNode r = doc.get("result");
        List<NcclTestsOutput.Row> rows = new ArrayList<>();
        Map<Long, Boolean> aligned = new TreeMap<>();
        JsonNode sizes = r.path("sizes");
        if (!sizes.isArray() && !sizes.isMissingNode()) {
            throw new InputException(p + ": result.sizes: expected a list, got " + sizes.getNodeType().name().toLowerCase(Locale.ROOT));
        }
        for (int i = 0; i < sizes.size(); i++) {
            JsonNode size = sizes.get(i);
            NcclTestsOutput.Row row = Json.convert(size.get("row"), NcclTestsOutput.Row.class, p + ": result.sizes[" + i + "].row");
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
            b = Json.yaml().readValue(Inputs.yaml(file).text(), Bundle.class);
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            throw new InputException(file + (at == null ? "" : ":" + at.getLineNr()) + ": " + e.getOriginalMessage().lines().findFirst()
                    .orElse("") + " (keys: title, example, nodes, sweeps, perftest, ceilings, traffic, logs; see docs/report.md)", e);
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
        if (b.hardware() != null) {
            HardwareEntry h = b.hardware();
            if (h.nicsPerNode() == null || h.nicsPerNode() < 1 || h.nicRateGbps() != null && !(h.nicRateGbps() > 0)) {
                throw new InputException(file + ": hardware needs nicsPerNode (1 or more) and, where known, nicRateGbps above 0");
            }
            nics.add(new Nics(h.nicsPerNode(), h.nicRateGbps() == null ? Fact.absent("the bundle does not give the rate")
                    : Fact.of(h.nicRateGbps()), file.toString(), h.nicsPerNode() + " NICs per node"
                    + (h.nicRateGbps() == null ? "" : " at " + h.nicRateGbps() + " Gbit/s") + " (" + (h.why() == null ? "given" : h.why()) + ")"));
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
                PerftestOutput p = PerftestOutput.parse(Inputs.text(out).lines(), out.toString());
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

    /** A node snapshot: its rules' input, and what it shows about the runs (a hypervisor's devices, the NICs). */
    private void node(Snapshot s, String source) {
        if (!nodes.contains(s)) {
            nodes.add(s);
        }
        notes.addAll(Notes.fromSnapshot(s, source));
        Notes.nicsFromSnapshot(s, source).ifPresent(nics::add);
    }

    /**
     * A folder that is neither a bundle nor a capture: every file in it read as if given by itself (nccl-tests outputs,
     * -J JSON, NCCL logs, nvidia-smi topo, lspci), in name order. A file that is none of those is listed in
     * {@link ResultSet#skipped} with why; a folder of NCCL logs alone is read as one job's logs (one file per process).
     */
    private void folder(Path dir) {
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().startsWith(".")).sorted().toList();
        } catch (IOException e) {
            throw new InputException(dir + ": cannot list (" + e.getMessage() + ")", e);
        }
        int sweepsBefore = sweeps.size();
        int notesBefore = notes.size();
        Map<String, NcclLog> logsBefore = new LinkedHashMap<>(ncclLogs);
        List<String> refused = new ArrayList<>();
        for (Path f : files) {
            try {
                add(f, null, Map.of(), null);
            } catch (InputException e) {
                refused.add(f.getFileName() + ": " + e.getMessage().replace(f + ": ", "").lines().findFirst().orElse(""));
            }
        }
        if (sweeps.size() == sweepsBefore && notes.size() == notesBefore) {
            ncclLogs.clear();
            ncclLogs.putAll(logsBefore);
            try {
                ncclLogs.putAll(NcclLogSet.read(List.of(dir)).logs()); // one job's logs: the processes are compared
            } catch (InputException e) {
                throw new InputException(dir + ": a folder that is neither a bundle (report.yaml), a capture (manifest.json), a folder "
                        + "of nccl-tests outputs nor a folder of NCCL debug logs" + (refused.isEmpty() ? "" : " (" + refused.get(0) + ")"), e);
            }
            return;
        }
        refused.forEach(r -> skipped.add(dir + "/" + r));
    }

    private static <T> List<T> orEmpty(List<T> l) {
        return l == null ? List.of() : l;
    }
}
