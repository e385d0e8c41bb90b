package io.nccldoctor.cli;

import io.nccldoctor.core.InputException;
import io.nccldoctor.core.exec.ProcessCommandRunner;
import io.nccldoctor.core.output.JsonDocument;
import io.nccldoctor.core.output.OutputFile;
import io.nccldoctor.reports.RulesConfig;
import io.nccldoctor.reports.pairwise.Hostlist;
import io.nccldoctor.reports.pairwise.Launcher;
import io.nccldoctor.reports.pairwise.Pairwise;
import io.nccldoctor.reports.pairwise.PairwiseOptions;
import io.nccldoctor.reports.pairwise.PairwiseReport;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Option;

/** The options of `cluster --pairwise` and `--bisect` (docs/cluster.md); the run itself is reports.pairwise's. */
final class PairwiseFlags {

    /** The kind of the JSON form (docs/json.md); its schemaVersion is 1. */
    static final String KIND = "cluster-pairwise";

    @Option(names = "--pairwise", description = "Treat INPUT as node names (Slurm hostlists such as gpu[01-08] allowed) and run "
            + "every pair of them, one job at a time; or, without nodes, judge the pairs in --results.")
    boolean pairwise;

    @Option(names = "--bisect", description = "Halve the nodes instead: run each half, keep the slower, until 2-3 are left, "
            + "then pair those with a fast node (4 nodes or more).")
    boolean bisect;

    @Option(names = "--results", paramLabel = "DIR", description = "Folder of result files, one per pair (NODE1_NODE2.txt); "
            + "complete ones are not run again. Default: pairwise-results.")
    Path results = Path.of("pairwise-results");

    @Option(names = "--launcher", paramLabel = "slurm|mpi", description = "srun -w A,B (default) or mpirun with a hostfile.")
    String launcher = "slurm";

    @Option(names = "--gpus-per-node", paramLabel = "G", description = "Tasks per node, one per GPU. Default: 8.")
    int gpusPerNode = 8;

    @Option(names = "--command", paramLabel = "WORDS", description = "The benchmark, split at spaces (no shell quoting). "
            + "Default: all_reduce_perf -b 1G -e 8G -f 2 -g 1.")
    String command;

    @Option(names = "--launcher-args", paramLabel = "WORDS", description = "Extra srun or mpirun words, split at spaces, "
            + "e.g. '-p gpu --mpi=pmix'.")
    String launcherArgs;

    @Option(names = "--job-timeout", paramLabel = "SECONDS", description = "Kill a job (and its processes) after this long. Default: 600.")
    Long jobTimeout;

    @Option(names = "--slow-below", paramLabel = "FRACTION", description = "A pair is slow below this fraction of the fastest "
            + "pair. Default: 0.8.")
    Double slowBelow;

    @Option(names = "--dry-run", description = "Print the plan (one srun or mpirun line per job) and run nothing.")
    boolean dryRun;

    @Option(names = "--no-run", description = "Judge --results with the node list (to resolve file names) and run nothing.")
    boolean noRun;

    boolean active() {
        return pairwise || bisect;
    }

    int run(List<String> inputs, RulesConfig rules, PrintWriter out, PrintWriter err, boolean json, Path output, boolean force) {
        if (pairwise && bisect) {
            throw new InputException("--pairwise and --bisect: give one");
        }
        List<String> nodes = Hostlist.expand(inputs == null ? List.of() : inputs);
        if (nodes.isEmpty() && (bisect || dryRun)) {
            throw new InputException((bisect ? "--bisect" : "--dry-run") + ": give the nodes (e.g. gpu[01-16])");
        }
        OutputFormat fmt = json ? OutputFormat.JSON : OutputFormat.of(null, output, Set.of(OutputFormat.TEXT, OutputFormat.JSON),
                "cluster --pairwise");
        if (output != null) {
            OutputFile.check(output, force, "-o"); // before the jobs, which take hours: a refusal at the end would waste them
        }
        PairwiseOptions o = new PairwiseOptions(nodes, results, Launcher.of(launcher), gpusPerNode,
                command == null ? PairwiseOptions.DEFAULT_COMMAND : words(command), launcherArgs == null ? List.of() : words(launcherArgs),
                jobTimeout == null ? PairwiseOptions.DEFAULT_TIMEOUT : Duration.ofSeconds(jobTimeout),
                slowBelow == null ? PairwiseOptions.DEFAULT_SLOW_BELOW : slowBelow, bisect, dryRun);
        if (dryRun) {
            out.print(Pairwise.plan(o));
            out.flush();
            return 0;
        }
        String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        PairwiseReport report = nodes.isEmpty() || noRun ? Pairwise.read(o, rules, now)
                : Pairwise.run(o, new ProcessCommandRunner(), rules, line -> {
                    err.println("pairwise: " + line);
                    err.flush();
                }, now);
        String text = fmt == OutputFormat.JSON ? JsonDocument.write(KIND, 1, report) : report.text();
        if (output == null) {
            out.print(fmt == OutputFormat.JSON ? text : Terminal.show(text));
        } else {
            Outputs.write(output, force, fmt, Outputs.utf8(text), "cluster --pairwise");
            out.println(Wrap.lines("wrote " + output + ": " + report.verdict().summary(), Wrap.TICKET));
        }
        out.flush();
        return report.exitCode();
    }

    private static List<String> words(String s) {
        return List.of(s.strip().split("\\s+"));
    }
}
