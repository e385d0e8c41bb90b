package io.nccldoctor.cli;

import io.nccldoctor.core.Json;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.core.Snapshots;
import io.nccldoctor.gdr.RegistrationProbe;
import io.nccldoctor.reports.Evaluation;
import io.nccldoctor.reports.GdrReport;
import io.nccldoctor.reports.GdrText;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.rules.Registry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
            "",
            "Exit codes: 0 no error-level finding, 1 an error-level finding, 2 bad usage or input, 3 the tool failed."})
final class GdrCommand implements Callable<Integer> {

    @Mixin
    HostOptions hostOptions;

    @Option(names = "--json", description = "Print the snapshot, the decisions and the findings as JSON.")
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
        List<io.nccldoctor.core.Probe<?>> probes = new ArrayList<>(Probes.withGpus());
        if ((perftestPeer != null || perftestNetns != null) && !active) {
            throw new io.nccldoctor.core.InputException((perftestPeer != null ? "--perftest-peer" : "--perftest-netns")
                    + " runs traffic: give --active with it");
        }
        if (perftestPeer != null && perftestNetns != null) {
            throw new io.nccldoctor.core.InputException("--perftest-peer and --perftest-netns are two ways to measure: give one");
        }
        Optional<io.nccldoctor.gdr.PerftestMatrixProbe.Loopback> loopback = Optional.empty();
        if (perftestNetns != null) {
            loopback = io.nccldoctor.gdr.PerftestMatrixProbe.Loopback.parse(perftestNetns, "ip");
            if (loopback.isEmpty()) {
                throw new io.nccldoctor.core.InputException("--perftest-netns '" + perftestNetns
                        + "': expected NAMESPACE/HCA, e.g. rdma1/mlx5_1 (the namespace holding that HCA's netdev)");
            }
        }
        if (active) {
            probes.add(new RegistrationProbe());
            if (perftestPeer != null || loopback.isPresent()) {
                if (perftestPort < 1 || perftestPort > 65534 || perftestTimeout < 1) {
                    throw new io.nccldoctor.core.InputException("--perftest-port " + perftestPort + " --perftest-timeout " + perftestTimeout
                            + ": the port must be 1 to 65534 (PORT+1 is used too) and the timeout at least 1 s");
                }
                java.time.Duration t = java.time.Duration.ofSeconds(perftestTimeout);
                probes.add(loopback.isPresent()
                        ? io.nccldoctor.gdr.PerftestMatrixProbe.loopback(loopback.get(), perftestBin, perftestPort, perftestDmabuf, t)
                        : new io.nccldoctor.gdr.PerftestMatrixProbe(perftestPeer, perftestBin, perftestPort, perftestDmabuf, t));
            }
        }
        Snapshot s = Snapshots.take(hostOptions.host(), probes, spec.commandLine().getParseResult().originalArgs(),
                VersionInfo.toolVersion(), Clock.systemUTC());
        List<Rule> rules = new ArrayList<>(Registry.gdrRules());
        rules.addAll(Registry.gdrTopologyRules());
        Optional<String> version = Optional.ofNullable(ncclVersion);
        Evaluation e = Evaluation.of(s, rules, new RuleContext(Configs.rules(null, Registry.nodeRules()), NodeShape.none(), version));
        GdrReport report = GdrReport.of(s, version, e);
        var out = spec.commandLine().getOut();
        out.print(json ? Json.write(report) : GdrText.render(report));
        out.flush();
        return report.exitCode();
    }
}
