package io.nccldoctor.cli;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Json;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.core.Snapshots;
import io.nccldoctor.pcie.Topology;
import io.nccldoctor.reports.Evaluation;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.TopoReport;
import io.nccldoctor.reports.TopoText;
import io.nccldoctor.reports.TopologyView;
import io.nccldoctor.reports.rules.Registry;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "topo", mixinStandardHelpOptions = true,
        description = {
            "Shows the PCIe topology as NCCL sees it: a GPU/NIC matrix in nvidia-smi's vocabulary (X, PIX, PXB, PHB,",
            "NODE, SYS), NCCL's path type and PATH_* number for every pair in the numbering of a given NCCL version,",
            "the narrowest link of each pair with its usable bandwidth, and the topology findings (GPUDirect RDMA",
            "off by distance, NUMA mismatch, Intel client P2P reads, ACS redirect, degraded links, AER errors)."},
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

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        Snapshot s = Snapshots.take(hostOptions.host(), Probes.node(), spec.commandLine().getParseResult().originalArgs(),
                VersionInfo.toolVersion(), Clock.systemUTC());
        Optional<String> version = Optional.ofNullable(ncclVersion);
        RuleContext ctx = new RuleContext(Configs.rules(null, Registry.nodeRules()), NodeShape.none(), version);
        Evaluation e = Evaluation.of(s, Registry.topologyRules(), ctx);
        Fact<Topology> topology = TopologyView.of(s, version).map(Fact::of)
                .orElseGet(() -> Fact.absent("the PCI bus could not be read"));
        var out = spec.commandLine().getOut();
        if (json) {
            out.print(Json.write(TopoReport.of(s, TopologyView.platform(s), topology, e)));
        } else if (topology.isValue()) {
            out.print(TopoText.render(topology.get(), TopologyView.devices(s).orElseThrow(), TopologyView.platform(s), e.findings()));
        } else {
            out.println("No topology: " + topology.reason());
        }
        out.flush();
        return e.exitCode();
    }
}
