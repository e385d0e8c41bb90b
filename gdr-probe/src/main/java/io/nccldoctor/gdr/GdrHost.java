package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.libs.NativeLibrary;
import java.util.List;

/**
 * Host prerequisites of GPUDirect RDMA (reference/peers-and-platform.md B5, nccl-internals.md §4.5).
 *
 * @param kernel          osrelease; DMA-BUF registration of GPU memory needs 5.12 or newer
 * @param dmaSharedBuffer CONFIG_DMA_SHARED_BUFFER: y, m or "not set", from /boot/config-* or /proc/config.gz
 * @param iommuCmdline    the iommu options of the kernel command line (intel_iommu=on, iommu=pt …)
 * @param iommuGroups     how many IOMMU groups exist (none: the IOMMU is off)
 * @param peermem         which of the paths NCCL checks for nvidia_peermem / nv_peer_mem exists, with its version
 * @param ibverbs         libibverbs.so.1 as the loader finds it
 * @param rdmaCore        the rdma-core release of that libibverbs (libibverbs.so.1.14.44.0 → 44)
 * @param dmabufMr        whether it exports ibv_reg_dmabuf_mr (rdma-core 34 or newer)
 */
public record GdrHost(Fact<String> kernel, Fact<String> dmaSharedBuffer, Fact<List<String>> iommuCmdline,
                      Fact<Integer> iommuGroups, Fact<String> peermem, NativeLibrary ibverbs, Fact<String> rdmaCore,
                      Fact<Boolean> dmabufMr) {
}
