package io.nccldoctor.reports.run;

import io.nccldoctor.collectives.measure.Measurement;
import io.nccldoctor.collectives.reference.NcclTestsFlags;
import io.nccldoctor.core.InputException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The options of one `run`, as given (names and sizes in nccl-tests' syntax).
 *
 * @param collective   a collective, or with a reference tool any nccl-tests binary's name
 * @param timeout      the limit of every wait for NCCL (native), or of the whole reference run
 * @param rendezvous   file:PATH or tcp://HOST:PORT, where NCCL_COMM_ID cannot be used
 * @param reference    the reference tool ("nccl-tests"), absent for the native launcher
 * @param progressFile set in the child that runs an NCCL without non-blocking initialisation: where it reports steps
 */
public record RunOptions(String collective, String type, String op, String minBytes, String maxBytes, int stepFactor, int gpus,
                         int warmup, int iters, int average, boolean perIteration, int check, Duration timeout,
                         Measurement.Conditioning conditioning, long offsetBytes, int root, Optional<String> rendezvous,
                         Optional<Path> logDir, boolean force, boolean json, Optional<String> reference, Optional<Path> ncclTestsDir,
                         NcclTestsFlags flags, Optional<Path> progressFile) {

    static final List<String> OPS = List.of("sum", "prod", "min", "max", "avg");

    public RunOptions {
        if (!OPS.contains(op)) {
            throw new InputException("--op " + op + ": use sum, prod, min, max or avg");
        }
        if (timeout.toSeconds() < 1) {
            throw new InputException("--timeout " + timeout.toSeconds() + ": give a number of seconds, 1 or more");
        }
        if (gpus < 1) {
            throw new InputException("-g " + gpus + ": give 1 or more GPUs per process");
        }
        if (reference.isPresent() && !reference.get().equals("nccl-tests")) {
            throw new InputException("--reference " + reference.get() + ": the only reference tool is nccl-tests");
        }
        if (reference.isPresent() && ncclTestsDir.isEmpty()) {
            throw new InputException("--reference nccl-tests needs --nccl-tests-dir DIR (the folder with all_reduce_perf)");
        }
        if (reference.isEmpty() && flags.any()) {
            throw new InputException(String.join(" ", flags.argv()) + ": nccl-tests' own options, for --reference nccl-tests only");
        }
    }
}
