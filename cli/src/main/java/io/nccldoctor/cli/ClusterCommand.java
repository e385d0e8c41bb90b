package io.nccldoctor.cli;

import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Snapshots;
import io.nccldoctor.core.capture.Capture;
import io.nccldoctor.core.output.JsonDocument;
import io.nccldoctor.core.output.OutputFile;
import io.nccldoctor.reports.cluster.Cluster;
import io.nccldoctor.reports.cluster.ClusterData;
import io.nccldoctor.reports.cluster.ClusterFormat;
import io.nccldoctor.reports.cluster.ClusterInputs;
import io.nccldoctor.reports.cluster.ClusterOptions;
import io.nccldoctor.reports.cluster.ClusterReport;
import io.nccldoctor.reports.rules.Registry;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "cluster", mixinStandardHelpOptions = true,
        description = {
            "Puts the snapshots of many nodes side by side: what drifts, which nodes are odd, and which are slow.",
            "",
            "INPUT is any of: the --json of preflight, gdr or topo (one per node); a bare snapshot; a capture folder "
                + "(`nccl-doctor capture DIR`); a bandwidth file (CSV: host,label,busbw_gbps); or a folder holding these "
                + "one level deep. For each attribute (driver, CUDA, NCCL, kernel, GPUDirect prerequisites, GPU count and model, "
                + "PCIe links, RDMA devices, NIC firmware, port state, rate, MTU and ARP settings) the table shows the majority "
                + "value and the nodes off it; attributes every node agrees on take one line. Facts a node could not report are "
                + "shown as unknown, never guessed. Bandwidth below median − k × MAD marks a slow node (docs/cluster.md)."},
        footer = {"",
            "Formats (from the extension of -o): txt, md, json, html (one self-contained file). Without -o: the terminal form.",
            "",
            "Examples:",
            "  nccl-doctor cluster snapshots/                a folder of preflight --json files",
            "  nccl-doctor cluster snapshots/ bandwidth.csv -o cluster.html",
            "  nccl-doctor cluster node*.json --outlier-k 2.5 --json > cluster.json",
            "  nccl-doctor cluster --pairwise 'gpu[01-08]' --dry-run          the srun line of each of the 28 pairs",
            "  nccl-doctor cluster --pairwise 'gpu[01-08]' --results pairs/   run the missing pairs",
            "  nccl-doctor cluster --pairwise --results pairs/                 judge pairs run elsewhere (A_B.txt)",
            "",
            "Drift and slow nodes are warnings unless configs/rules.yaml raises them (severity: {CLUSTER_DRIFT: error}).",
            "",
            "Exit codes: 0 no error-level finding, 1 an error-level finding, 2 bad usage or input, 3 the tool failed."})
final class ClusterCommand implements Callable<Integer> {

    @Parameters(arity = "0..*", paramLabel = "INPUT", description = "Snapshot files, capture folders, bandwidth files, or folders of "
            + "them; with --pairwise or --bisect, node names.")
    List<String> inputs;

    @Mixin
    PairwiseFlags pairs;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write the report here, in the format of its extension "
            + "(.txt, .md, .json, .html, .xml, .prom; with --pairwise .txt or .json), atomically. An earlier nccl-doctor output is "
            + "replaced; any other file only with --force.")
    Path output;

    @Option(names = "--json", description = "Print the JSON form on stdout (docs/cluster.md).")
    boolean json;

    @Option(names = "--outlier-k", paramLabel = "K",
            description = "A node is slow below median − K × MAD (scaled by 1.4826). Default: 3.")
    Double outlierK;

    @Option(names = "--rules", paramLabel = "FILE", description = "Rule configuration (default: configs/rules.yaml): severities, disabled codes.")
    Path rulesFile;

    @Option(names = "--force", description = "Replace FILE even if nccl-doctor did not write it (or it is a symbolic link).")
    boolean force;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (json && output != null) {
            throw new InputException("--json and -o: give one (-o FILE.json writes the JSON form to a file)");
        }
        if (pairs.active()) {
            return pairs.run(inputs, Configs.rules(rulesFile, Registry.nodeRules()), spec.commandLine().getOut(),
                    spec.commandLine().getErr(), json, output, force);
        }
        if (inputs == null || inputs.isEmpty()) {
            throw new InputException("cluster: give snapshots, capture folders or bandwidth files (or --pairwise NODES…)");
        }
        ClusterFormat format = output != null ? ClusterFormat.of(output) : json ? ClusterFormat.JSON : ClusterFormat.TEXT;
        if (output != null) {
            OutputFile.check(output, force, "-o");
        }
        ClusterOptions options = ClusterOptions.of(outlierK, Configs.rules(rulesFile, Registry.nodeRules()));
        ClusterData data;
        try (Progress p = Progress.elapsed(spec.commandLine().getErr(), "cluster: reading " + inputs.size() + " inputs")) {
            data = new ClusterInputs(dir -> Snapshots.take(Capture.open(dir).host(), Probes.withGpus(),
                    List.of("cluster", dir.toString()), VersionInfo.toolVersion(), Clock.systemUTC())).read(inputs);
        }
        ClusterReport report = Cluster.judge(data, options, Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        PrintWriter out = spec.commandLine().getOut();
        String text = format == ClusterFormat.JSON ? JsonDocument.write(report) : format.render(report);
        if (output == null) {
            out.print(format == ClusterFormat.TEXT ? Terminal.show(text) : text);
        } else {
            Outputs.write(output, force, OutputFormat.of(null, output, OutputFormat.ALL, "cluster"), Outputs.utf8(text), "cluster");
            out.println("wrote " + output + ": " + report.verdictLine());
        }
        out.flush();
        return report.exitCode();
    }
}
