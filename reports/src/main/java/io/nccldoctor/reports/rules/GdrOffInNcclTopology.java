package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.pcie.DeviceKind;
import io.nccldoctor.pcie.NcclTopoNets;
import io.nccldoctor.pcie.Topology;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * An NCCL topology file whose {@code gdr="0"} on a NIC's net or on a GPU turns GPUDirect RDMA off for those pairs,
 * whatever their distance: ncclTopoCheckGdr returns "disabled" on {@code net->net.gdrSupport == 0} or
 * {@code gpu->gpu.gdrSupport == 0} before it looks at the path (src/graph/paths.cc@v2.30.7-1 L485-486). NCCL writes
 * the attribute from what it detected (src/graph/topo.cc@v2.30.7-1 L1651-1655 for a net: the plugin's NCCL_PTR_CUDA,
 * which net_ib sets when a peer-memory module is loaded, or DMA-BUF; src/plugin/net.cc ncclGpuGdrSupport for a GPU:
 * cudaDevAttrGPUDirectRDMASupported), so a dump with {@code gdr="0"} is NCCL saying it found no GPUDirect RDMA there.
 * GDR_DISABLED_BY_DISTANCE leaves these pairs out (no NCCL_NET_GDR_LEVEL helps them); this rule says it.
 */
public final class GdrOffInNcclTopology implements Rule {

    static final RuleInfo INFO = new RuleInfo("GDR_OFF_IN_NCCL_TOPOLOGY", Severity.WARN,
            "NCCL's topology marks GPUDirect RDMA unsupported (gdr=\"0\") on a NIC's net or a GPU: off whatever the distance",
            "NCCL records in its topology whether each network device and each GPU supports GPUDirect RDMA: a <net> gets "
                    + "gdr=\"1\" when the network plugin can register GPU memory (NCCL_PTR_CUDA, which the IB/RoCE "
                    + "transport sets when nvidia_peermem or nv_peer_mem is loaded, or DMA-BUF), a <gpu> when CUDA reports "
                    + "GPUDirect RDMA support for it. A file given with NCCL_TOPO_FILE is used as it is. Before it compares "
                    + "any distance, ncclTopoCheckGdr (src/graph/paths.cc L485-486) turns GPUDirect RDMA off for a pair whose "
                    + "net or GPU says gdr=\"0\": every transfer of that pair is staged through host memory, however close "
                    + "GPU and NIC are, and no NCCL_NET_GDR_LEVEL changes it.",
            "the gdr attributes of the <net> and <gpu> elements of an NCCL topology file (NCCL_TOPO_DUMP_FILE or "
                    + "NCCL_TOPO_FILE), and each GPU's nearest NICs",
            "On the node: load nvidia_peermem (`modprobe nvidia_peermem`) or use DMA-BUF (kernel 5.12+, rdma-core 34+, an "
                    + "open or recent NVIDIA driver), check `nccl-doctor gdr`, then dump the topology again "
                    + "(NCCL_TOPO_DUMP_FILE). In a hand-written NCCL_TOPO_FILE, remove gdr=\"0\" or set it to 1 only where "
                    + "the hardware supports it.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        NcclTopoNets file = s.section(NcclTopoNets.KEY, NcclTopoNets.class);
        if (file == null || file.holdsNothing()) {
            return Outcome.waived("no NCCL topology file in the input (the gdr attributes are NCCL's own)");
        }
        List<NcclTopoNets.Net> rdma = file.nets().stream().filter(n -> n.role() == NcclTopoNets.Role.RDMA).toList();
        List<NcclTopoNets.Net> offNets = rdma.stream().filter(n -> n.gdr().isValue() && n.gdr().get() == 0).toList();
        List<NcclTopoNets.Gpu> offGpus = file.gpus().stream().filter(g -> g.gdr().isValue() && g.gdr().get() == 0).toList();
        if (offNets.isEmpty() && offGpus.isEmpty()) {
            boolean given = rdma.stream().anyMatch(n -> n.gdr().isValue()) || file.gpus().stream().anyMatch(g -> g.gdr().isValue());
            return given ? Outcome.pass() : Outcome.waived("the topology file gives no gdr attribute on an RDMA net or a GPU: "
                    + "NCCL detects GPUDirect RDMA support when it runs");
        }
        List<String> evidence = new ArrayList<>();
        offNets.forEach(n -> evidence.add("<net name=\"" + n.name() + "\"> gdr=\"0\" (line " + n.line() + ")"
                + n.pciAddress().map(a -> " on " + a).orElse("")));
        offGpus.forEach(g -> evidence.add("<gpu> of " + g.pciAddress() + " gdr=\"0\" (line " + g.line() + ")"));
        List<String> pairs = pairs(GpuNicPaths.topology(s, ctx));
        evidence.addAll(pairs);
        String where = offNets.isEmpty() ? offGpus.size() + (offGpus.size() == 1 ? " GPU" : " GPUs")
                : String.join(", ", offNets.stream().map(n -> "<net " + n.name() + ">").toList())
                        + (offGpus.isEmpty() ? "" : " and " + offGpus.size() + (offGpus.size() == 1 ? " GPU" : " GPUs"));
        String title = "gdr=\"0\" on " + where + " in NCCL's topology: GPUDirect RDMA off whatever the distance"
                + (pairs.get(0).startsWith("no ") ? "" : ", for " + pairs.size()
                        + (pairs.size() == 1 ? " GPU-NIC pair" : " GPU-NIC pairs") + " of nearest NICs");
        return Outcome.flag(finding(offNets.isEmpty() ? offGpus.get(0).pciAddress() : offNets.get(0).name(), title, evidence));
    }

    /**
     * Each GPU's nearest NICs whose GPUDirect RDMA the attributes turn off, as "GPU0-NIC0 (mlx5_0, PIX): gdr="0" on
     * &lt;net mlx5_0&gt;"; or one line saying which side the text lacks (a fragment with a net and no GPU).
     */
    private static List<String> pairs(Optional<Topology> topology) {
        if (topology.isEmpty()) {
            return List.of("no GPU-NIC pair: the PCI tree of the file could not be read");
        }
        Topology t = topology.get();
        boolean gpus = t.endpoints().stream().anyMatch(e -> e.kind().isGpu());
        boolean nics = t.endpoints().stream().anyMatch(e -> e.kind() == DeviceKind.NIC);
        if (!gpus || !nics) {
            return List.of("no " + (!gpus ? "GPU" : "RDMA NIC") + " in the text: the attribute holds for every "
                    + (!gpus ? "GPU that uses this NIC" : "NIC this GPU uses"));
        }
        List<String> out = new ArrayList<>();
        for (GpuNicPaths.Nearest n : GpuNicPaths.nearest(t)) {
            for (Topology.Pair p : n.pairs()) {
                // the verdict's level is irrelevant here: only a gdr attribute makes it byAttribute
                Topology.GdrVerdict g = t.gdr(p, "PXB", Integer.MAX_VALUE);
                if (g.byAttribute()) {
                    String nic = GpuNicPaths.other(p, n.gpu().label());
                    out.add(n.gpu().label() + "-" + nic + " (" + t.endpoint(nic).name() + ", "
                            + (p.shown().isValue() ? p.smiPath().name() : "path not in the text") + "): " + g.cause());
                }
            }
        }
        if (out.isEmpty()) {
            out.add("no GPU's nearest NIC is among them: only farther pairs are off, and those NCCL uses less");
        }
        return out;
    }
}
