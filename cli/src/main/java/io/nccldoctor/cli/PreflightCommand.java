package io.nccldoctor.cli;

import io.nccldoctor.collectives.LibrariesProbe;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.core.Snapshots;
import io.nccldoctor.core.output.JsonDocument;
import io.nccldoctor.gdr.GpuProbe;
import io.nccldoctor.gdr.GpuSurvey;
import io.nccldoctor.gdr.NicPortProbe;
import io.nccldoctor.reports.Evaluation;
import io.nccldoctor.reports.NetworkCheck;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.PreflightReport;
import io.nccldoctor.reports.PreflightText;
import io.nccldoctor.reports.QuickCheck;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.render.NodeReport;
import io.nccldoctor.reports.rules.Registry;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "preflight", mixinStandardHelpOptions = true,
        description = {
            "Checks whether this node is fit to run an NCCL job.",
            "",
            "Looks at CPU and NUMA, the PCI devices (GPUs, NICs) and their PCIe topology, the NVIDIA driver, the CUDA "
                + "runtime and driver libraries, NCCL, and RDMA devices. Prints what it found, the findings with evidence "
                + "and remedy, and what it could not check and why."},
        footer = {"",
            "Examples:",
            "  nccl-doctor preflight                          this node, human output",
            "  nccl-doctor preflight --expect gpus=8,rdma=8   fail unless 8 GPUs and 8 RDMA devices are present",
            "  nccl-doctor preflight --profile gpu-node-8x8 --json > node.json",
            "  nccl-doctor preflight --from capture-node17/   judge a capture sent from another node",
            "  nccl-doctor preflight --quick --network        NCCL through the NICs, each NIC looped back",
            "  nccl-doctor preflight -o /var/lib/node_exporter/textfile/nccl-doctor.prom   for Prometheus (docs/metrics.md)",
            "  nccl-doctor preflight -o preflight.xml         JUnit XML: a test case per check, for CI",
            "",
            "-o FILE also writes the result, in the format of its extension: xml (JUnit), prom (Prometheus textfile), json (the "
                + "--json form), md, html, txt; atomically, so a textfile collector never reads half a file. An earlier "
                + "nccl-doctor output is replaced; any other file only with --force; a missing folder is refused.",
            "",
            "Exit codes: 0 no error-level finding, 1 an error-level finding, 2 bad usage or input, 3 the tool failed."})
final class PreflightCommand implements Callable<Integer> {

    private static final Set<OutputFormat> FORMATS = EnumSet.of(OutputFormat.JUNIT, OutputFormat.PROM, OutputFormat.JSON,
            OutputFormat.MD, OutputFormat.HTML, OutputFormat.TEXT);

    @Mixin
    HostOptions hostOptions;

    @Option(names = "--json", description = "Print the snapshot, findings and summary as JSON (docs/snapshot.md).")
    boolean json;

    @Option(names = "--expect", paramLabel = "KEY=N[,KEY=N]",
            description = "The node shape to require: gpus, nics (PCI network functions), rdma (RDMA devices). Overrides --profile.")
    String expect;

    @Option(names = "--profile", paramLabel = "NAME|FILE",
            description = "A node shape from configs/profiles/NAME.yaml, or a YAML file with an 'expect:' map.")
    String profile;

    @Option(names = "--quick", description = "Also run a short NCCL allreduce, allgather and alltoall on this node's GPUs (one child "
            + "process, 1 MiB to 64 MiB, at most --quick-timeout seconds per collective), judged against the narrowest GPU link.")
    boolean quick;

    @Option(names = "--network", description = "With --quick: the allreduce again with shared memory and P2P off (NCCL_SHM_DISABLE=1 "
            + "NCCL_P2P_DISABLE=1), forcing its traffic through the NICs, and an ib_write_bw GPU loopback per RDMA port where "
            + "perftest is installed; both judged against the ports' line rate (docs/health.md).")
    boolean network;

    @Option(names = "--quick-timeout", defaultValue = "30", paramLabel = "SECONDS",
            description = "Per collective of --quick. Default: ${DEFAULT-VALUE}.")
    int quickTimeout;

    @Mixin
    OutputOptions o;

    @Mixin
    RulesOption rulesOption;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (network && !quick) {
            throw new InputException("--network runs with --quick: give both (nccl-doctor preflight --quick --network)");
        }
        if (o.output == null && o.format != null) {
            throw new InputException("--format " + o.format + ": names the format of -o FILE; preflight prints text, or JSON with --json");
        }
        OutputFormat fmt = o.output == null ? null : OutputFormat.of(o.format, o.output, FORMATS, "preflight");
        Outputs.check(o);
        NodeShape shape = profile == null ? NodeShape.none() : Configs.profile(profile);
        if (expect != null) {
            shape = shape.overriddenBy(NodeShape.parse(expect, "--expect"));
        }
        List<Rule> rules = Registry.nodeRules();
        RuleContext context = new RuleContext(Configs.rules(rulesOption.file, rules), shape);
        List<String> argv = spec.commandLine().getParseResult().originalArgs();
        Snapshot snapshot = Snapshots.take(hostOptions.host(), Probes.node(), argv, VersionInfo.toolVersion(), Clock.systemUTC());
        Evaluation evaluation = Evaluation.of(snapshot, rules, context);
        if (quick) {
            evaluation = quick(snapshot, evaluation);
        }
        PreflightReport report = PreflightReport.of(snapshot, shape, evaluation);
        PrintWriter out = spec.commandLine().getOut();
        if (fmt != null) {
            byte[] doc = fmt == OutputFormat.JSON ? Outputs.utf8(JsonDocument.write(report))
                    : fmt == OutputFormat.TEXT ? Outputs.utf8(PreflightText.render(report, false))
                    : ReportDocuments.render(NodeReport.of(snapshot, rules, context), fmt, context.config().thresholds().results());
            Outputs.write(o.output, o.force, fmt, doc, "preflight");
        }
        out.print(json ? JsonDocument.write(report) : Terminal.show(PreflightText.render(report, false)));
        out.flush();
        return report.summary().exitCode();
    }

    /** --quick: the short NCCL run (QuickCheck), its findings added, or why it did not run added to "not checked". */
    private Evaluation quick(Snapshot snapshot, Evaluation e) {
        var host = hostOptions.host();
        Optional<String> capture = hostOptions.from == null ? Optional.empty()
                : Optional.of("a capture cannot run NCCL (--quick runs on the live node)");
        var err = spec.commandLine().getErr();
        try {
            var libs = new LibrariesProbe().run(host);
            GpuSurvey gpus = new GpuProbe().run(host);
            List<String> child = JavaSelf.argv(List.of("sweep-child"));
            Evaluation q = QuickCheck.addTo(e, snapshot, libs, gpus, capture, child, quickTimeout, System.getenv(),
                    l -> err.println("quick: " + l));
            return !network ? q : NetworkCheck.addTo(q, new NetworkCheck.Inputs(snapshot, libs, gpus, new NicPortProbe().run(host), host,
                    child, quickTimeout, System.getenv(), ""), capture, l -> err.println("quick: " + l));
        } catch (IOException ex) {
            throw new IllegalStateException("--quick: " + ex.getMessage(), ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return e;
        }
    }
}
