package io.nccldoctor.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Json;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.core.Snapshots;
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
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
            "",
            "Exit codes: 0 no error-level finding, 1 an error-level finding, 2 bad usage or input, 3 the tool failed."})
final class TopoCommand implements Callable<Integer> {

    @Mixin
    HostOptions hostOptions;

    @Option(names = "--json", description = "Print the snapshot, topology and findings as JSON.")
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
        List<String> argv = spec.commandLine().getParseResult().originalArgs();
        if (sources.given() && hostOptions.from != null) {
            throw new InputException("--from reads a capture; --lspci-* and --nccl-topo-xml read text: give one source");
        }
        PciReading reading = sources.given() ? sources.reading() : null;
        Host host = reading != null ? null : hostOptions.host();
        Snapshot s = reading != null ? TopoSources.snapshot(reading, argv, VersionInfo.toolVersion())
                : Snapshots.take(host, Probes.node(), argv, VersionInfo.toolVersion(), Clock.systemUTC());
        List<String> notUnderstood = reading != null ? reading.notUnderstood() : List.of();
        List<LspciFragment> fragments = reading != null ? reading.fragments() : List.of();
        Optional<String> version = Optional.ofNullable(ncclVersion);
        RuleContext ctx = new RuleContext(Configs.rules(null, Registry.nodeRules()), NodeShape.none(), version);
        Evaluation e = Evaluation.of(s, Registry.topologyRules(), ctx);
        Fact<Topology> topology = TopologyView.of(s, version).map(Fact::of)
                .orElseGet(() -> Fact.absent("the PCI bus could not be read"));
        Fact<TopologyComparison> comparison = compareSmi == null ? Fact.absent("not asked (--compare-nvidia-smi)")
                : topology.map(t -> TopologyComparison.of(t, SmiSource.matrix(compareSmi, host)));
        var out = spec.commandLine().getOut();
        String wrote = export.write(s);
        if (wrote != null) {
            spec.commandLine().getErr().println(wrote);
        }
        if (json) {
            // streamed: the pairs are computed as they are written, never all held at once
            Json.mapper().writer().without(JsonGenerator.Feature.AUTO_CLOSE_TARGET).writeValue(out, TopoReport.of(s, TopologyView.platform(s), topology, comparison, fragments, notUnderstood, e));
            out.println();
        } else if (topology.isValue()) {
            out.print(TopoText.render(topology.get(), TopologyView.devices(s).orElseThrow(), TopologyView.platform(s), e.findings(),
                    comparison.map(TopologyComparison::nvlinkCells).orElse(Map.of()), TopologyView.census(s).orElseThrow(), fragments));
            comparison.map(c -> {
                out.print(TopoText.comparison(c));
                return c;
            });
            notUnderstood.forEach(p -> out.println("not understood: " + p));
        } else {
            out.println("No topology: " + topology.reason());
        }
        out.flush();
        return e.exitCode();
    }
}
