package io.nccldoctor.collectives.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import io.nccldoctor.core.read.Inputs;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Runs a sweep: one child process per {@link ChildSpec}, in the plan's order (A/B arms interleaved), each under a
 * time limit of the plan's limit per point times its points. After each child every point it finished is appended to
 * the JSONL result file and forced to disk; a point it did not finish is recorded as a failure with its kind (hang:
 * killed with its process tree at the limit; crash: a signal, or exit 127 for a missing symbol or library; exit;
 * garbage; invalid-result; no-result), the tail of its output and of its NCCL log, and the sweep goes on.
 * {@code resume} skips every point already recorded and imports what a child finished before an interrupted run could
 * record it.
 *
 * <p>The child command gets {@code --request FILE --result FILE}; it reads the request (a {@link ChildRequest}) and
 * writes one {@link ChildLine} per collective to the result file as each finishes.
 */
public final class Orchestrator {

    /**
     * @param results      the JSONL result file; its work folder is {@code RESULTS.d/} (a folder per child)
     * @param childCommand the child's argv without the launcher prefix and the request/result flags
     * @param parentEnv    the environment children start from
     */
    public record Options(Path results, boolean resume, boolean force, List<String> childCommand, Map<String, String> parentEnv,
                          Consumer<String> progress) {
    }

    /** What a run did. */
    public record Summary(int childrenRun, int childrenSkipped, int points, Map<String, Integer> failures, long wallMs) {
    }

    private final SweepPlan plan;
    private final Options o;
    private long childNanos;

    public Orchestrator(SweepPlan plan, Options options) {
        this.plan = plan;
        this.o = options;
    }

    public Path workDir() {
        return o.results().resolveSibling(o.results().getFileName() + ".d");
    }

    public Summary run() throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        Path results = o.results();
        if (Files.exists(results) && !o.resume()) {
            if (!o.force()) {
                throw new InputException(results + ": exists; give --resume to continue that sweep, or --force to start it over");
            }
            Files.delete(results);
            deleteTree(workDir());
        }
        Files.createDirectories(workDir());
        Set<String> done = new HashSet<>();
        if (Files.exists(results)) {
            ResultLog.Contents recorded = ResultLog.contents(results);
            recorded.notes().forEach(o.progress()); // a torn last line: its point runs again
            recorded.records().forEach(r -> done.add(key(r.child(), r.collective())));
        }
        List<ChildSpec> children = plan.children();
        int run = 0;
        int skipped = 0;
        int points = 0;
        Map<String, Integer> failures = new LinkedHashMap<>();
        try (ResultLog log = ResultLog.append(results)) {
            for (int i = 0; i < children.size(); i++) {
                ChildSpec c = children.get(i);
                Path dir = workDir().resolve(dirName(c.id()));
                if (o.resume()) {
                    points += imported(c, dir, done, log);
                }
                List<String> todo = c.collectives().stream().filter(x -> !done.contains(key(c.id(), x))).toList();
                if (todo.isEmpty()) {
                    skipped++;
                    o.progress().accept(String.format(Locale.ROOT, "[%d/%d] %s: done before, skipped", i + 1, children.size(), c.id()));
                    continue;
                }
                run++;
                long childStart = System.nanoTime();
                List<SweepRecord> records = runChild(c, todo, dir);
                childNanos += System.nanoTime() - childStart;
                long remaining = children.subList(i + 1, children.size()).stream().filter(x -> x.collectives().stream()
                        .anyMatch(y -> !done.contains(key(x.id(), y)))).count();
                String eta = remaining == 0 ? "" : " · ETA " + duration(childNanos / run * remaining);
                for (int k = 0; k < records.size(); k++) {
                    SweepRecord r = records.get(k);
                    log.write(r);
                    done.add(key(r.child(), r.collective()));
                    if (r.isPoint()) {
                        points++;
                    } else {
                        failures.merge(r.failure(), 1, Integer::sum);
                    }
                    o.progress().accept(String.format(Locale.ROOT, "[%d/%d] %s %s: %s%s", i + 1, children.size(), c.id(),
                            r.collective(), r.isPoint() ? "ok, " + r.rows().size() + " sizes" : "FAILED (" + r.failure() + "): " + r.detail(),
                            k == records.size() - 1 ? eta : ""));
                }
            }
        }
        return new Summary(run, skipped, points, failures, (System.nanoTime() - t0) / 1_000_000);
    }

    /** "1h02m", "3m20s", "45s". */
    static String duration(long nanos) {
        long s = Math.max(1, nanos / 1_000_000_000L);
        return s >= 3600 ? String.format(Locale.ROOT, "%dh%02dm", s / 3600, s / 60 % 60)
                : s >= 60 ? String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60) : s + "s";
    }

    static String key(String child, String collective) {
        return child + "\u0000" + collective;
    }

    /** The folder of a child of the sweep whose results are {@code results}: its request, output and NCCL logs. */
    public static Path childDir(Path results, String childId) {
        return results.resolveSibling(results.getFileName() + ".d").resolve(dirName(childId));
    }

    private static String dirName(String id) {
        return id.replaceAll("[^A-Za-z0-9._=,+-]", "_");
    }

    /** Points a child finished but a killed run never recorded. */
    private int imported(ChildSpec c, Path dir, Set<String> done, ResultLog log) throws IOException {
        Path res = dir.resolve("result.jsonl");
        if (!Files.isRegularFile(res)) {
            return 0;
        }
        int n = 0;
        for (ChildLine line : valid(res, c.collectives(), new int[2])) {
            if (!done.contains(key(c.id(), line.collective()))) {
                log.write(point(c, line, 0));
                done.add(key(c.id(), line.collective()));
                n++;
            }
        }
        return n;
    }

    private List<SweepRecord> runChild(ChildSpec c, List<String> todo, Path dir) throws IOException, InterruptedException {
        deleteTree(dir);
        Files.createDirectories(dir);
        Path req = dir.resolve("request.json");
        Path res = dir.resolve("result.jsonl");
        SweepPlan.Sizes s = plan.sizes() == null ? new SweepPlan.Sizes("1M", "64M", 2) : plan.sizes();
        ChildRequest request = new ChildRequest(plan.name(), c.id(), todo, s.min() == null ? "1M" : s.min(), s.max() == null ? "64M" : s.max(),
                s.factor() == null ? 2 : s.factor(), plan.dtypeOr(), plan.opOr(), plan.warmupOr(), plan.itersOr(), plan.checkOr(), plan.gpusOr(),
                plan.timeoutOr(), c.matrixEnv());
        Files.writeString(req, Json.write(request));
        List<String> argv = new ArrayList<>(plan.launcherPrefix());
        argv.addAll(o.childCommand());
        argv.addAll(List.of("--request", req.toString(), "--result", res.toString()));
        ProcessBuilder pb = new ProcessBuilder(argv).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(dir.resolve("stdout.txt").toFile()).redirectError(dir.resolve("stderr.txt").toFile());
        pb.environment().clear();
        pb.environment().putAll(c.environment(o.parentEnv(), dir));
        long limitMs = (long) plan.timeoutOr() * todo.size() * 1000;
        long start = System.nanoTime();
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            return failures(c, todo, "crash", "cannot start " + argv.get(0) + ": " + e.getMessage(), dir, 0);
        }
        boolean finished = p.waitFor(limitMs, TimeUnit.MILLISECONDS);
        if (!finished) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(5, TimeUnit.SECONDS);
        }
        long ms = (System.nanoTime() - start) / 1_000_000;
        int[] bad = new int[2]; // garbage lines, invalid records
        List<ChildLine> lines = Files.isRegularFile(res) ? valid(res, todo, bad) : List.of();
        List<SweepRecord> out = new ArrayList<>();
        Set<String> got = new HashSet<>();
        for (ChildLine l : lines) {
            if (got.add(l.collective())) {
                out.add(l.failure() == null ? point(c, l, ms) : failure(c, l.collective(), "exit", "the child reports: " + l.failure(), dir, ms));
            }
        }
        List<String> missing = todo.stream().filter(x -> !got.contains(x)).toList();
        if (!missing.isEmpty()) {
            String kind;
            String detail;
            if (!finished) {
                kind = "hang";
                detail = "no result within " + (limitMs / 1000) + " s (" + plan.timeoutOr() + " s per point); killed with its process tree";
            } else if (p.exitValue() == 127) {
                kind = "crash";
                detail = "exit 127: a command, shared library or symbol it needs is missing (see the output tail)";
            } else if (p.exitValue() > 128) {
                kind = "crash";
                detail = "killed by signal " + (p.exitValue() - 128) + signalName(p.exitValue() - 128);
            } else if (bad[0] > 0) {
                kind = "garbage";
                detail = bad[0] + " line(s) of its result file are not JSON";
            } else if (bad[1] > 0) {
                kind = "invalid-result";
                detail = bad[1] + " line(s) of its result file are JSON but not a result (collective and rows)";
            } else if (p.exitValue() != 0) {
                kind = "exit";
                detail = "exited with status " + p.exitValue() + " before these points";
            } else {
                kind = "no-result";
                detail = "exited 0 without a result for these points";
            }
            out.addAll(failures(c, missing, kind, detail, dir, ms));
        }
        return out;
    }

    private static String signalName(int s) {
        return switch (s) {
            case 6 -> " (SIGABRT)";
            case 9 -> " (SIGKILL)";
            case 11 -> " (SIGSEGV)";
            case 15 -> " (SIGTERM)";
            default -> "";
        };
    }

    /** The lines that are results for requested collectives; bad[0] counts non-JSON lines, bad[1] JSON non-results. */
    private static List<ChildLine> valid(Path res, List<String> requested, int[] bad) {
        List<ChildLine> out = new ArrayList<>();
        List<String> lines;
        try {
            lines = Inputs.text(res).lines(); // bytes that are not UTF-8 become U+FFFD: a line of them is garbage, not our crash
        } catch (InputException tooLarge) {
            bad[0]++;
            return out;
        }
        for (String l : lines) {
            if (l.isBlank()) {
                continue;
            }
            JsonNode n;
            try {
                n = Json.mapper().readTree(l);
            } catch (IOException e) {
                bad[0]++;
                continue;
            }
            try {
                ChildLine c = Json.mapper().treeToValue(n, ChildLine.class);
                if (c.collective() == null || !requested.contains(c.collective()) || (c.failure() == null && c.rows() == null)
                        || (c.rows() != null && c.rows().contains(null))) {
                    bad[1]++;
                    continue;
                }
                out.add(c);
            } catch (IOException | IllegalArgumentException e) {
                bad[1]++;
            }
        }
        return out;
    }

    private SweepRecord point(ChildSpec c, ChildLine l, long ms) {
        Map<String, Long>[] decided = decisions(workDir().resolve(dirName(c.id())));
        return new SweepRecord("point", plan.name(), c.id(), c.arm(), c.library(), c.matrixEnv(), c.envLabel(), c.repeat(), l.collective(),
                l.ncclVersion(), l.ncclLibrary(), l.worldSize(), l.rows() == null ? List.<NcclTestsOutput.Row>of() : l.rows(), null, null, null,
                null, ms, decided[0], decided[1]);
    }

    private List<SweepRecord> failures(ChildSpec c, List<String> collectives, String kind, String detail, Path dir, long ms) throws IOException {
        List<SweepRecord> out = new ArrayList<>();
        for (String x : collectives) {
            out.add(failure(c, x, kind, detail, dir, ms));
        }
        return out;
    }

    private SweepRecord failure(ChildSpec c, String collective, String kind, String detail, Path dir, long ms) throws IOException {
        List<String> output = new ArrayList<>(tail(dir.resolve("stdout.txt"), 10));
        output.addAll(tail(dir.resolve("stderr.txt"), 10));
        return new SweepRecord("failure", plan.name(), c.id(), c.arm(), c.library(), c.matrixEnv(), c.envLabel(), c.repeat(), collective,
                null, null, null, null, kind, detail, output, ncclLogTail(dir), ms, null, null);
    }

    /** Transports and algorithm/protocol choices from the child's NCCL logs, added up; nulls without a log. */
    @SuppressWarnings("unchecked")
    private static Map<String, Long>[] decisions(Path dir) {
        Map<String, Long> transports = new TreeMap<>();
        Map<String, Long> algorithms = new TreeMap<>();
        boolean any = false;
        try (Stream<Path> s = Files.exists(dir) ? Files.list(dir) : Stream.empty()) {
            for (Path f : s.filter(p -> p.getFileName().toString().startsWith("nccl.")).sorted().toList()) {
                try {
                    NcclLog log = NcclLog.parse(f);
                    log.transports().forEach((k, v) -> transports.merge(k, v, Long::sum));
                    log.algorithms().forEach((k, v) -> algorithms.merge(k, v, Long::sum));
                    any = true;
                } catch (InputException e) {
                    // a log without NCCL lines: the child never got that far
                }
            }
        } catch (IOException e) {
            // no folder: no decisions to report
        }
        return any ? new Map[] {transports, algorithms} : new Map[] {null, null};
    }

    /**
     * The last n lines of a child's output, from its last {@value #TAIL_BYTES} bytes: a child may write gigabytes, and
     * any bytes (not UTF-8 ones become U+FFFD).
     */
    private static List<String> tail(Path f, int n) throws IOException {
        if (!Files.isRegularFile(f)) {
            return List.of();
        }
        byte[] last;
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
            long from = Math.max(0, ch.size() - TAIL_BYTES);
            ByteBuffer b = ByteBuffer.allocate((int) (ch.size() - from));
            while (b.hasRemaining() && ch.read(b, from + b.position()) >= 0) {
                // read on
            }
            last = b.array();
        }
        List<String> lines = Inputs.decode(last, f.toString()).lines().stream().filter(l -> !l.isBlank()).toList();
        return List.copyOf(lines.subList(Math.max(0, lines.size() - n), lines.size()));
    }

    private static final int TAIL_BYTES = 64 << 10;

    /** The last lines of the newest NCCL log in the child's folder. */
    private static List<String> ncclLogTail(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            Path newest = s.filter(p -> p.getFileName().toString().startsWith("nccl.")).max(Comparator.comparingLong(p -> p.toFile().lastModified()))
                    .orElse(null);
            return newest == null ? List.of() : tail(newest, 20);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
