package io.nccldoctor.pcie;

import io.nccldoctor.core.Fact;
import java.util.List;

/**
 * What an NCCL topology file says beyond the PCI tree: every {@code <net>} of its {@code <nic>} elements and the
 * GPUDirect RDMA attributes NCCL decides with. NCCL reads {@code gdr} from each {@code <net>} (src/graph/topo.cc
 * ncclTopoAddNet, {@code xmlGetAttrIntDefault(xmlNet, "gdr", &net->net.gdrSupport, 0)}) and each {@code <gpu>}
 * (ncclTopoAddGpu, {@code xmlGetAttrInt(xmlGpu, "gdr", &gpu->gpu.gdrSupport)}), and ncclTopoCheckGdr
 * (src/graph/paths.cc@v2.30.7-1 L485-486) returns "disabled" when either is 0, before it looks at the distance. When
 * NCCL detects the node itself it writes them (net: the plugin's NCCL_PTR_CUDA or DMA-BUF support; GPU: a peer-memory
 * client or DMA-BUF) only where the file has none (xmlInitAttrInt), so a value in the file is what NCCL uses, and a
 * file without the attribute leaves it to NCCL's detection at run time: absent here.
 *
 * @param nets every {@code <net>} read, in file order
 * @param gpus every {@code <gpu>} read, in file order
 */
public record NcclTopoNets(List<Net> nets, List<Gpu> gpus) {

    /** The snapshot section of a topology file's nets and GPUDirect RDMA attributes. */
    public static final String KEY = "ncclTopoXml";

    public NcclTopoNets {
        nets = List.copyOf(nets);
        gpus = List.copyOf(gpus);
    }

    /** What a {@code <net>} is to NCCL. */
    public enum Role {
        /**
         * An RDMA device (mlx5_0, bnxt_re0, rdmap16s27 …): its name is an RDMA driver's, or its PCI function is an RDMA
         * NIC (InfiniBand class, an RDMA family of {@link PciIds}).
         */
        RDMA,
        /**
         * A net device of NCCL's socket transport or another plugin (eth0, a Wi-Fi adapter, a VPN interface): never
         * GPUDirect RDMA (net_socket.cc: {@code props->ptrSupport = NCCL_PTR_HOST}), no matrix endpoint.
         */
        OTHER,
        /**
         * {@code net="0"}: a CollNet, GIN or RMA device only; ncclTopoAddNic adds no NET node for it (src/graph/topo.cc,
         * "Backward compatibility: net withouh "net" attr is a net dev").
         */
        NOT_NET
    }

    /**
     * @param pciAddress the function of its {@code <pci>}; absent for a {@code <nic>} directly under a {@code <cpu>},
     *                   which NCCL attaches to that CPU (ncclTopoAddCpu: one NIC node per NUMA node, linked to the CPU)
     * @param gdr        the {@code gdr} attribute (0 or 1); absent when the file gives none
     * @param numaNode   the NUMA node of the {@code <cpu>} above it, when the file gives one
     * @param line       the line of the {@code <net>} element
     */
    public record Net(String name, Fact<String> pciAddress, Fact<Integer> gdr, Role role, Fact<Integer> numaNode, int line) {
    }

    /** @param gdr the {@code gdr} attribute of the {@code <gpu>}; absent when the file gives none */
    public record Gpu(String pciAddress, Fact<Integer> gdr, int line) {
    }

    public static NcclTopoNets none() {
        return new NcclTopoNets(List.of(), List.of());
    }

    public boolean holdsNothing() {
        return nets.isEmpty() && gpus.isEmpty();
    }

    /** The nets of a PCI function, in file order (NCCL merges a dual-port NIC into function 0 with one net per port). */
    public List<Net> netsOf(String pciAddress) {
        return nets.stream().filter(n -> n.pciAddress().isValue() && n.pciAddress().get().equals(pciAddress)).toList();
    }

    /** The {@code gdr} attribute of the GPU at this address; absent when the file gives none or has no such GPU. */
    public Fact<Integer> gpuGdr(String pciAddress) {
        return gpus.stream().filter(g -> g.pciAddress().equals(pciAddress)).map(Gpu::gdr).findFirst()
                .orElse(Fact.absent("no <gpu> at " + pciAddress + " in the topology file"));
    }
}
