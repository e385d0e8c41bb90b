package io.nccldoctor.reports.cluster;

import java.util.List;

/**
 * The attributes of the drift table, in the order they are shown: one explicit list. What each reads is in
 * {@link HostFacts}, {@link PcieFacts} and {@link RdmaFacts}.
 */
final class Facets {

    private Facets() {
    }

    static final List<Facet> ALL = List.of(
            Facet.node("GPU count", "A node short of a GPU (fallen off the bus, Xid 79, a riser fault) changes the job's rank "
                    + "layout; NCCL fails or the scheduler places fewer ranks than planned.",
                    "Check `nvidia-smi -L` and `lspci -d 10de:` on the odd nodes; drain them until every GPU is back.",
                    PcieFacts::gpuCount),
            Facet.node("GPU model", "Different GPU models (PCI ids) in one job run at the pace of the slowest and may differ in "
                    + "GPUDirect support.", "Schedule jobs on nodes of one GPU model (a node label or partition per model).",
                    PcieFacts::gpuModel),
            Facet.node("NVIDIA driver", "Driver versions change NCCL-relevant behaviour (P2P, GPUDirect, CUDA compatibility); "
                    + "nodes left on an old driver after a rolling upgrade are the usual cause.",
                    "Install the cluster's driver on the odd nodes and reboot them (or reload the modules).",
                    HostFacts::driver),
            Facet.node("CUDA driver (libcuda)", "The CUDA version libcuda reports must cover the CUDA runtime the job uses; a "
                    + "container that mounts another driver's libcuda reports another version.",
                    "Use the libcuda of the installed driver (the container toolkit mounts it); level the driver.",
                    HostFacts::cudaDriver),
            Facet.node("libcuda.so file", "The libcuda file belongs to one kernel driver; an incomplete or foreign driver library "
                    + "set (a hand-built container) fails late, at the first kernel after NCCL init in the field report.",
                    "Mount the complete driver library set of the node's driver (nvidia-container-toolkit), not a copy.",
                    HostFacts::libcudaFile),
            Facet.node("CUDA runtime", "Ranks on different CUDA runtimes load different NCCL builds and kernels.",
                    "Run every rank from one image or environment.", HostFacts::cudaRuntime),
            Facet.node("NCCL", "Ranks of one communicator on different NCCL versions may pick different algorithms and protocols, "
                    + "or fail to connect; a second copy off the loader path is what a Python wheel may load instead.",
                    "Run every rank with one NCCL (one image, or one LD_LIBRARY_PATH).", HostFacts::nccl),
            Facet.node("Kernel", "The kernel decides DMA-BUF support (5.12+), the RDMA core modules and the IOMMU defaults.",
                    "Boot the odd nodes into the cluster's kernel.", HostFacts::kernel),
            Facet.node("IOMMU (kernel command line)", "An IOMMU in translation mode adds an IOTLB lookup to every peer-to-peer "
                    + "and NIC DMA; nodes booted with other options run at another speed.",
                    "Boot every node with the same iommu options (iommu=pt where the IOMMU stays on).", HostFacts::iommu),
            Facet.node("nvidia_peermem", "Without a peer-memory client NCCL cannot register GPU memory with the NIC the classic "
                    + "way; its version follows the driver.", "Load nvidia_peermem (modprobe, and persist it in /etc/modules-load.d).",
                    HostFacts::peermem),
            Facet.node("CONFIG_DMA_SHARED_BUFFER", "DMA-BUF GPUDirect needs the kernel's dma-buf support.",
                    "Boot a kernel built with CONFIG_DMA_SHARED_BUFFER.", HostFacts::dmaSharedBuffer),
            Facet.node("rdma-core", "ibv_reg_dmabuf_mr arrived in rdma-core 34; providers and fixes follow its release.",
                    "Install one rdma-core release cluster-wide.", HostFacts::rdmaCore),
            Facet.node("ibv_reg_dmabuf_mr", "Without it NCCL cannot register GPU memory through DMA-BUF and falls back to "
                    + "nvidia_peermem or host staging.", "Install rdma-core 34 or newer.", HostFacts::dmabufMr),
            Facet.node("GPUDirect RDMA (GPU attribute 116)", "A GPU that says no is excluded from GPUDirect RDMA (GeForce "
                    + "in the field report); NCCL stages through host memory on that node.",
                    "Use GPUs that support GPUDirect RDMA on every node of a job.", HostFacts::gpuGdr),
            Facet.node("DMA-BUF (GPU attribute 124)", "DMA_BUF_SUPPORTED=0 (a GeForce card in the field report, same driver "
                    + "and kernel as its neighbours) leaves that node without DMA-BUF GPUDirect.",
                    "Use GPUs that report DMA-BUF support, with the open kernel modules.", HostFacts::gpuDmabuf),
            Facet.node("GPU PCIe links", "A GPU link narrower than its neighbours' caps host transfers and GPUDirect on that node "
                    + "(speed here is the most the link can train at: an idle GPU drops to 2.5 GT/s).",
                    "Reseat the GPU or riser; check the slot's BIOS link settings (`nccl-doctor topo` on the node).",
                    PcieFacts::gpuLinks),
            Facet.node("RDMA NIC PCIe links", "The slot, not the cable, limited a dual-port 100G NIC in the field report (Gen3 x8).",
                    "Move the NIC to a full slot, reseat it, or check the slot's BIOS link settings.", PcieFacts::nicLinks),
            Facet.node("RDMA devices", "NCCL_IB_HCA names devices: a node whose RDMA devices were renamed (after a reboot in the "
                    + "field report) or lost one uses other rails, or none.",
                    "Restore the device names (udev rules, or a boot-time apply service) and the missing adapters.",
                    RdmaFacts::names),
            Facet.each("NIC firmware", "RDMA device", "Firmware releases change congestion control, relaxed ordering and "
                    + "retransmission; the field report found three firmware levels in one cluster.",
                    "Level the firmware (mlxfwmanager or mstflint; mstfwreset activates it without a reboot).", RdmaFacts::firmware),
            Facet.each("Port state", "RDMA port", "A port that is not ACTIVE carries no RDMA traffic; NCCL drops the rail or fails.",
                    "Check cabling, the switch port and the subnet manager (InfiniBand) on the odd nodes.", RdmaFacts::state),
            Facet.each("Port rate", "RDMA port", "A port that trained at a lower rate caps every rail-aligned transfer.",
                    "Check cable, transceiver and switch port speed settings.", RdmaFacts::rate),
            Facet.each("Netdev MTU", "RDMA port", "At MTU 1500 RoCE runs a 1024-byte path MTU: the field report's 100G link fell "
                    + "to 83 Gbit/s after a reboot reset the MTU.",
                    "Set the MTU (4200 or 9000) and persist it (a boot-time apply service, netplan or NetworkManager).",
                    RdmaFacts::mtu),
            Facet.each("ARP settings", "RDMA port", "With several NICs in one subnet, arp_ignore=1 and arp_announce=2 stop one "
                    + "port answering for another; a stale entry sent connections to the wrong port in the field report.",
                    "Set net.ipv4.conf.*.arp_ignore=1 and arp_announce=2, persist them, and flush stale entries (ip neigh flush).",
                    RdmaFacts::arp));
}
