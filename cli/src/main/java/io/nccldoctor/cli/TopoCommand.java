package io.nccldoctor.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Json;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.core.Snapshots;
import io.nccldoctor.core.output.JsonDocument;
import io.nccldoctor.core.output.OutputFile;
import io.nccldoctor.pcie.LspciFragment;
import io.nccldoctor.pcie.PciReading;
import io.nccldoctor.pcie.Topology;
import io.nccldoctor.reports.Evaluation;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.TopoReport;
import io.nccldoctor.reports.TopoText;
import io.nccldoctor.reports.TopologyView;
import io.nccldoctor.reports.rules.Registry;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.InputException;
import io.nccldoctor.pcie.TopologyComparison;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "topo", mixinStandardHelpOptions = true,
        description = {
            "Shows the PCIe topology as NCCL sees it.",
            "",
            "A GPU/NIC matrix in nvidia-smi's vocabulary (X, PIX, PXB, PHB, NODE, SYS), NCCL's path type and PATH_* "
                + "number for every pair in the numbering of a given NCCL version, the narrowest link of each pair with "
                + "its usable bandwidth, and the topology findings (GPUDirect RDMA off by distance, NUMA mismatch, Intel "
                + "client P2P reads, ACS redirect, degraded links, AER errors)."},
        footer = {"",
            "Examples:",
            "  nccl-doctor topo                              this node",
            "  nccl-doctor topo --nccl-version 2.18.3        PATH_* numbers as NCCL 2.18.3 logs them",
            "  nccl-doctor topo --from node17-capture --json",
            "  nccl-doctor topo --from node17-capture -o node17-topo.txt",
            "",
            "-o FILE writes the result as txt or json (by the extension, or --format); an earlier nccl-doctor output is replaced, "
                + "any other file only with --force. --emit-nccl-topo-xml FILE writes the tree for NCCL_TOPO_FILE (an existing file there, "
                + "or a symbolic link, only with --force).",
            "",
            "Exit codes: 0 no error-level finding, 1 an error-level finding, 2 bad usage or input, 3 the tool failed."})
final class TopoCommand implements Callable<Integer> {

    private static final Set<OutputFormat> FORMATS = EnumSet.of(OutputFormat.TEXT, OutputFormat.JSON);

    @Mixin
    HostOptions hostOptions;

    @Mixin
    OutputOptions o;

    @Mixin
    RulesOption rulesOption;

    @Option(names = "--json", description = "Print the snapshot, topology and findings as JSON (the form of -o FILE.json).")
    boolean json;

    @Option(names = "--nccl-version", paramLabel = "X.Y.Z",
            description = "Number path types as this NCCL version does (default: the NCCL this node loads, else the newest known).")
    String ncclVersion;

    @Mixin
    TopoSources sources;

    @Mixin
    TopoExport export;

    @Option(names = "--compare-nvidia-smi", paramLabel = "FILE|live",
            description = "Compare with `nvidia-smi topo -m` output (a file, or 'live' to run it) and list every pair that differs.")
    String compareSmi;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        OutputFormat fmt = Outputs.format(o, json, FORMATS, "topo");
        Outputs.check(o);
        List<String> argv = spec.commandLine().getParseResult().originalArgs();
        if (sources.given() && hostOptions.from != null) {
            throw new InputException("--from reads a capture; --lspci-* and --nccl-topo-xml read text: give one source");
        }
        PciReading reading = sources.given() ? sources.reading() : null;
        Host host = reading != null ? null : hostOptions.host();
        Snapshot s = reading != null ? hostOptions.onText(TopoSources.snapshot(reading, argv, VersionInfo.toolVersion()))
                : Snapshots.take(host, Probes.node(), argv, VersionInfo.toolVersion(), Clock.systemUTC());
        List<String> notUnderstood = reading != null ? reading.notUnderstood() : List.of();
        List<LspciFragment> fragments = reading != null ? reading.fragments() : List.of();
        Optional<String> version = Optional.ofNullable(ncclVersion);
        RuleContext ctx = new RuleContext(Configs.rules(rulesOption.file, Registry.nodeRules()), NodeShape.none(), version);
        Evaluation e = Evaluation.of(s, Registry.topologyRules(), ctx);
        Fact<Topology> topology = TopologyView.of(s, version).map(Fact::of)
                .orElseGet(() -> Fact.absent("the PCI bus could not be read"));
        Fact<TopologyComparison> comparison = compareSmi == null ? Fact.absent("not asked (--compare-nvidia-smi)")
                : topology.map(t -> TopologyComparison.of(t, SmiSource.matrix(compareSmi, host)));
        PrintWriter out = spec.commandLine().getOut();
        export.force = o.force;
        String wrote = export.write(s);
        if (wrote != null) {
            spec.commandLine().getErr().println(wrote);
        }
        if (fmt == OutputFormat.JSON) {
            TopoReport report = TopoReport.of(s, TopologyView.platform(s), topology, comparison, fragments, notUnderstood, e);
            json(out, report);
        } else {
            Outputs.emit(out, o, fmt, Outputs.utf8(text(s, topology, comparison, fragments, notUnderstood, e)), "topo", "");
        }
        out.flush();
        return e.exitCode();
    }

    /** Streamed: the pairs are computed as they are written, never all held at once (2,000 GPUs make millions). */
    private void json(PrintWriter out, TopoReport report) throws IOException {
        ObjectWriter w = Json.mapper().writer().without(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        if (o.output == null) {
            w.writeValue(JsonDocument.streaming(out), report);
            out.println();
            return;
        }
        OutputFile.write(o.output, stream -> {
            Writer file = JsonDocument.streaming(new OutputStreamWriter(stream, StandardCharsets.UTF_8));
            w.writeValue(file, report);
            file.write("\n");
            file.flush();
        }, o.force, "-o");
        out.println("wrote " + o.output + " (json)");
    }

    private static String text(Snapshot s, Fact<Topology> topology, Fact<TopologyComparison> comparison, List<LspciFragment> fragments,
                               List<String> notUnderstood, Evaluation e) {
        if (!topology.isValue()) {
            return "No topology: " + topology.reason() + "\n";
        }
        StringBuilder t = new StringBuilder(TopoText.render(topology.get(), TopologyView.devices(s).orElseThrow(), TopologyView.platform(s),
                e.findings(), comparison.map(TopologyComparison::nvlinkCells).orElse(Map.of()), TopologyView.census(s).orElseThrow(), fragments));
        if (comparison.isValue()) {
            t.append(TopoText.comparison(comparison.get()));
        }
        notUnderstood.forEach(p -> t.append("not understood: ").append(p).append('\n'));
        return t.toString();
    }
}
