package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.GdrHost;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Sections;
import io.nccldoctor.reports.Severity;
import java.util.List;

/** The IOMMU translates DMA (not pass-through): peer-to-peer requests are translated or redirected. */
public final class IommuTranslation implements Rule {

    static final RuleInfo INFO = new RuleInfo("IOMMU_TRANSLATION", Severity.INFO,
            "the IOMMU is on in translation mode",
            "With the IOMMU translating DMA addresses (IOMMU groups present, no iommu=pt on the kernel command line), "
                    + "peer-to-peer traffic between GPUs and NICs is translated or, with ACS, redirected to the root "
                    + "complex. NCCL's troubleshooting guide names it as a cause of P2P hangs and low bandwidth "
                    + "(NVIDIA/nccl#257: an allreduce hang fixed by intel_iommu=off). On bare-metal GPU nodes "
                    + "pass-through mode is the usual setting; VMs and device isolation need translation.",
            "/sys/kernel/iommu_groups and the iommu options of /proc/cmdline",
            "On bare metal, boot with iommu=pt (and intel_iommu=on or amd_iommu=on as the platform needs); if P2P already "
                    + "runs at full speed, this is for information only.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        if (!NodeFacts.hasGpu(s)) {
            return Outcome.waived("no NVIDIA GPU");
        }
        var host = Sections.gdrHost(s);
        if (host.isEmpty() || !host.get().iommuGroups().isValue()) {
            return Outcome.waived(host.map(GdrHost::iommuGroups).map(f -> "IOMMU groups unknown: " + f.reason())
                    .orElse("GPUDirect prerequisites not probed"));
        }
        GdrHost h = host.get();
        List<String> options = h.iommuCmdline().orElse(List.of());
        boolean passThrough = options.stream().anyMatch(o -> o.equals("iommu=pt") || o.endsWith("iommu=off"));
        if (h.iommuGroups().get() == 0 || passThrough) {
            return Outcome.pass();
        }
        return Outcome.flag(finding("node", INFO.title(), List.of(h.iommuGroups().get() + " IOMMU groups",
                "kernel command line iommu options: " + (options.isEmpty() ? "none (the platform default applies)" : String.join(" ", options)))));
    }
}
