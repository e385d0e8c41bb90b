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
 * A GPU whose nearest NIC is farther than NCCL's GDR threshold (PXB; P2C from 2.29 while NCCL_NET_GDR_C2C is on;
 * nccl-internals §4.2), so its network traffic is staged through host memory. The field report's "GPU Direct RDMA
 * Disabled (distance 8 > 5)". Judged as ncclTopoCheckGdr decides (src/graph/paths.cc@v2.30.7-1 L485-486 before L511):
 * a topology file's gdr="0" on the NIC's nets or the GPU turns GDR off before the distance counts, so such a pair is
 * not a distance finding and no NCCL_NET_GDR_LEVEL would help; a pair whose path the text does not show is not judged,
 * unless the text bounds it: below two root buses of a tree without NUMA nodes it is PHB or SYS, at least PHB, which
 * decides against a threshold below PHB (the finding says the exact type is unknown) but not against PHB itself.
 */
public final class GdrDisabledByDistance implements Rule {

    static final RuleInfo INFO = new RuleInfo("GDR_DISABLED_BY_DISTANCE", Severity.WARN,
            "GPU and its nearest NIC are farther apart than PXB: NCCL disables GPUDirect RDMA by default",
            "NCCL uses GPUDirect RDMA for a GPU-NIC pair only when both support it (an NCCL topology file's gdr=\"0\" on the "
                    + "NIC's net or the GPU turns it off before any distance counts) and their PCIe path is at most "
                    + "NCCL_NET_GDR_LEVEL, by default PXB (P2C from NCCL 2.29 while NCCL_NET_GDR_C2C is on): both behind "
                    + "a PCIe switch. When the path crosses the CPU root complex (PHB) or the "
                    + "socket interconnect (SYS), NCCL stages every transfer through host memory: its channel lines say "
                    + "'via NET/IB/0' without '/GDRDMA', and NCCL 2.6 to 2.29 log 'GPU Direct RDMA Disabled for GPU ... "
                    + "(distance D > T)' (from 2.30 only a TRACE build prints it, src/graph/paths.cc), where D and T are "
                    + "PATH_* values that differ by NCCL version (8 > 5 in 2.27.5+ is PHB > PXB). "
                    + "NCCL_NET_GDR_LEVEL=PHB (exactly so: lower case is "
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
        // The level NCCL will use: NCCL_NET_GDR_LEVEL from the environment when NCCL accepts it, else its default.
        GdrLevel level = GdrLevel.parse(s.env().get("NCCL_NET_GDR_LEVEL"), t.ncclVersion());
        List<Finding> findings = new ArrayList<>();
        List<String> notJudged = new ArrayList<>();
        for (GpuNicPaths.Nearest n : nearest) {
            Topology.Pair p = distanceDecides(t, n, level, notJudged);
            if (p != null) {
                findings.add(p.shown().isValue() ? finding(t, n.gpu(), p, level) : boundFinding(t, n, p, level));
            }
        }
        if (!findings.isEmpty()) {
            return Outcome.flag(findings);
        }
        return notJudged.isEmpty() ? Outcome.pass() : Outcome.waived(String.join("; ", notJudged));
    }

    /**
     * The nearest pair whose distance turns GPUDirect RDMA off, or null: when a nearest NIC gets it, when a gdr="0" of
     * the topology file turns it off whatever the distance (ncclTopoCheckGdr checks the attributes first, so no
     * NCCL_NET_GDR_LEVEL enables it: GDR_OFF_IN_NCCL_TOPOLOGY says so), or when the text does not show the path of a
     * nearest pair (then which NIC is nearest is not known either); the last two are said in {@code notJudged}.
     */
    private static Topology.Pair distanceDecides(Topology t, GpuNicPaths.Nearest n, GdrLevel level, List<String> notJudged) {
        Topology.Pair byDistance = null;
        String why = null;
        boolean unknownPath = false;
        for (Topology.Pair p : n.pairs()) {
            Topology.GdrVerdict g = t.gdr(p, level.name(), level.number());
            String pair = n.gpu().label() + "-" + GpuNicPaths.other(p, n.gpu().label());
            if (g.on().isValue() && g.on().get()) {
                return null;
            }
            if (g.byAttribute()) {
                why = why != null ? why : pair + ": GPUDirect RDMA off whatever the distance: " + g.why();
            } else if (!g.on().isValue()) {
                unknownPath = true;
                why = why != null ? why : pair + ": the distance is not checked, because " + g.why();
            } else if (byDistance == null) {
                byDistance = p;
            }
        }
        if ((byDistance == null || unknownPath) && why != null) {
            notJudged.add(why);
            return null;
        }
        return byDistance;
    }

    private Finding finding(Topology t, Topology.Endpoint gpu, Topology.Pair p, GdrLevel level) {
        String v = t.ncclVersion();
        int threshold = level.number();
        String nic = GpuNicPaths.other(p, gpu.label());
        return finding(gpu.label() + "-" + nic, gpu.label() + " " + gpu.address() + " reaches its nearest NIC "
                + nic + " (" + t.endpoint(nic).name() + ") through " + p.ncclPath() + ": GPUDirect RDMA off by default",
                List.of("path " + p.smiPath() + " (nvidia-smi), PATH_" + p.ncclPath() + " = " + p.ncclNumber() + " in NCCL " + v
                                + " (" + t.ncclVersionSource() + ")", "threshold " + level.name() + " = " + threshold + ": " + level.source(),
                        "NCCL will log: GPU Direct RDMA Disabled ... (distance " + p.ncclNumber() + " > " + threshold + ") = "
                                + NcclPathTypes.decodeDistance(p.ncclNumber(), threshold, v),
                        "NCCL_NET_GDR_LEVEL=" + p.ncclPath() + " would enable it for this pair"));
    }

    /**
     * A GPU whose every nearest-NIC candidate is below another root bus of a tree without NUMA nodes: each path is PHB
     * (one CPU) or SYS (two), which the text cannot tell, but the lower bound PHB alone is past the threshold
     * ({@link Topology#gdr}), so GPUDirect RDMA is off whichever NIC is nearest and whichever the type.
     */
    private Finding boundFinding(Topology t, GpuNicPaths.Nearest n, Topology.Pair p, GdrLevel level) {
        String v = t.ncclVersion();
        Topology.Endpoint gpu = n.gpu();
        List<String> nics = n.pairs().stream().map(x -> GpuNicPaths.other(x, gpu.label())).toList();
        String which = nics.size() == 1 ? "its nearest NIC " + nics.get(0) + " (" + t.endpoint(nics.get(0)).name() + ")"
                : "each of " + String.join(", ", nics) + " (which is nearest is not known)";
        int phb = NcclPathTypes.number("PHB", v);
        int sys = NcclPathTypes.number("SYS", v);
        return finding(gpu.label() + "-" + nics.get(0), gpu.label() + " " + gpu.address() + " reaches " + which
                + " through at least PHB (the exact type is not in the text): GPUDirect RDMA off by default",
                List.of("path type unknown, at least PHB: " + p.shown().reason(),
                        "PATH_PHB = " + phb + ", PATH_SYS = " + sys + " in NCCL " + v + " (" + t.ncclVersionSource() + ")",
                        "threshold " + level.name() + " = " + level.number() + ": " + level.source(),
                        "ncclTopoCheckGdr: distance " + phb + " or " + sys + " > " + level.number() + ": disabled either way",
                        "NCCL_NET_GDR_LEVEL=SYS would enable it whichever the type; PHB only if the two share a NUMA node, "
                                + "which `lspci -vv` (NUMA node lines) or nvidia-smi topo -m (NODE or SYS) tells"));
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
