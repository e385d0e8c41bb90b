package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.GpuSurvey;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Sections;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** A GeForce (or Titan) GPU: no GPUDirect RDMA, no GPUDirect P2P (reference/peers-and-platform.md B8). */
public final class GeforceGpu implements Rule {

    static final RuleInfo INFO = new RuleInfo("GEFORCE_NO_GPUDIRECT", Severity.WARN,
            "GeForce GPU: no GPUDirect RDMA or P2P",
            "GPUDirect RDMA is supported on data-centre and professional GPUs; GeForce cards report "
                    + "DMA_BUF_SUPPORTED = 0 (an RTX 5090 does, in the field report) and 'GeForce cards don't support "
                    + "GPU Direct P2P' (NCCL maintainer, NVIDIA/nccl#1309). NCCL then stages network and GPU-to-GPU "
                    + "traffic through host memory. The brand comes from NVML, not from the PCI id: one die ships as "
                    + "GeForce and as RTX PRO.",
            "the NVML brand and the CUDA attributes 116 (GPU_DIRECT_RDMA_SUPPORTED) and 124 (DMA_BUF_SUPPORTED)",
            "Use an RTX PRO / data-centre GPU where GPUDirect matters; otherwise expect host-staged bandwidth and size "
                    + "the job for it.");

    private static final Set<String> CONSUMER = Set.of("GEFORCE", "GEFORCE_RTX", "TITAN", "TITAN_RTX");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        var survey = Sections.gpus(s).map(GpuSurvey::gpus);
        if (survey.isEmpty() || !survey.get().isValue()) {
            return Outcome.waived(survey.map(f -> "no GPU survey: " + f.reason()).orElse("GPUs not surveyed (`nccl-doctor gdr`)"));
        }
        List<Finding> findings = new ArrayList<>();
        for (GpuSurvey.Gpu g : survey.get().get()) {
            if (g.brand().isValue() && CONSUMER.contains(g.brand().get())) {
                findings.add(finding(g.busId(), g.name().orElse("GPU") + " at " + g.busId() + " is a " + g.brand().get()
                        + " card: no GPUDirect RDMA or P2P", List.of("NVML brand " + g.brand().get(),
                        "GPU_DIRECT_RDMA_SUPPORTED (116) " + g.gdrSupported().describe(),
                        "DMA_BUF_SUPPORTED (124) " + g.dmabufSupported().describe())));
            }
        }
        return findings.isEmpty() ? Outcome.pass() : Outcome.flag(findings);
    }
}
