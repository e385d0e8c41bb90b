package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.GdrLevel;
import io.nccldoctor.pcie.DeviceKind;
import io.nccldoctor.pcie.NcclPathTypes;
import io.nccldoctor.pcie.PciDevice;
import io.nccldoctor.pcie.SmiTopoMatrix;
import io.nccldoctor.pcie.Topology;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import io.nccldoctor.reports.TopologyView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A GPU whose nearest NIC is farther than PXB: NCCL's default GDR threshold (nccl-internals §4.2), so its network
 * traffic is staged through host memory. The field report's "GPU Direct RDMA Disabled (distance 8 > 5)".
 */
public final class GdrDisabledByDistance implements Rule {

    static final RuleInfo INFO = new RuleInfo("GDR_DISABLED_BY_DISTANCE", Severity.WARN,
            "GPU and its nearest NIC are farther apart than PXB: NCCL disables GPUDirect RDMA by default",
            "NCCL uses GPUDirect RDMA for a GPU-NIC pair only when their PCIe path is at most NCCL_NET_GDR_LEVEL, by "
                    + "default PXB: both behind a PCIe switch. When the path crosses the CPU root complex (PHB) or the "
                    + "socket interconnect (SYS), NCCL logs 'GPU Direct RDMA Disabled for GPU ... (distance D > T)' and "
                    + "stages every transfer through host memory; the numbers D and T are PATH_* values that differ by "
                    + "NCCL version (8 > 5 in 2.27.5+ is PHB > PXB). NCCL_NET_GDR_LEVEL=PHB (exactly so: lower case is "
                    + "silently ignored) enables it anyway, which is safe on server platforms but not on Intel client "
                    + "CPUs, where NIC reads from GPU memory across root ports fail without any error.",
            "the PCIe path of every GPU to its nearest NIC (sysfs), and the NCCL version's PATH_* numbering",
            "Put GPU and NIC behind one PCIe switch or on one root port's switch (the real fix), or set "
                    + "NCCL_NET_GDR_LEVEL=PHB per job after checking NIC reads with `ib_read_bw --use_cuda` "
                    + "(never on an Intel client platform); keep the same NUMA node at least.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        var topology = GpuNicPaths.topology(s, ctx);
        SmiTopoMatrix smi = s.section(SmiTopoMatrix.KEY, SmiTopoMatrix.class);
        if (topology.isEmpty() && smi != null && !smi.p2p()) { // a pasted nvidia-smi matrix, without a PCI tree
            String raw = s.env().get("NCCL_NET_GDR_LEVEL");
            GdrLevel level = GdrLevel.parse(raw, ctx.ncclVersion().orElse(NcclPathTypes.NEWEST));
            return raw == null ? SmiGdrDistances.outcome(this, smi, "PXB", SmiGdrDistances.DEFAULT)
                    : SmiGdrDistances.outcome(this, smi, level.name(), level.source());
        }
        if (topology.isEmpty()) {
            return Outcome.waived("the PCI bus could not be read");
        }
        Topology t = topology.get();
        List<GpuNicPaths.Nearest> nearest = GpuNicPaths.nearest(t);
        if (nearest.isEmpty()) {
            return Outcome.waived("needs an NVIDIA GPU and a NIC");
        }
        String unplaced = unknownPaths(s, t);
        if (unplaced != null) {
            return Outcome.waived(unplaced);
        }
        String v = t.ncclVersion();
        // The level NCCL will use: NCCL_NET_GDR_LEVEL from the environment when NCCL accepts it, else PXB.
        GdrLevel level = GdrLevel.parse(s.env().get("NCCL_NET_GDR_LEVEL"), v);
        int threshold = level.number();
        List<Finding> findings = new ArrayList<>();
        for (GpuNicPaths.Nearest n : nearest) {
            Topology.Pair p = n.pairs().get(0);
            if (p.ncclNumber() <= threshold) {
                continue;
            }
            String nic = GpuNicPaths.other(p, n.gpu().label());
            findings.add(finding(n.gpu().label() + "-" + nic, n.gpu().label() + " " + n.gpu().address() + " reaches its nearest NIC "
                    + nic + " (" + t.endpoint(nic).name() + ") through " + p.ncclPath() + ": GPUDirect RDMA off by default",
                    List.of("path " + p.smiPath() + " (nvidia-smi), PATH_" + p.ncclPath() + " = " + p.ncclNumber() + " in NCCL " + v
                                    + " (" + t.ncclVersionSource() + ")", "threshold " + level.name() + " = " + threshold + ": " + level.source(),
                            "NCCL will log: GPU Direct RDMA Disabled ... (distance " + p.ncclNumber() + " > " + threshold + ") = "
                                    + NcclPathTypes.decodeDistance(p.ncclNumber(), threshold, v),
                            "NCCL_NET_GDR_LEVEL=" + p.ncclPath() + " would enable it for this pair")));
        }
        return findings.isEmpty() ? Outcome.pass() : Outcome.flag(findings);
    }

    /**
     * Why the nearest NIC of a GPU cannot be told, or null: a GPU or NIC whose PCIe path the input does not give (a
     * plain lspci listing, a cut tree) would be judged on a made-up path, and one NIC of unknown path may be the
     * nearest of every GPU.
     */
    private static String unknownPaths(Snapshot s, Topology t) {
        Map<String, PciDevice> byAddress = new HashMap<>();
        TopologyView.devices(s).orElse(List.of()).forEach(d -> byAddress.put(d.address(), d));
        List<String> unknown = new ArrayList<>();
        String why = null;
        for (Topology.Endpoint e : t.endpoints()) {
            PciDevice d = byAddress.get(e.address());
            if (d != null && !d.sysfsPath().isValue() && (e.kind() == DeviceKind.GPU || e.kind() == DeviceKind.NIC)) {
                unknown.add(e.label());
                why = why != null ? why : d.sysfsPath().reason();
            }
        }
        return unknown.isEmpty() ? null : "the PCIe path of " + String.join(", ", unknown) + " is not in the input (" + why
                + "), so the distance from each GPU to its nearest NIC cannot be told";
    }
}
