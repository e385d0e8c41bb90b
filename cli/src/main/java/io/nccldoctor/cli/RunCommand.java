package io.nccldoctor.cli;

import io.nccldoctor.collectives.Libraries;
import io.nccldoctor.collectives.LibrariesProbe;
import io.nccldoctor.collectives.coll.Collective;
import io.nccldoctor.collectives.coll.DataType;
import io.nccldoctor.collectives.launch.CommIdPolicy;
import io.nccldoctor.collectives.launch.LaunchEnv;
import io.nccldoctor.collectives.launch.Rendezvous;
import io.nccldoctor.collectives.reference.ReferenceRun;
import io.nccldoctor.collectives.reference.ReferenceRunner;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import io.nccldoctor.core.libs.NativeLibrary;
import io.nccldoctor.gdr.GpuProbe;
import io.nccldoctor.gdr.GpuSurvey;
import io.nccldoctor.reports.ParsedText;
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
            "Without --reference it checks what the native launcher needs on this node (the NVIDIA driver, "
                + "libcuda.so.1, libnccl.so.2, a visible GPU) and prints one line per missing piece. The native "
                + "measurement loop itself is not in this build yet; on a node that has every piece it says so and "
                + "exits 3."},
        footer = {"",
            "Examples:",
            "  nccl-doctor run --reference nccl-tests --nccl-tests-dir ~/nccl-tests/build -b 8 -e 128M -f 2 -g 8",
            "  srun -N2 --ntasks-per-node=8 nccl-doctor run --reference nccl-tests --nccl-tests-dir /opt/nccl-tests/build "
                + "--collective alltoall -b 1M -e 1G",
            "  nccl-doctor run --collective allreduce    # what is missing on this node",
            "",
            "Exit codes: 0 the run finished with correct data; 1 it failed (wrong elements, a non-zero exit, a hang "
                + "killed at --timeout) or a piece it needs is missing; 2 bad usage (unknown collective, no such "
                + "binary); 3 the native launcher is not available in this build."})
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

    @Option(names = {"-c", "--check"}, defaultValue = "1", paramLabel = "N", description = "Validation iterations; 0 turns #wrong into N/A. Default: ${DEFAULT-VALUE}.")
    int check;

    @Option(names = "--reference", paramLabel = "TOOL", description = "nccl-tests: run the reference binaries instead of the native launcher.")
    String reference;

    @Option(names = "--nccl-tests-dir", paramLabel = "DIR", description = "The folder holding all_reduce_perf and the others (nccl-tests' build/).")
    Path ncclTestsDir;

    @Option(names = "--timeout", defaultValue = "600", paramLabel = "SECONDS",
            description = "Kill the run with its process tree after this long and report a hang. Default: ${DEFAULT-VALUE}.")
    long timeoutSeconds;

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
        PrintWriter out = spec.commandLine().getOut();
        if (reference != null) {
            if (!reference.equals("nccl-tests")) {
                throw new InputException("--reference " + reference + ": the only reference tool is nccl-tests");
            }
            if (ncclTestsDir == null) {
                throw new InputException("--reference nccl-tests needs --nccl-tests-dir DIR (the folder with all_reduce_perf)");
            }
            ReferenceRunner.Plan plan = new ReferenceRunner.Plan(c, type, op, minBytes, maxBytes, stepFactor, gpus, warmup, iters,
                    check, Duration.ofSeconds(timeoutSeconds));
            ReferenceRunner.binary(ncclTestsDir, c); // a missing binary is reported before any folder is made
            ReferenceRun r = new ReferenceRunner(System.getenv()).run(ncclTestsDir, plan, logFolder());
            if (json) {
                Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("launch", launch);
                doc.put("reference", r);
                out.print(Json.write(doc));
            } else {
                out.print(referenceText(launch, r));
            }
            out.flush();
            return r.failed() ? 1 : 0;
        }
        Host host = HostOptions.liveHost();
        Libraries libs = new LibrariesProbe().run(host);
        List<String> missing = missingPieces(libs, new GpuProbe().run(host));
        if (launch.multiProcess() && libs.nccl().version().isValue()) {
            String v = libs.nccl().version().get();
            if (!CommIdPolicy.commIdSafe(v) && share == null) {
                missing.add("a rendezvous: " + CommIdPolicy.why(v) + "; give --rendezvous file:PATH or tcp://HOST:PORT");
            }
        }
        if (json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("launch", launch);
            doc.put("missing", missing);
            doc.put("nativeLauncher", Fact.absent("not in this build; use --reference nccl-tests"));
            out.print(Json.write(doc));
        } else {
            out.println("nccl-doctor run " + c.name() + ": " + launchLine(launch));
            if (!missing.isEmpty()) {
                out.println("cannot run here; missing:");
                missing.forEach(m -> out.println("  - " + m));
            } else {
                out.println("every piece is here, but the native measurement loop is not in this build; measure with "
                        + "--reference nccl-tests --nccl-tests-dir DIR");
            }
        }
        out.flush();
        return missing.isEmpty() ? 3 : 1;
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
            s.append(ParsedText.ncclTests(r.output().get(), "its stdout"));
            if (launch.multiProcess() && r.output().get().ncclLibrary().isValue()) {
                s.append("  NCCL_COMM_ID: ").append(CommIdPolicy.why(r.output().get().ncclLibrary().get())).append('\n');
            }
        } else {
            s.append("  output: ").append(r.output().reason()).append('\n');
        }
        s.append("  NCCL logs: ").append(r.logsNote()).append('\n');
        r.ncclLogs().forEach((file, log) -> {
            s.append("    ").append(file).append(": NCCL ").append(log.versions().isEmpty() ? "?" : String.join(", ", log.versions()));
            log.networks().stream().filter(n -> n.startsWith("Using network")).findFirst().ifPresent(n -> s.append(", ").append(n));
            log.transports().forEach((t, n) -> s.append(", ").append(n).append(" via ").append(t));
            s.append('\n');
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
