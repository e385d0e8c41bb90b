package io.nccldoctor.cli;

import io.nccldoctor.core.Probe;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.core.Snapshots;
import io.nccldoctor.core.output.JsonDocument;
import io.nccldoctor.reports.Evaluation;
import io.nccldoctor.reports.GdrReport;
import io.nccldoctor.reports.GdrText;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.rules.Registry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "gdr", mixinStandardHelpOptions = true,
        description = {
            "Says whether GPUDirect RDMA will be used, per GPU-NIC pair, and why not.",
            "",
            "Checks the host (kernel and DMA-BUF, IOMMU, nvidia_peermem, rdma-core and ibv_reg_dmabuf_mr), each GPU "
                + "through CUDA and NVML (brand, GPUDirect RDMA and DMA-BUF attributes, P2P read and write), each RDMA "
                + "port (state, rate, GIDs, MTU, ARP), and predicts NCCL's decision for every pair from the PCIe path, "
                + "the NCCL version and NCCL_NET_GDR_LEVEL / NCCL_NET_GDR_READ as NCCL parses them."},
        footer = {"",
            "Examples:",
            "  nccl-doctor gdr",
            "  NCCL_NET_GDR_LEVEL=PHB nccl-doctor gdr --nccl-version 2.27.5",
            "  nccl-doctor gdr --active                     try the registrations for real",
            "  nccl-doctor gdr --active --perftest-peer n2  NIC-read and NIC-write bandwidth per GPU-HCA pair",
            "  nccl-doctor gdr --active --perftest-netns rdma1/mlx5_1",
            "                                    the same on one node, mlx5_1's port moved into namespace rdma1",
            "  nccl-doctor gdr --from node17-capture --json",
            "  nccl-doctor gdr --from node17-capture --env NCCL_NET_GDR_LEVEL=PHB   what if the level were PHB",
            "  nccl-doctor gdr -o gdr.json                  the --json form in a file",
            "",
            "-o FILE writes the result as txt or json (by the extension, or --format); an earlier nccl-doctor output is replaced, "
                + "any other file only with --force.",
            "",
            "Exit codes: 0 no error-level finding, 1 an error-level finding, 2 bad usage or input, 3 the tool failed."})
final class GdrCommand implements Callable<Integer> {

    private static final Set<OutputFormat> FORMATS = EnumSet.of(OutputFormat.TEXT, OutputFormat.JSON);

    @Mixin
    HostOptions hostOptions;

    @Mixin
    OutputOptions o;

    @Mixin
    RulesOption rulesOption;

    @Option(names = "--json", description = "Print the snapshot, the decisions and the findings as JSON (the form of -o FILE.json).")
    boolean json;

    @Option(names = "--active", description = "Also register GPU memory with every HCA for real (DMA-BUF and peer-memory "
            + "client) and run NCCL's DMA-BUF probe; allocates 2 MiB per GPU.")
    boolean active;

    @Option(names = "--perftest-peer", paramLabel = "HOST",
            description = "With --active: measure each GPU-HCA pair in both directions against HOST, which serves "
                    + "`ib_write_bw -d HCA -p PORT` and `ib_read_bw -d HCA -p PORT+1` in loops (ib_write_bw makes this NIC read "
                    + "GPU memory, ib_read_bw makes it write GPU memory).")
    String perftestPeer;

    @Option(names = "--perftest-netns", paramLabel = "NS/HCA",
            description = "With --active, instead of a peer: HCA's netdev has been moved into network namespace NS (so "
                    + "traffic leaves one port, crosses the switch and returns, instead of the kernel's shortcut); the servers "
                    + "run there with `ip netns exec`, the other ports' GPU pairs are measured against it. Set-up: docs/gdr.md.")
    String perftestNetns;

    @Option(names = "--perftest-port", defaultValue = "18515", paramLabel = "PORT", description = "ib_write_bw's port; ib_read_bw uses PORT+1. Default: ${DEFAULT-VALUE}.")
    int perftestPort;

    @Option(names = "--perftest-bin", defaultValue = "", paramLabel = "DIR", description = "Folder of ib_write_bw and ib_read_bw (default: PATH).")
    String perftestBin;

    @Option(names = "--perftest-dmabuf", description = "Register GPU memory as a DMA-BUF (--use_cuda_dmabuf) instead of through the peer-memory client.")
    boolean perftestDmabuf;

    @Option(names = "--perftest-timeout", defaultValue = "60", paramLabel = "SECONDS", description = "Per run; a run past it counts as failed. Default: ${DEFAULT-VALUE}.")
    long perftestTimeout;

    @Option(names = "--nccl-version", paramLabel = "X.Y.Z",
            description = "Predict for this NCCL version (default: the NCCL this node loads, else the newest known).")
    String ncclVersion;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        OutputFormat fmt = Outputs.format(o, json, FORMATS, "gdr");
        Outputs.check(o);
        List<Probe<?>> probes = GdrProbes.of(active, new GdrProbes.Perftest(perftestPeer, perftestNetns, perftestPort, perftestBin,
                perftestDmabuf, perftestTimeout));
        Snapshot s = Snapshots.take(hostOptions.host(), probes, spec.commandLine().getParseResult().originalArgs(),
                VersionInfo.toolVersion(), Clock.systemUTC());
        List<Rule> rules = new ArrayList<>(Registry.gdrRules());
        rules.addAll(Registry.gdrTopologyRules());
        Optional<String> version = Optional.ofNullable(ncclVersion);
        Evaluation e = Evaluation.of(s, rules, new RuleContext(Configs.rules(rulesOption.file, Registry.nodeRules()), NodeShape.none(), version));
        GdrReport report = GdrReport.of(s, version, e);
        byte[] doc = Outputs.utf8(fmt == OutputFormat.JSON ? JsonDocument.write(report) : GdrText.render(report));
        Outputs.emit(spec.commandLine().getOut(), o, fmt, doc, "gdr", "");
        return report.exitCode();
    }
}
