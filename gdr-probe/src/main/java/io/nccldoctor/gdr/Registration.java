package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import java.util.List;

/**
 * `gdr --active`: can each HCA register memory of each GPU, tried for real.
 *
 * @param ncclProbe per HCA: NCCL's own DMA-BUF probe, ibv_reg_dmabuf_mr(pd, 0, 0, 0, fd = -1, 0), where EBADF means
 *                  the kernel and driver support DMA-BUF memory regions and EOPNOTSUPP / EPROTONOSUPPORT mean not
 * @param pairs     per GPU and HCA: a real DMA-BUF registration (cuMemGetHandleForAddressRange + ibv_reg_dmabuf_mr)
 *                  and a peer-memory registration (ibv_reg_mr on the GPU pointer, which needs nvidia_peermem)
 */
public record Registration(Fact<List<HcaProbe>> ncclProbe, Fact<List<PairResult>> pairs) {

    public record HcaProbe(String hca, Fact<String> dmabufSupport) {
    }

    /** @param dmabuf "registered" or the failure with its errno and meaning; @param peermem the same for ibv_reg_mr */
    public record PairResult(String gpuBusId, String hca, Fact<String> dmabuf, Fact<String> peermem) {
    }
}
