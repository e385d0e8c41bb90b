package io.nccldoctor.cli;

import io.nccldoctor.collectives.LibrariesProbe;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.core.Snapshots;
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
import io.nccldoctor.reports.rules.Registry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
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
            "  nccl-doctor preflight --quick --network        also push NCCL traffic through the NICs and loop each NIC back",
            "  nccl-doctor preflight -o /var/lib/node_exporter/textfile/nccl-doctor.prom   for Prometheus (docs/metrics.md)",
            "  nccl-doctor preflight -o preflight.xml         JUnit XML: a test case per check, for CI",
            "",
            "Exit codes: 0 no error-level finding, 1 an error-level finding, 2 bad usage or input, 3 the tool failed."})
final class PreflightCommand implements Callable<Integer> {

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

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Also write the result to FILE, in the format of its extension: .xml (JUnit), .prom (Prometheus textfile), "
                    + ".json, .md, .html; replaced atomically, so a textfile collector never reads half a file. A file of ours "
                    + "from an earlier run is replaced; any other file only with --force.")
    Path output;

    @Option(names = "--force", description = "Replace -o FILE even if it is not an earlier nccl-doctor output.")
    boolean force;

    @Option(names = "--rules", paramLabel = "FILE",
            description = "Rule configuration (severity overrides, disabled codes, thresholds); default configs/rules.yaml.")
    Path rulesFile;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (network && !quick) {
            throw new InputException("--network runs with --quick: give both (nccl-doctor preflight --quick --network)");
        }
        NodeShape shape = profile == null ? NodeShape.none() : Configs.profile(profile);
        if (expect != null) {
            shape = shape.overriddenBy(NodeShape.parse(expect, "--expect"));
        }
        List<Rule> rules = Registry.nodeRules();
        RuleContext context = new RuleContext(Configs.rules(rulesFile, rules), shape);
        List<String> argv = spec.commandLine().getParseResult().originalArgs();
        Snapshot snapshot = Snapshots.take(hostOptions.host(), Probes.node(), argv, VersionInfo.toolVersion(), Clock.systemUTC());
        Evaluation evaluation = Evaluation.of(snapshot, rules, context);
        if (quick) {
            evaluation = quick(snapshot, evaluation);
        }
        PreflightReport report = PreflightReport.of(snapshot, shape, evaluation);
        var out = spec.commandLine().getOut();
        if (output != null) {
            write(snapshot, rules, context);
        }
        out.print(json ? Json.write(report) : PreflightText.render(report, Terminal.colour()));
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

    /** The same judgement as a one-node report, in the format of the file's extension (a status file: ours is replaced). */
    private void write(Snapshot snapshot, List<Rule> rules, RuleContext context) {
        String fmt = ReportCommand.format(null, output);
        if (java.nio.file.Files.exists(output) && !force && !ours(output)) {
            throw new InputException("-o " + output + ": exists and is not an earlier nccl-doctor output; give another name, or --force");
        }
        var data = new io.nccldoctor.reports.results.ResultSet("nccl-doctor preflight: " + snapshot.hostName(), false,
                snapshot.createdAt(), List.of(snapshot.hostName()), List.of(snapshot), List.of(), List.of(), List.of());
        var r = io.nccldoctor.reports.results.Reports.judgeNodes(data, rules, context);
        String text = switch (fmt) {
            case "junit" -> io.nccldoctor.reports.render.JUnitReport.render(r);
            case "prom" -> io.nccldoctor.reports.render.PrometheusReport.render(r);
            case "md" -> io.nccldoctor.reports.render.MarkdownReport.render(r);
            case "html" -> io.nccldoctor.reports.html.HtmlReport.render(r, context.config().thresholds().results());
            case "json" -> Json.write(r);
            default -> throw new InputException("-o " + output + ": preflight writes .xml, .prom, .json, .md or .html");
        };
        ReportCommand.write(output, text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** Whether the file's first kilobyte names nccl-doctor (every format writes it near the top). */
    static boolean ours(Path file) {
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(file)) {
            String head = new String(in.readNBytes(1024), java.nio.charset.StandardCharsets.UTF_8);
            return head.contains("nccl-doctor") || head.contains("nccl_doctor");
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
