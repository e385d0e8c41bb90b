package io.nccldoctor.collectives.reference;

import io.nccldoctor.collectives.coll.Collective;
import io.nccldoctor.collectives.coll.DataType;
import io.nccldoctor.collectives.measure.Measurement;
import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.exec.CommandResult;
import io.nccldoctor.core.exec.ProcessCommandRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Runs an nccl-tests binary (reference/nccl-internals.md §2.1 flags) with the sizes and options of a
 * {@code nccl-doctor run}, and reads its output into the same model as {@code parse nccl-tests}.
 */
public final class ReferenceRunner {

    private static final Pattern SIZE = Pattern.compile("\\d+[KMGkmg]?");

    /**
     * What to run. Sizes keep nccl-tests' own syntax (K, M, G are powers of 1024).
     *
     * @param stepFactor   -f, a multiplication factor between sizes
     * @param root         -r for the rooted tests (broadcast, reduce, gather, scatter); 0 is nccl-tests' default
     * @param check        -c: 1 validates the data and fills #wrong
     * @param average      -a: how rank times are combined (1, the mean, is nccl-tests' default and is not passed)
     * @param perIteration -I 1: per-iteration CUDA event timing
     * @param flags        the other nccl-tests options, passed through
     */
    public record Plan(ReferenceTest test, DataType type, String op, int root, String minBytes, String maxBytes, int stepFactor,
                       int gpusPerProcess, int warmup, int iters, int check, Duration timeout, int average, boolean perIteration,
                       NcclTestsFlags flags) {

        /** With nccl-tests' defaults for root, -a, -I and the passed-through flags. */
        public Plan(Collective collective, DataType type, String op, String minBytes, String maxBytes, int stepFactor, int gpusPerProcess,
                    int warmup, int iters, int check, Duration timeout, int average) {
            this(ReferenceTest.parse(collective.name()), type, op, 0, minBytes, maxBytes, stepFactor, gpusPerProcess, warmup, iters, check,
                    timeout, average, false, NcclTestsFlags.none());
        }

        /** With nccl-tests' default -a 1. */
        public Plan(Collective collective, DataType type, String op, String minBytes, String maxBytes, int stepFactor, int gpusPerProcess,
                    int warmup, int iters, int check, Duration timeout) {
            this(collective, type, op, minBytes, maxBytes, stepFactor, gpusPerProcess, warmup, iters, check, timeout, 1);
        }

        public Plan {
            Measurement.Aggregate.ofNcclTestsFlag(average); // 0 to 3, or a clear error
            for (String s : List.of(minBytes, maxBytes)) {
                if (!SIZE.matcher(s).matches()) {
                    throw new InputException("size '" + s + "': give bytes as nccl-tests does, e.g. 8, 64K, 128M, 8G");
                }
            }
            if (stepFactor < 2) {
                throw new InputException("-f " + stepFactor + ": the step factor must be at least 2");
            }
            if (gpusPerProcess < 1 || warmup < 0 || iters < 1) {
                throw new InputException("-g, -w and -n must be positive (-w may be 0)");
            }
        }
    }

    private final Map<String, String> env;

    /** @param env this process's environment: NCCL_DEBUG and NCCL_DEBUG_FILE set by the user are respected */
    public ReferenceRunner(Map<String, String> env) {
        this.env = Map.copyOf(env);
    }

    /** The binary for a collective in DIR: NAME, else NAME_mpi; an {@link InputException} says what to build. */
    public static Path binary(Path dir, Collective c) {
        return binary(dir, ReferenceTest.parse(c.name()));
    }

    /** The binary of a test in DIR: NAME, else NAME_mpi; an {@link InputException} says what to build. */
    public static Path binary(Path dir, ReferenceTest test) {
        String name = test.binary();
        if (!Files.isDirectory(dir)) {
            throw new InputException("--nccl-tests-dir " + dir + ": no such folder; build nccl-tests (make, or make MPI=1 "
                    + "for multi-node) and give its build folder");
        }
        for (String candidate : List.of(name, name + "_mpi")) {
            Path p = dir.resolve(candidate);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return p;
            }
        }
        throw new InputException("--nccl-tests-dir " + dir + ": no executable " + name + " (or " + name + "_mpi); build "
                + "nccl-tests there, or give the folder that holds its binaries (usually build/)");
    }

    /** nccl-tests' command line for the plan, flag for flag. */
    public static List<String> argv(Path binary, Plan p) {
        List<String> a = new ArrayList<>(List.of(binary.toString(), "-b", p.minBytes(), "-e", p.maxBytes(), "-f",
                String.valueOf(p.stepFactor()), "-g", String.valueOf(p.gpusPerProcess()), "-d", p.type().ncclTestsName(),
                "-w", String.valueOf(p.warmup()), "-n", String.valueOf(p.iters()), "-c", String.valueOf(p.check())));
        if (p.test().reduces()) {
            a.addAll(List.of("-o", p.op()));
        }
        if (p.test().rooted() && p.root() != 0) {
            a.addAll(List.of("-r", String.valueOf(p.root())));
        }
        if (p.average() != 1) {
            a.addAll(List.of("-a", String.valueOf(p.average())));
        }
        if (p.perIteration()) {
            a.addAll(List.of("-I", "1"));
        }
        a.addAll(p.flags().argv());
        return a;
    }

    /**
     * Runs the plan. With a log folder, each process writes NCCL_DEBUG=INFO output to
     * {@code logDir/nccl.%h.%p.log} (NCCL expands host and pid), and each file is parsed into the result; a user's own
     * NCCL_DEBUG_FILE wins and is left alone.
     */
    public ReferenceRun run(Path dir, Plan plan, Path logDir) {
        List<String> argv = argv(binary(dir, plan.test()), plan);
        NcclDebugCapture capture = NcclDebugCapture.plan(env, logDir);
        String logsNote = capture.note();
        CommandResult r = new ProcessCommandRunner(capture.set()).run(argv, plan.timeout());
        Map<String, NcclLog> logs = capture.read();
        if (r instanceof CommandResult.NotRun n) {
            return new ReferenceRun(argv, Fact.absent("did not start"), 0, Fact.absent(n.reason()), Fact.of(n.reason()), List.of(),
                    logs, logsNote);
        }
        String stdout;
        String stderr;
        Fact<Integer> exit;
        long ms;
        Fact<String> problem = Fact.absent("finished with exit status 0");
        if (r instanceof CommandResult.TimedOut t) {
            stdout = t.stdout();
            stderr = t.stderr();
            exit = Fact.absent("killed after " + t.timeoutMs() + " ms");
            ms = t.timeoutMs();
            problem = Fact.of("did not finish within " + plan.timeout().toSeconds() + " s and was killed with its process tree "
                    + "(a hang: look at the last NCCL lines of its output)");
        } else {
            CommandResult.Exited e = (CommandResult.Exited) r;
            stdout = e.stdout();
            stderr = e.stderr();
            exit = Fact.of(e.exitCode());
            ms = e.durationMs();
            if (e.exitCode() != 0) {
                problem = Fact.of(argv.get(0) + " exited with status " + e.exitCode());
            }
        }
        Fact<NcclTestsOutput> out;
        try {
            out = Fact.of(NcclTestsOutput.parse(stdout.lines().toList(), argv.get(0) + " stdout"));
        } catch (InputException ex) {
            out = Fact.absent(ex.getMessage());
            if (!problem.isValue()) {
                problem = Fact.of("its output holds no nccl-tests table");
            }
        }
        List<String> lines = stderr.lines().filter(l -> !l.isBlank()).toList();
        List<String> tail = lines.subList(Math.max(0, lines.size() - 20), lines.size());
        return new ReferenceRun(argv, exit, ms, out, problem, List.copyOf(tail), logs, logsNote);
    }
}
