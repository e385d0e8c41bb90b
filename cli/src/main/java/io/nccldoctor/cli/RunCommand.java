package io.nccldoctor.cli;

import io.nccldoctor.collectives.Libraries;
import io.nccldoctor.collectives.LibrariesProbe;
import io.nccldoctor.collectives.coll.Collective;
import io.nccldoctor.collectives.coll.DataType;
import io.nccldoctor.collectives.launch.CommIdPolicy;
import io.nccldoctor.collectives.launch.LaunchEnv;
import io.nccldoctor.collectives.launch.Rendezvous;
import io.nccldoctor.collectives.measure.Backend;
import io.nccldoctor.collectives.measure.JnaBackend;
import io.nccldoctor.collectives.measure.Measurement;
import io.nccldoctor.collectives.measure.NcclTestsFormat;
import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.collectives.parse.NcclLogSet;
import io.nccldoctor.collectives.reference.NcclDebugCapture;
import io.nccldoctor.collectives.reference.ReferenceRun;
import io.nccldoctor.collectives.reference.ReferenceRunner;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import io.nccldoctor.core.libs.NativeLibrary;
import io.nccldoctor.gdr.GpuProbe;
import io.nccldoctor.gdr.GpuSurvey;
import io.nccldoctor.reports.parsed.NcclLogText;
import io.nccldoctor.reports.parsed.NcclTestsText;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Measures a collective over a size sweep, the way nccl-tests does.",
            "",
            "With --reference nccl-tests it runs the nccl-tests binary of that collective from --nccl-tests-dir with "
                + "the same sizes and flags, and reads its output (both placements, #wrong, the footer): rule zero, "
                + "one flag away. Under srun, mpirun or torchrun each process reads its rank from the launcher's "
                + "variables (printed in the header).",
            "",
            "Without --reference it runs the collective itself through libnccl.so.2: -g GPUs per process, counts "
                + "conditioned as nccl-tests does (or --conditioning none, as a hand-sized tensor), warm-up, iterations "
                + "timed around a stream synchronise, algbw and busbw as nccl-tests computes them, out-of-place and in-place, "
                + "and with -c 1 the data checked. A node that lacks a piece (the NVIDIA driver, libcuda.so.1, "
                + "libnccl.so.2, a GPU) gets one line per missing piece."},
        footer = {"",
            "Examples:",
            "  nccl-doctor run --reference nccl-tests --nccl-tests-dir ~/nccl-tests/build -b 8 -e 128M -f 2 -g 8",
            "  srun -N2 --ntasks-per-node=8 nccl-doctor run --reference nccl-tests --nccl-tests-dir /opt/nccl-tests/build "
                + "--collective alltoall -b 1M -e 1G",
            "  nccl-doctor run --collective alltoall -g 8 -b 1M -e 1G",
            "  nccl-doctor run --collective alltoall -g 3 -b 536870904 -e 536870904 --conditioning none   # the field report's case",
            "  srun -N2 --ntasks-per-node=8 nccl-doctor run --rendezvous file:/shared/ncclid -b 8 -e 8G",
            "",
            "Exit codes: 0 the run finished with correct data; 1 it failed (wrong elements, an NCCL error, a non-zero "
                + "exit, a hang stopped at --timeout) or a piece it needs is missing; 2 bad usage (unknown collective, no such "
                + "binary)."})
final class RunCommand implements Callable<Integer> {

    @Option(names = "--collective", defaultValue = "allreduce", paramLabel = "C",
            description = "allreduce (default), allgather, alltoall, reducescatter, broadcast, reduce, sendrecv; "
                    + "nccl-tests names such as all_reduce_perf work too.")
    String collective;

    @Option(names = {"-b", "--minbytes"}, defaultValue = "8", paramLabel = "SIZE", description = "Smallest size (K, M, G = 1024, as nccl-tests). Default: ${DEFAULT-VALUE}.")
    String minBytes;

    @Option(names = {"-e", "--maxbytes"}, defaultValue = "128M", paramLabel = "SIZE", description = "Largest size. Default: ${DEFAULT-VALUE}.")
    String maxBytes;

    @Option(names = {"-f", "--stepfactor"}, defaultValue = "2", paramLabel = "F", description = "Factor between sizes. Default: ${DEFAULT-VALUE}.")
    int stepFactor;

    @Option(names = {"-g", "--ngpus"}, defaultValue = "1", paramLabel = "N", description = "GPUs driven by each process. Default: ${DEFAULT-VALUE}.")
    int gpus;

    @Option(names = {"-d", "--datatype"}, defaultValue = "float", paramLabel = "T", description = "Data type. Default: ${DEFAULT-VALUE}.")
    String dtype;

    @Option(names = {"-o", "--op"}, defaultValue = "sum", paramLabel = "OP", description = "sum, prod, min, max, avg. Default: ${DEFAULT-VALUE}.")
    String op;

    @Option(names = {"-w", "--warmup_iters"}, defaultValue = "5", paramLabel = "N", description = "Warm-up iterations. Default: ${DEFAULT-VALUE}.")
    int warmup;

    @Option(names = {"-n", "--iters"}, defaultValue = "20", paramLabel = "N", description = "Timed iterations. Default: ${DEFAULT-VALUE}.")
    int iters;

    @Option(names = {"-a", "--average"}, defaultValue = "1", paramLabel = "0-3",
            description = "How the ranks' times make a row's time, as nccl-tests: 0 each process its own, 1 the mean, 2 the fastest "
                    + "rank, 3 the slowest (what the job waits for). Default: ${DEFAULT-VALUE}.")
    int average;

    @Option(names = {"-I", "--per-iter-timing"}, description = "Also time every iteration with CUDA events, as nccl-tests -I: the "
            + "slowest GPU's (and process's) time per iteration, reported as min, max, p99 and CV per size (jitter, not just the mean).")
    boolean perIteration;

    @Option(names = {"-c", "--check"}, defaultValue = "1", paramLabel = "N", description = "Validation iterations; 0 turns #wrong into N/A. Default: ${DEFAULT-VALUE}.")
    int check;

    @Option(names = "--reference", paramLabel = "TOOL", description = "nccl-tests: run the reference binaries instead of the native launcher.")
    String reference;

    @Option(names = "--nccl-tests-dir", paramLabel = "DIR", description = "The folder holding all_reduce_perf and the others (nccl-tests' build/).")
    Path ncclTestsDir;

    @Option(names = "--timeout", defaultValue = "600", paramLabel = "SECONDS",
            description = "Kill the run with its process tree after this long and report a hang. Default: ${DEFAULT-VALUE}.")
    long timeoutSeconds;

    @Option(names = "--conditioning", defaultValue = "nccl-tests", paramLabel = "MODE", converter = ConditioningConverter.class,
            description = "nccl-tests (default): per-rank and per-peer counts trimmed to 16 bytes, as nccl-tests does; none: "
                    + "count / ranks as given, to reproduce a harness that sizes its own tensors.")
    Measurement.Conditioning conditioning;

    @Option(names = "--offset-bytes", defaultValue = "0", paramLabel = "K", description = "Misalign every base pointer by K bytes on purpose.")
    long offsetBytes;

    @Option(names = {"-r", "--root"}, defaultValue = "0", paramLabel = "R", description = "Root rank of broadcast and reduce. Default: ${DEFAULT-VALUE}.")
    int root;

    @Option(names = "--rendezvous", paramLabel = "SPEC",
            description = "How rank 0 shares the NCCL unique id where NCCL_COMM_ID is unsafe (NCCL 2.16.2 to 2.21.5): "
                    + "file:PATH on a file system every rank sees, or tcp://HOST:PORT with HOST = rank 0's address.")
    String rendezvous;

    @Option(names = "--log-dir", paramLabel = "DIR",
            description = "Where each process writes its NCCL_DEBUG=INFO log (nccl.HOST.PID.log), parsed into the result. "
                    + "Default: a new folder under the temporary directory, printed. A user's own NCCL_DEBUG_FILE wins.")
    Path logDir;

    @Option(names = "--force", description = "Use a --log-dir that already holds files.")
    boolean force;

    @Option(names = "--json", description = "Print the result as JSON.")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        Collective c = Collective.parse(collective);
        DataType type = DataType.parse(dtype);
        if (!List.of("sum", "prod", "min", "max", "avg").contains(op)) {
            throw new InputException("--op " + op + ": use sum, prod, min, max or avg");
        }
        if (timeoutSeconds < 1) {
            throw new InputException("--timeout " + timeoutSeconds + ": give a number of seconds, 1 or more");
        }
        LaunchEnv launch = LaunchEnv.from(System.getenv());
        Rendezvous share = rendezvous == null ? null : Rendezvous.parse(rendezvous);
        if (reference != null) {
            if (!reference.equals("nccl-tests")) {
                throw new InputException("--reference " + reference + ": the only reference tool is nccl-tests");
            }
            if (ncclTestsDir == null) {
                throw new InputException("--reference nccl-tests needs --nccl-tests-dir DIR (the folder with all_reduce_perf)");
            }
            ReferenceRunner.Plan plan = new ReferenceRunner.Plan(c, type, op, minBytes, maxBytes, stepFactor, gpus, warmup, iters,
                    check, Duration.ofSeconds(timeoutSeconds), average);
            ReferenceRunner.binary(ncclTestsDir, c); // a missing binary is reported before any folder is made
            ReferenceRun r = new ReferenceRunner(System.getenv()).run(ncclTestsDir, plan, logFolder());
            return report(launch, "reference", r, () -> referenceText(launch, r), r.failed());
        }
        Measurement.Plan plan = new Measurement.Plan(c, type, op, root, bytes(minBytes, "-b"), bytes(maxBytes, "-e"), stepFactor, warmup,
                iters, check > 0, conditioning, offsetBytes, Duration.ofSeconds(timeoutSeconds), Measurement.Aggregate.ofNcclTestsFlag(average),
                perIteration);
        Host host = HostOptions.liveHost();
        Libraries libs = new LibrariesProbe().run(host);
        List<String> missing = missingPieces(libs, new GpuProbe().run(host));
        boolean commIdUsable = System.getenv("NCCL_COMM_ID") != null;
        if (launch.multiProcess() && libs.nccl().version().isValue()) {
            String v = libs.nccl().version().get();
            commIdUsable = commIdUsable && CommIdPolicy.commIdSafe(v);
            if (!commIdUsable && share == null) {
                missing.add("a way to share the NCCL unique id: " + (System.getenv("NCCL_COMM_ID") == null ? "NCCL_COMM_ID is not set"
                        : CommIdPolicy.why(v)) + "; give --rendezvous file:PATH or tcp://HOST:PORT");
            }
        }
        if (!missing.isEmpty()) {
            return report(launch, "missing", missing, () -> "nccl-doctor run " + c.name() + ": " + launchLine(launch)
                    + "\ncannot run here; missing:\n" + String.join("", missing.stream().map(m -> "  - " + m + "\n").toList()), true);
        }
        NcclDebugCapture capture = NcclDebugCapture.plan(System.getenv(), logFolder());
        Measurement.Result result;
        try {
            JnaBackend.setenv(capture.set());
            try (JnaBackend backend = backend(libs, launch, share, commIdUsable)) {
                result = new Measurement(backend).run(plan);
            }
        } catch (Backend.Failure f) {
            Map<String, NcclLog> logs = capture.read();
            return report(launch, "failure", f.getMessage(), capture, logs, () -> "nccl-doctor run " + c.name() + ": " + launchLine(launch)
                    + "\nFAILED: " + f.getMessage() + "\n" + logsText(capture.note(), logs), true);
        }
        Measurement.Result done = result;
        Map<String, NcclLog> logs = capture.read();
        return report(launch, "result", result, capture, logs, () -> nativeText(launch, done) + logsText(capture.note(), logs),
                result.failure().isValue() || !result.asNcclTestsOutput().failures().isEmpty()
                        || logs.values().stream().anyMatch(l -> !l.ibErrors().isEmpty()));
    }

    /** Prints the launch, one result and the NCCL logs of the run, as JSON or text; the exit code is 1 when it failed. */
    private int report(LaunchEnv launch, String key, Object value, NcclDebugCapture capture, Map<String, NcclLog> logs,
                       java.util.function.Supplier<String> text, boolean failed) {
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("launch", launch);
            doc.put(key, value);
            doc.put("ncclLogsNote", capture.note());
            doc.put("ncclLogs", logs);
            out.print(Json.write(doc));
        } else {
            out.print(text.get());
        }
        out.flush();
        return failed ? 1 : 0;
    }

    /**
     * "# NCCL logs: …", a line per process log (version, network, transports), IB completion errors, and what differs
     * between the processes where they should agree (a rank on sockets, one without GPU Direct RDMA, two NCCL versions).
     */
    static String logsText(String note, Map<String, NcclLog> logs) {
        StringBuilder s = new StringBuilder("# NCCL logs: " + note + "\n");
        logs.forEach((file, log) -> {
            s.append("#   ").append(file).append(": ").append(NcclLogText.summary(log)).append('\n');
            log.ibErrors().forEach(e -> s.append("# FAILED: ").append(file).append(": IB completion error status ").append(e.status())
                    .append(" (").append(e.statusName()).append(")\n"));
        });
        if (!logs.isEmpty()) {
            NcclLogSet.of(logs, Map.of()).differences().forEach(d -> s.append("# DIFFERS: ").append(d).append('\n'));
        }
        logs.forEach((file, log) -> log.differences().forEach(d -> s.append("# DIFFERS in ").append(file).append(": ").append(d)
                .append('\n')));
        return s.toString();
    }

    /** Prints the launch and one result, as JSON or text; the exit code is 1 when it failed. */
    private int report(LaunchEnv launch, String key, Object value, java.util.function.Supplier<String> text, boolean failed) {
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("launch", launch);
            doc.put(key, value);
            out.print(Json.write(doc));
        } else {
            out.print(text.get());
        }
        out.flush();
        return failed ? 1 : 0;
    }

    /** The local GPUs: -g of them, after those of lower local ranks; CUDA_VISIBLE_DEVICES applies as usual. */
    private JnaBackend backend(Libraries libs, LaunchEnv launch, Rendezvous share, boolean commIdUsable) {
        int[] devices = new int[gpus];
        for (int i = 0; i < gpus; i++) {
            devices[i] = launch.localRank() * gpus + i;
        }
        String libcuda = libs.cudaDriver().loaded().get().realPath();
        String libnccl = libs.nccl().loaded().get().realPath();
        if (!launch.multiProcess()) {
            return JnaBackend.singleProcess(libcuda, libnccl, devices);
        }
        Duration limit = Duration.ofSeconds(timeoutSeconds);
        return JnaBackend.multiProcess(libcuda, libnccl, devices, launch.worldSize() * gpus, launch.rank(), b -> {
            if (commIdUsable) {
                return b.uniqueId();
            }
            if (launch.rank() == 0) {
                byte[] id = b.uniqueId();
                share.publish(id, launch.jobKey(), launch.worldSize() - 1, limit);
                return id;
            }
            Fact<byte[]> id = share.fetch(launch.jobKey(), limit);
            if (!id.isValue()) {
                throw new Backend.Failure(id.reason());
            }
            return id.get();
        });
    }

    /** nccl-tests' size syntax: bytes, or K, M, G as powers of 1024. */
    static long bytes(String size, String flag) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)([KMGkmg]?)").matcher(size);
        if (!m.matches()) {
            throw new InputException(flag + " " + size + ": give bytes as nccl-tests does, e.g. 8, 64K, 128M, 8G");
        }
        int shift = switch (m.group(2).toUpperCase(java.util.Locale.ROOT)) {
            case "K" -> 10;
            case "M" -> 20;
            case "G" -> 30;
            default -> 0;
        };
        return Long.parseLong(m.group(1)) << shift;
    }

    /** The nccl-tests table, with our own lines as '#' comments so that scripts reading nccl-tests output skip them. */
    static String nativeText(LaunchEnv launch, Measurement.Result r) {
        Measurement.Plan p = r.plan();
        StringBuilder s = new StringBuilder("# nccl-doctor run " + p.collective().name() + ": " + launchLine(launch) + "\n");
        s.append("# counts conditioned ").append(p.conditioning() == Measurement.Conditioning.NCCL_TESTS
                        ? "as nccl-tests does (16-byte chunks)" : "as given (no trimming, like a hand-sized tensor)")
                .append(p.offsetBytes() > 0 ? ", base pointers offset by " + p.offsetBytes() + " bytes" : "").append('\n');
        s.append(NcclTestsFormat.render(r));
        for (Measurement.SizeResult z : r.sizes()) {
            if (!z.chunksAligned()) {
                s.append(String.format(java.util.Locale.ROOT, "# misaligned: at %,d bytes each chunk is %,d bytes or starts off a 16-byte "
                        + "boundary (NCCL leaves its vectorised path)%n", z.row().sizeBytes(), z.chunkBytes()));
            }
        }
        for (Measurement.SizeResult z : r.sizes()) {
            if (z.outOfPlaceIterations().isValue()) {
                Measurement.IterationStats o = z.outOfPlaceIterations().get();
                s.append(String.format(java.util.Locale.ROOT, "# per iteration at %,d bytes (cudaEvent, %d iterations): out-of-place min %.2f "
                        + "max %.2f p99 %.2f us, cv %.1f %%", z.row().sizeBytes(), o.iterations(), o.minUs(), o.maxUs(), o.p99Us(), o.cvPercent()));
                if (z.inPlaceIterations().isValue()) {
                    Measurement.IterationStats i = z.inPlaceIterations().get();
                    s.append(String.format(java.util.Locale.ROOT, "; in-place min %.2f max %.2f p99 %.2f us, cv %.1f %%", i.minUs(), i.maxUs(),
                            i.p99Us(), i.cvPercent()));
                }
                s.append('\n');
            }
        }
        r.asNcclTestsOutput().failures().forEach(f -> s.append("# FAILED: ").append(f).append('\n'));
        if (r.failure().isValue()) {
            s.append("# FAILED: ").append(r.failure().get()).append('\n');
        }
        return s.toString();
    }

    /** The log folder: a fresh temporary one, or the user's, which must be empty unless --force. */
    private Path logFolder() {
        try {
            if (logDir == null) {
                return java.nio.file.Files.createTempDirectory("nccl-doctor-run-");
            }
            if (java.nio.file.Files.isDirectory(logDir)) {
                try (java.util.stream.Stream<Path> in = java.nio.file.Files.list(logDir)) {
                    if (in.findAny().isPresent() && !force) {
                        throw new InputException("--log-dir " + logDir + " already holds files; give an empty or new folder, or --force "
                                + "to add this run's logs to it");
                    }
                }
                return logDir;
            }
            return java.nio.file.Files.createDirectories(logDir);
        } catch (java.io.IOException e) {
            throw new InputException("--log-dir " + logDir + ": cannot create (" + e.getMessage() + ")", e);
        }
    }

    /** One line per piece the native launcher needs and this node lacks, each with the loader's or probe's reason. */
    static List<String> missingPieces(Libraries libs, GpuSurvey gpus) {
        List<String> missing = new ArrayList<>();
        lib(libs.cudaDriver(), "the CUDA driver library libcuda.so.1", missing);
        lib(libs.nccl(), "NCCL (libnccl.so.2)", missing);
        if (!gpus.gpus().isValue()) {
            missing.add("a GPU: " + gpus.gpus().reason());
        } else if (gpus.gpus().get().isEmpty()) {
            missing.add("a GPU: the CUDA driver sees none (CUDA_VISIBLE_DEVICES=" + System.getenv().getOrDefault("CUDA_VISIBLE_DEVICES", "unset") + ")");
        }
        return missing;
    }

    private static void lib(NativeLibrary lib, String what, List<String> missing) {
        Fact<NativeLibrary.Copy> loaded = lib.loaded();
        if (!loaded.isValue()) {
            String searched = String.join(", ", lib.searched().stream().map(w -> w.replaceAll(" /\\S+", "")).toList());
            missing.add(what + ": " + loaded.reason() + (lib.found() ? "" : " (searched " + searched + ")"));
        } else if (!loaded.get().version().isValue()) {
            missing.add(what + ": found at " + loaded.get().realPath() + " but it does not load: " + loaded.get().version().reason());
        }
    }

    /** "nccl-tests" or "none". */
    static final class ConditioningConverter implements picocli.CommandLine.ITypeConverter<Measurement.Conditioning> {
        @Override
        public Measurement.Conditioning convert(String value) {
            return switch (value) {
                case "nccl-tests" -> Measurement.Conditioning.NCCL_TESTS;
                case "none" -> Measurement.Conditioning.NONE;
                default -> throw new picocli.CommandLine.TypeConversionException("use nccl-tests or none, not '" + value + "'");
            };
        }
    }

    static String launchLine(LaunchEnv l) {
        return "rank " + l.rank() + " of " + l.worldSize() + " (local rank " + l.localRank() + "), from " + l.source()
                + (l.ignored().isEmpty() ? "" : "; also present and not used: " + String.join(", ", l.ignored()));
    }

    static String referenceText(LaunchEnv launch, ReferenceRun r) {
        StringBuilder s = new StringBuilder("nccl-doctor run --reference nccl-tests: " + launchLine(launch) + "\n");
        s.append("  command: ").append(String.join(" ", r.argv())).append('\n');
        s.append("  ended: ").append(r.exitCode().map(code -> "exit status " + code).describe()).append(" after ")
                .append(r.durationMs()).append(" ms\n");
        if (r.output().isValue()) {
            s.append(NcclTestsText.render(r.output().get(), "its stdout"));
            if (launch.multiProcess() && r.output().get().ncclLibrary().isValue()) {
                s.append("  NCCL_COMM_ID: ").append(CommIdPolicy.why(r.output().get().ncclLibrary().get())).append('\n');
            }
        } else {
            s.append("  output: ").append(r.output().reason()).append('\n');
        }
        s.append("  NCCL logs: ").append(r.logsNote()).append('\n');
        r.ncclLogs().forEach((file, log) -> {
            s.append("    ").append(file).append(": ").append(NcclLogText.summary(log)).append('\n');
            log.ibErrors().forEach(e -> s.append("FAILED: ").append(file).append(": IB completion error status ").append(e.status())
                    .append(" (").append(e.statusName()).append(")\n"));
        });
        if (r.problem().isValue()) {
            s.append("FAILED: ").append(r.problem().get()).append('\n');
        }
        if (r.problem().isValue() && !r.stderrTail().isEmpty()) {
            s.append("  last lines of its stderr:\n");
            r.stderrTail().forEach(l -> s.append("    ").append(l).append('\n'));
        }
        return s.toString();
    }
}
