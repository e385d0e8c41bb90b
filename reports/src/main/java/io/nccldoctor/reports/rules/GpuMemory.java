package io.nccldoctor.reports.rules;

import io.nccldoctor.gdr.GpuHealth;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.List;
import java.util.Optional;

/**
 * GPU memory health from NVML: row remapping (Ampere and newer), uncorrectable ECC errors, page retirement (before
 * Ampere). Severities as DCGM's health watch gives them (NVIDIA/DCGM modules/health/DcgmHealthWatch.cpp at 72fa3fe)
 * and as Azure's check_gpu_ecc fails a node (reference/peers-and-platform.md A2, A3).
 */
final class GpuMemory {

    static final RuleInfo REMAP_PENDING = new RuleInfo("GPU_ROW_REMAP_PENDING", Severity.ERROR,
            "a GPU has a row remapping pending: it needs a reset",
            "On Ampere and newer GPUs an uncorrectable (or repeated correctable) memory error makes the driver mark the row "
                    + "for remapping to a spare; the remapping takes effect only at the next GPU reset (nvml.h, "
                    + "nvmlDeviceGetRemappedRows; NVIDIA, \"A100 GPU memory error management\"). Until then the bad row stays "
                    + "in use behind error containment and page offlining: the next job on that GPU may hit it again (Xid "
                    + "48, 94, 95). DCGM reports it as DCGM_FR_PENDING_ROW_REMAP (action: reset the GPU); Azure's "
                    + "check_gpu_ecc fails the node.",
            "nvmlDeviceGetRemappedRows per GPU: isPending, with the correctable and uncorrectable row counts",
            "Drain the node, reset the GPU (`nvidia-smi -r -i N` with no process on it) or reboot, then check `nvidia-smi -q "
                    + "-d ROW_REMAPPER` shows Pending: No.");
    static final RuleInfo REMAP_FAILED = new RuleInfo("GPU_ROW_REMAP_FAILED", Severity.ERROR,
            "a GPU failed to remap a memory row: its memory cannot repair itself",
            "A row remapping failed (nvmlDeviceGetRemappedRows failureOccurred: \"set when a remapping has failed in the "
                    + "past\"): the bank has no spare row left or the InfoROM could not record it (Xid 64). The GPU keeps "
                    + "a row it knows to be bad. DCGM fails the GPU (DCGM_FR_ROW_REMAP_FAILURE); Azure maps it to "
                    + "NHC2007 RowRemapFailure, a hardware replacement.",
            "nvmlDeviceGetRemappedRows per GPU: failureOccurred, with the row counts",
            "Drain the node and open a hardware case for the GPU: DCGM and Azure treat a failed remapping as a hardware "
                    + "fault. `dcgmi diag -r 3` gathers the evidence a vendor asks for.");
    static final RuleInfo ECC_UNCORRECTABLE = new RuleInfo("GPU_ECC_UNCORRECTABLE", Severity.ERROR,
            "a GPU counted uncorrectable ECC errors since the driver loaded",
            "Volatile uncorrected (double-bit) ECC errors count since the driver last loaded (nvmlDeviceGetTotalEccErrors, "
                    + "NVML_MEMORY_ERROR_TYPE_UNCORRECTED, NVML_VOLATILE_ECC). Each one killed the application that touched "
                    + "the memory (Xid 48, 94 or 95). DCGM fails the GPU on any (DCGM_FR_VOLATILE_DBE_DETECTED, action "
                    + "isolate). Aggregate counts, kept for the board's life, are shown as evidence only.",
            "nvmlDeviceGetTotalEccErrors per GPU: volatile and aggregate, corrected and uncorrected",
            "Drain the node; check for a pending row remapping or retired pages (reset the GPU to apply them) and for Xid 48/94/95; "
                    + "if errors return after the reset, open a hardware case.");
    static final RuleInfo RETIRED_PENDING = new RuleInfo("GPU_RETIRED_PAGES_PENDING", Severity.WARN,
            "a GPU has memory pages waiting to be retired at the next driver reload",
            "Before Ampere, the driver retires a page of GPU memory after a double-bit error or two single-bit errors at one "
                    + "address, but the retirement takes effect only when the driver reloads (NVIDIA, \"Dynamic Page "
                    + "Retirement\"; nvmlDeviceGetRetiredPagesPendingStatus). DCGM warns (DCGM_FR_PENDING_PAGE_RETIREMENTS: "
                    + "\"this GPU can still perform workload\") and fails a GPU with 63 or more retired pages "
                    + "(DcgmGPUHardwareLimits.h DCGM_LIMIT_MAX_RETIRED_PAGES).",
            "nvmlDeviceGetRetiredPagesPendingStatus and nvmlDeviceGetRetiredPages per cause, per GPU",
            "Reboot or reload the driver when the node is idle (the pending pages are then retired); at 63 retired pages "
                    + "open a hardware case.");

    /** DCGM fails a GPU at this many retired pages (DcgmGPUHardwareLimits.h DCGM_LIMIT_MAX_RETIRED_PAGES). */
    static final int MAX_RETIRED_PAGES = 63;

    private GpuMemory() {
    }

    static Rule rowRemapPending() {
        return new GpuCheck<>(REMAP_PENDING, GpuHealth.Gpu::rowRemap, (g, r, rule) -> r.pending()
                ? Optional.of(rule.finding(g.label(), g.label() + ": a row remapping is pending; the GPU needs a reset", remap(g, r)))
                : Optional.empty());
    }

    static Rule rowRemapFailed() {
        return new GpuCheck<>(REMAP_FAILED, GpuHealth.Gpu::rowRemap, (g, r, rule) -> r.failed()
                ? Optional.of(rule.finding(g.label(), g.label() + ": a row remapping has failed", remap(g, r)))
                : Optional.empty());
    }

    private static List<String> remap(GpuHealth.Gpu g, GpuHealth.RowRemap r) {
        return List.of(g.label() + " " + g.name().orElse("") + ": remapped rows " + r.correctable() + " correctable, " + r.uncorrectable()
                + " uncorrectable, pending " + (r.pending() ? "yes" : "no") + ", failure occurred " + (r.failed() ? "yes" : "no")
                + " (nvmlDeviceGetRemappedRows)");
    }

    static Rule eccUncorrectable() {
        return new GpuCheck<>(ECC_UNCORRECTABLE, GpuHealth.Gpu::ecc, (g, e, rule) -> {
            long dbe = e.volatileUncorrected().orElse(0L);
            if (dbe == 0) {
                return Optional.empty();
            }
            return Optional.of(rule.finding(g.label(), g.label() + ": " + dbe + " uncorrectable ECC error" + (dbe == 1 ? "" : "s")
                    + " since the driver loaded", List.of(g.label() + ": volatile uncorrected " + dbe + ", corrected "
                    + e.volatileCorrected().describe() + "; aggregate uncorrected " + e.aggregateUncorrected().describe()
                    + ", corrected " + e.aggregateCorrected().describe() + " (nvmlDeviceGetTotalEccErrors)")));
        });
    }

    static Rule retiredPagesPending() {
        return new GpuCheck<>(RETIRED_PENDING, GpuHealth.Gpu::retiredPages, (g, p, rule) -> {
            int total = p.singleBitEcc().orElse(0) + p.doubleBitEcc().orElse(0);
            boolean pending = p.pending().orElse(false);
            if (!pending && total < MAX_RETIRED_PAGES) {
                return Optional.empty();
            }
            List<String> evidence = List.of(g.label() + ": pending " + p.pending().describe() + "; retired for single-bit ECC "
                    + p.singleBitEcc().describe() + ", for double-bit ECC " + p.doubleBitEcc().describe()
                    + " (nvmlDeviceGetRetiredPagesPendingStatus, nvmlDeviceGetRetiredPages)");
            if (total >= MAX_RETIRED_PAGES) {
                return Optional.of(rule.finding(g.label(), g.label() + ": " + total + " retired pages, at DCGM's limit of "
                        + MAX_RETIRED_PAGES, evidence).withSeverity(Severity.ERROR));
            }
            return Optional.of(rule.finding(g.label(), g.label() + ": retired pages pending; they take effect at the next driver reload",
                    evidence));
        });
    }
}
