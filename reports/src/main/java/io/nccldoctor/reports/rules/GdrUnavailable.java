package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.GdrPredictor;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Sections;
import io.nccldoctor.reports.Severity;
import java.util.List;

/** GPUs and RDMA devices, but no way for the NIC to register GPU memory: neither a peer-memory client nor DMA-BUF. */
public final class GdrUnavailable implements Rule {

    static final RuleInfo INFO = new RuleInfo("GDR_UNAVAILABLE", Severity.WARN,
            "GPUDirect RDMA is impossible on this node: no peer-memory client and no DMA-BUF path",
            "For a NIC to read or write GPU memory, the RDMA stack must register it: either through the nvidia_peermem "
                    + "module (a peer-memory client; NCCL checks /sys/kernel/mm/memory_peers/nv_mem/version, "
                    + "nv_mem_nc/version and /sys/module/nvidia_peermem/version) or through DMA-BUF, which needs kernel "
                    + "5.12+ with CONFIG_DMA_SHARED_BUFFER, rdma-core 34+ (ibv_reg_dmabuf_mr) and a GPU reporting "
                    + "DMA_BUF_SUPPORTED. Without either, every transfer is staged through host memory.",
            "the peer-memory files, kernel release and config, libibverbs version and its ibv_reg_dmabuf_mr symbol",
            "Prefer DMA-BUF (NVIDIA's recommendation): a 5.12+ kernel, rdma-core 34+ and the open kernel module; or load "
                    + "nvidia_peermem (`modprobe nvidia_peermem`, and at boot).");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        if (!NodeFacts.hasGpu(s)) {
            return Outcome.waived("no NVIDIA GPU");
        }
        if (RdmaPorts.of(s).isEmpty()) {
            return Outcome.waived(RdmaPorts.whyNone(s));
        }
        var host = Sections.gdrHost(s);
        if (host.isEmpty()) {
            return Outcome.waived("GPUDirect prerequisites not probed");
        }
        GdrPredictor.Transport t = GdrPredictor.transport(host.get());
        if (t.mechanism().isValue()) {
            return Outcome.pass();
        }
        if (t.mechanism().reason().startsWith("cannot tell")) {
            return Outcome.waived(t.mechanism().reason());
        }
        return Outcome.flag(finding("node", INFO.title(), t.chain()));
    }
}
