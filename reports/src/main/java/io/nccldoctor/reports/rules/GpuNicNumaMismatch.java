package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.pcie.SmiPath;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;

/** A GPU with no NIC on its own NUMA node: all its network traffic crosses the socket interconnect. */
public final class GpuNicNumaMismatch implements Rule {

    static final RuleInfo INFO = new RuleInfo("GPU_NIC_NUMA_MISMATCH", Severity.WARN,
            "GPU has no NIC on its NUMA node",
            "When the nearest NIC of a GPU hangs off the other socket (path SYS), every byte between that GPU and the "
                    + "network crosses the socket interconnect (UPI, Infinity Fabric): GPUDirect RDMA is off by default, "
                    + "bounce buffers live on the wrong node, and the interconnect becomes a shared bottleneck.",
            "the PCIe path of every GPU to its nearest NIC and the NUMA node of each (sysfs numa_node)",
            "Move the NIC (or the GPU) to a slot of the same socket, or add a NIC per socket; pin the job's CPU "
                    + "threads and memory to the GPU's NUMA node meanwhile (numactl, Slurm --gpu-bind/--cpu-bind).");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        var topology = GpuNicPaths.topology(s, ctx);
        if (topology.isEmpty()) {
            return Outcome.waived("the PCI bus could not be read");
        }
        List<GpuNicPaths.Nearest> nearest = GpuNicPaths.nearest(topology.get());
        if (nearest.isEmpty()) {
            return Outcome.waived("needs an NVIDIA GPU and a NIC");
        }
        List<Finding> findings = new ArrayList<>();
        for (GpuNicPaths.Nearest n : nearest) {
            if (n.path() != SmiPath.SYS) {
                continue;
            }
            String nic = GpuNicPaths.other(n.pairs().get(0), n.gpu().label());
            var nicEnd = topology.get().endpoint(nic);
            findings.add(finding(n.gpu().label(), n.gpu().label() + " on NUMA node " + n.gpu().numaNode().describe()
                    + ", nearest NIC " + nic + " (" + nicEnd.name() + ") on node " + nicEnd.numaNode().describe(),
                    List.of(n.gpu().label() + " " + n.gpu().address() + " numa_node " + n.gpu().numaNode().describe(),
                            nic + " " + nicEnd.address() + " numa_node " + nicEnd.numaNode().describe(), "path SYS")));
        }
        return findings.isEmpty() ? Outcome.pass() : Outcome.flag(findings);
    }
}
