package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import java.util.List;

/**
 * What the CUDA driver API and NVML say about each GPU and each GPU pair. One native question, so a capture records
 * it as one answer.
 *
 * @param gpus per GPU, in CUDA's device order
 * @param p2p  per GPU pair: NVML's P2P read and write status (separately: a chipset may allow writes but not reads)
 *             and the CUDA peer-access answer
 */
public record GpuSurvey(Fact<List<Gpu>> gpus, Fact<List<PeerStatus>> p2p) {

    /**
     * @param busId           domain:bus:device.function, lower case (0000:18:00.0)
     * @param brand           NVML brand: GEFORCE, TESLA, NVIDIA_RTX, QUADRO … (reference/peers-and-platform.md B8)
     * @param gdrSupported    CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED (116)
     * @param dmabufSupported CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED (124)
     */
    public record Gpu(int index, String busId, Fact<String> name, Fact<String> brand, Fact<Integer> computeMajor,
                      Fact<Integer> computeMinor, Fact<Boolean> gdrSupported, Fact<Boolean> dmabufSupported) {

        /** sm as NCCL writes it: 90 for compute capability 9.0. */
        public Fact<Integer> sm() {
            return computeMajor.flatMap(ma -> computeMinor.map(mi -> ma * 10 + mi));
        }
    }

    /** @param read NVML P2P status for reads (OK, CHIPSET_NOT_SUPPORTED, …); @param write the same for writes */
    public record PeerStatus(String a, String b, Fact<String> read, Fact<String> write, Fact<Boolean> cudaPeerAccess) {
    }
}
