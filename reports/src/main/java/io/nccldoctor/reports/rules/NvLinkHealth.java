package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.GpuHealth;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * NVLinks that are down, and NVLink error counters. A GPU is judged against the other GPUs of its model on the node:
 * PCIe cards joined by NVLink bridges leave some links unconnected on every card alike, which is their design, not a
 * fault (Azure/azurehpc-health-checks#162: H100 PCIe with 12 of 18 links "inactive" failed a check that expected all).
 */
public final class NvLinkHealth implements Rule {

    static final RuleInfo DOWN = new RuleInfo("NVLINK_DOWN", Severity.ERROR,
            "a GPU has fewer NVLinks up than the other GPUs of its model",
            "NVML reports each NVLink a GPU has as active or not (nvmlDeviceGetNvLinkState). A link down on one GPU while "
                    + "its siblings have it up halves or worse that GPU's bandwidth to its peers (on NVSwitch systems every "
                    + "link carries 1/18 of an H100's 900 GB/s), and NCCL's rings through that GPU slow every rank of the "
                    + "job. DCGM reports a down link as DCGM_FR_NVLINK_DOWN; Azure's check_nvlink_status fails the node "
                    + "(NHC2016). With MIG enabled NVML reports links as down that are only disabled, so the check is "
                    + "waived then (DCGM's workaround for NVIDIA bug 200682374).",
            "nvmlDeviceGetNvLinkState for every link each GPU has, compared with the most links up on a GPU of the same name",
            "Drain the node; `nvidia-smi nvlink -s` shows the state per link. A reset of the GPUs (or a reboot) retrains "
                    + "links; a link that stays down is a hardware case (GPU, baseboard or NVSwitch tray).");
    static final RuleInfo ERRORS = new RuleInfo("NVLINK_ERRORS", Severity.WARN,
            "NVLink error counters are not zero",
            "NVML counts NVLink data-link errors per link since the driver loaded (nvmlDeviceGetNvLinkErrorCounter): replays "
                    + "and recoveries (the link retransmits or retrains), CRC errors on flits and data, ECC errors on data. "
                    + "Each costs bandwidth; rising counts precede a link going down. DCGM fails a GPU whose replay or "
                    + "recovery counters rise within a minute and warns on CRC errors below 100 per second "
                    + "(DcgmHealthWatch.cpp, DcgmGPUHardwareLimits.h). One reading cannot tell a rising count from an old "
                    + "one, hence a warning.",
            "nvmlDeviceGetNvLinkErrorCounter per link: DL_REPLAY, DL_RECOVERY, DL_CRC_FLIT, DL_CRC_DATA, DL_ECC_DATA",
            "Read the counters again after load (`nvidia-smi nvlink -e`); counts that rise on one link point at that link: "
                    + "reset the GPU, and open a hardware case if they keep rising.");

    @Override
    public RuleInfo info() {
        return DOWN;
    }

    /** The error-counter rule: one finding per GPU with a non-zero counter. */
    static Rule errors() {
        return new GpuCheck<>(ERRORS, GpuHealth.Gpu::nvlinks, (g, links, rule) -> {
            List<String> evidence = new ArrayList<>();
            for (GpuHealth.NvLink l : links) {
                String counts = "replay " + l.replay().describe() + ", recovery " + l.recovery().describe() + ", CRC flit "
                        + l.crcFlit().describe() + ", CRC data " + l.crcData().describe() + ", ECC data " + l.eccData().describe();
                if (List.of(l.replay(), l.recovery(), l.crcFlit(), l.crcData(), l.eccData()).stream().anyMatch(c -> c.orElse(0L) > 0)) {
                    evidence.add(g.label() + " link " + l.link() + ": " + counts);
                }
            }
            return evidence.isEmpty() ? Optional.empty() : Optional.of(rule.finding(g.label(), g.label() + ": NVLink errors on "
                    + evidence.size() + " link" + (evidence.size() == 1 ? "" : "s") + " since the driver loaded", evidence));
        });
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        Fact<List<GpuHealth.Gpu>> gpus = GpuCheck.gpus(s);
        if (!gpus.isValue()) {
            return Outcome.waived(gpus.reason());
        }
        Optional<GpuHealth.Gpu> mig = gpus.get().stream().filter(g -> g.mig().map(GpuHealth.Mig::enabled).orElse(false)).findFirst();
        if (mig.isPresent()) {
            return Outcome.waived("MIG is enabled on " + mig.get().label() + ": NVML reports the links of MIG GPUs as down");
        }
        Map<String, Integer> most = new LinkedHashMap<>();
        Map<String, Integer> count = new LinkedHashMap<>();
        for (GpuHealth.Gpu g : gpus.get()) {
            if (g.nvlinks().isValue()) {
                most.merge(model(g), up(g.nvlinks().get()), Math::max);
                count.merge(model(g), 1, Integer::sum);
            }
        }
        if (most.isEmpty()) {
            return Outcome.waived(gpus.get().get(0).label() + ": " + gpus.get().get(0).nvlinks().reason());
        }
        List<Finding> out = new ArrayList<>();
        for (GpuHealth.Gpu g : gpus.get()) {
            if (g.nvlinks().isValue()) {
                judge(g, g.nvlinks().get(), most.get(model(g)), count.get(model(g))).ifPresent(out::add);
            }
        }
        return Outcome.flag(out);
    }

    private Optional<Finding> judge(GpuHealth.Gpu g, List<GpuHealth.NvLink> links, int most, int siblings) {
        List<Integer> down = links.stream().filter(l -> !l.active()).map(GpuHealth.NvLink::link).toList();
        int up = links.size() - down.size();
        if (down.isEmpty() || (up == most && siblings > 1)) {
            return Optional.empty();
        }
        List<String> evidence = List.of(g.label() + " " + model(g) + ": " + up + " of " + links.size() + " NVLinks active, down: links "
                + down + " (nvmlDeviceGetNvLinkState)");
        if (siblings == 1) {
            return Optional.of(finding(g.label(), g.label() + ": " + down.size() + " of " + links.size() + " NVLinks inactive, and no "
                    + "other GPU of its model to compare with (a bridge may leave links unconnected)", evidence).withSeverity(Severity.WARN));
        }
        List<String> more = new ArrayList<>(evidence);
        more.add("the other " + model(g) + " GPUs of this node have up to " + most + " links active");
        return Optional.of(finding(g.label(), g.label() + ": " + up + " of " + links.size() + " NVLinks up where its siblings have "
                + most, more));
    }

    private static int up(List<GpuHealth.NvLink> links) {
        return (int) links.stream().filter(GpuHealth.NvLink::active).count();
    }

    private static String model(GpuHealth.Gpu g) {
        return g.name().orElse("(name unknown)");
    }
}
