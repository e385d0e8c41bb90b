package io.nccldoctor.reports.pairwise;

import io.nccldoctor.core.InputException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A pairwise or bisection run.
 *
 * @param nodes        in the order given (expanded from Slurm hostlists); empty to read a results folder only
 * @param results      the folder of result files, one per pair (NAME.txt), read and written
 * @param gpusPerNode  tasks per node, one per GPU (nccl-tests -g 1)
 * @param command      the benchmark's words: an nccl-tests binary or `nccl-doctor run`, whose output is nccl-tests'
 * @param launcherArgs extra words for srun or mpirun (a partition, --mpi=pmix, -x VAR …)
 * @param jobTimeout   each launch is killed with its process tree after this long
 * @param slowBelow    a pair is slow below this fraction of the fastest pair's bus bandwidth
 */
public record PairwiseOptions(List<String> nodes, Path results, Launcher launcher, int gpusPerNode, List<String> command,
                              List<String> launcherArgs, Duration jobTimeout, double slowBelow, boolean bisect, boolean dryRun) {

    /** all_reduce_perf from 1 GiB to 8 GiB: sizes where a 2-node ring runs at the network's bandwidth. */
    public static final List<String> DEFAULT_COMMAND = List.of("all_reduce_perf", "-b", "1G", "-e", "8G", "-f", "2", "-g", "1");
    public static final double DEFAULT_SLOW_BELOW = 0.8;
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(10);

    public PairwiseOptions {
        nodes = List.copyOf(nodes);
        command = List.copyOf(command);
        launcherArgs = List.copyOf(launcherArgs);
        if (gpusPerNode < 1) {
            throw new InputException("--gpus-per-node " + gpusPerNode + ": give the number of GPUs (tasks) per node, 1 or more");
        }
        if (!(slowBelow > 0 && slowBelow < 1)) {
            throw new InputException("--slow-below " + slowBelow + ": give a fraction of the fastest pair between 0 and 1, e.g. "
                    + DEFAULT_SLOW_BELOW);
        }
        if (command.isEmpty()) {
            throw new InputException("--command: give the benchmark to run, e.g. '" + String.join(" ", DEFAULT_COMMAND) + "'");
        }
        if (!nodes.isEmpty() && nodes.size() < (bisect ? 4 : 2)) {
            throw new InputException((bisect ? "--bisect needs 4 nodes or more (two halves of two)" : "--pairwise needs 2 nodes or more")
                    + "; got " + nodes.size() + ": " + String.join(",", nodes));
        }
    }
}
