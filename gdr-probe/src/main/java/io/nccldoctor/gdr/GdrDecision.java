package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import java.util.List;

/**
 * What NCCL will decide for one GPU–NIC pair, and why, in a chain a person can read.
 *
 * @param enabled whether GPUDirect RDMA is used for this pair (absent when a prerequisite is unknown)
 * @param read    whether the NIC reads from GPU memory on sends (NCCL_NET_GDR_READ), when GDR is on
 * @param chain   the reasons in order, e.g. "PHB (8) > PXB (5) → NCCL 2.27.5 disables GDR"
 */
public record GdrDecision(String gpu, String gpuAddress, String nic, String nicName, String path, int distance,
                          GdrLevel level, Fact<Boolean> enabled, Fact<Boolean> read, List<String> chain) {

    public String summary() {
        return gpu + " <-> " + nicName + ": " + String.join("; ", chain);
    }
}
