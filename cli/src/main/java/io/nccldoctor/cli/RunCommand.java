package io.nccldoctor.cli;

import io.nccldoctor.collectives.measure.Measurement;
import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.core.InputException;
import io.nccldoctor.reports.run.RunOptions;
import io.nccldoctor.reports.run.RunText;
import io.nccldoctor.reports.run.RunVerb;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Measures a collective over a size sweep, the way nccl-tests does.",
            "",
            "With --reference nccl-tests it runs the nccl-tests binary of that collective from --nccl-tests-dir with "
                + "the same sizes and flags (nccl-tests' own -G -R -z -m -N -C -u -D -S -M -t -p pass through; gather, scatter, "
                + "alltoallv and hypercube too), and reads its output: rule zero, one flag away. Under srun, mpirun or "
                + "torchrun each process reads its rank from the launcher's variables (printed in the header).",
            "",
            "Without --reference it runs the collective itself through libnccl.so.2: -g GPUs per process, counts "
                + "conditioned as nccl-tests does (or --conditioning none, as a hand-sized tensor), warm-up, iterations "
                + "timed around a stream synchronise, algbw and busbw as nccl-tests computes them, out-of-place and in-place, "
                + "and with -c 1 the data checked. --timeout bounds every wait for NCCL, initialisation included; an NCCL "
                + "older than 2.14 runs in a child process killed at the limit. A node that lacks a piece (the NVIDIA driver, "
                + "libcuda.so.1, libnccl.so.2, a GPU) gets one line per missing piece."},
        footer = {"",
            "Examples:",
            "  nccl-doctor run --reference nccl-tests --nccl-tests-dir ~/nccl-tests/build -b 8 -e 128M -f 2 -g 8",
            "  srun -N2 --ntasks-per-node=8 nccl-doctor run --reference nccl-tests --nccl-tests-dir /opt/nccl-tests/build \\",
            "      --collective alltoall -b 1M -e 1G",
            "  nccl-doctor run --collective alltoall -g 8 -b 1M -e 1G",
            "  nccl-doctor run --collective allreduce --op max -d int8 -g 8 -c 1",
            "  nccl-doctor run --collective alltoall -g 3 -b 536870904 -e 536870904 --conditioning none   # the field report's case",
            "  srun -N2 --ntasks-per-node=8 nccl-doctor run --rendezvous file:/shared/ncclid -b 8 -e 8G",
            "",
            "Exit codes: 0 the run finished with correct data; 1 it failed (wrong elements, an NCCL error, a non-zero "
                + "exit, a hang stopped at --timeout) or a piece it needs is missing; 2 bad usage (unknown collective, no such "
                + "binary)."})
final class RunCommand implements Callable<Integer> {

    @Option(names = "--collective", defaultValue = "allreduce", paramLabel = "C",
            description = "allreduce (default), allgather, alltoall, reducescatter, broadcast, reduce, sendrecv; with --reference also "
                    + "gather, scatter, alltoallv, hypercube. nccl-tests names such as all_reduce_perf work too.")
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

    @Option(names = "--op", defaultValue = "sum", paramLabel = "OP", description = "sum, prod, min, max, avg. Default: ${DEFAULT-VALUE}.")
    String op;

    /** nccl-tests' -o; here -o is kept for an output file, so it names the change instead of meaning something else. */
    @Option(names = "-o", hidden = true, paramLabel = "OP")
    String oldOp;

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

    @Mixin
    NcclTestsOptions ncclTests;

    @Option(names = "--timeout", defaultValue = "600", paramLabel = "SECONDS",
            description = "Native: the longest any wait for NCCL may take (initialisation, a launch, a collective); past it the "
                    + "communicators are aborted and the run reports a hang. Reference: the whole run, killed with its process tree. "
                    + "Default: ${DEFAULT-VALUE}.")
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

    @Option(names = "--json", description = "Print the result as JSON (kind \"run\"; the input of report, compare and rulezero).")
    boolean json;

    /** Set by the parent in the child that runs an NCCL without non-blocking initialisation. */
    @Option(names = "--progress-file", hidden = true, paramLabel = "FILE")
    Path progressFile;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (oldOp != null) {
            throw new InputException("-o " + oldOp + ": the reduction operation is --op " + oldOp + " (run keeps -o for an output file)");
        }
        RunOptions o = new RunOptions(collective, dtype, op, minBytes, maxBytes, stepFactor, gpus, warmup, iters, average, perIteration,
                check, Duration.ofSeconds(timeoutSeconds), conditioning, offsetBytes, root, Optional.ofNullable(rendezvous),
                Optional.ofNullable(logDir), force, json, Optional.ofNullable(reference), Optional.ofNullable(ncclTestsDir), ncclTests.flags(),
                Optional.ofNullable(progressFile));
        try (Progress p = progressFile != null ? null : Progress.elapsed(spec.commandLine().getErr(), "run " + collective
                + (reference != null ? " through " + reference : "") + ", limit " + timeoutSeconds + " s")) {
            PrintWriter out = p == null ? spec.commandLine().getOut() : p.guard(spec.commandLine().getOut());
            PrintWriter err = p == null ? spec.commandLine().getErr() : p.guard(spec.commandLine().getErr());
            if (reference != null) {
                return RunVerb.reference(o, System.getenv(), out, err);
            }
            return RunVerb.nativeRun(o, HostOptions.liveHost(), System.getenv(), out, err, (progress, logs) -> {
                List<String> args = new ArrayList<>(spec.commandLine().getParseResult().originalArgs()); // from the verb on
                int after = args.indexOf(spec.name()) + 1;
                args.addAll(after, List.of("--progress-file", progress.toString()));
                logs.ifPresent(d -> args.addAll(after, List.of("--log-dir", d.toString())));
                return JavaSelf.argv(args);
            });
        }
    }

    /** The NCCL logs lines of a run's text (RunText.logs); kept under this name for the existing CLI tests. */
    static String logsText(String note, Map<String, NcclLog> logs) {
        return RunText.logs(note, logs);
    }

    /** "nccl-tests" or "none". */
    static final class ConditioningConverter implements ITypeConverter<Measurement.Conditioning> {
        @Override
        public Measurement.Conditioning convert(String value) {
            return switch (value) {
                case "nccl-tests" -> Measurement.Conditioning.NCCL_TESTS;
                case "none" -> Measurement.Conditioning.NONE;
                default -> throw new TypeConversionException("use nccl-tests or none, not '" + value + "'");
            };
        }
    }
}
