package io.nccldoctor.reports.rules;

import io.nccldoctor.gdr.GpuHealth;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.List;
import java.util.Optional;

/**
 * The state a GPU runs in: clocks held down by a slowdown, its NVLink fabric registration, PCIe replays, persistence
 * and MIG mode. Severities as DCGM and Azure give them (reference/peers-and-platform.md A2, A3).
 */
final class GpuState {

    /** DCGM's PCIe diagnostic default max_pcie_replays (NVIDIA/DCGM nvvs/plugin_src/pcie/Pcie.cpp at 72fa3fe). */
    static final long REPLAYS_ALLOWED = 80;
    static final RuleInfo THROTTLED = new RuleInfo("GPU_THROTTLED", Severity.WARN,
            "a GPU's clocks are held down by a thermal or hardware slowdown",
            "NVML reports why the clocks are below their maximum (nvmlDeviceGetCurrentClocksEventReasons). HW slowdown halves "
                    + "the clocks or worse for high temperature, an external power brake or a power draw over the limit; HW "
                    + "thermal and SW thermal slowdown keep the GPU or its memory under its maximum operating temperature; HW "
                    + "power brake is asserted by the system's power supply (nvml.h). In a collective the slowest GPU sets "
                    + "the pace of all. Idle, a software power cap under load, sync boost and application clocks are "
                    + "normal and not reported. Azure's check_gpu_clock_throttling warns on the same reasons; DCGM "
                    + "files them as DCGM_FR_CLOCKS_EVENT_THERMAL/POWER (action: monitor).",
            "nvmlDeviceGetCurrentClocksEventReasons per GPU, with the SM clock against its maximum (nvmlDeviceGetClockInfo)",
            "Check cooling (fans, inlet temperature, blocked airflow) and power (PSU redundancy, power brake events in the BMC "
                    + "log); `nvidia-smi -q -d PERFORMANCE,TEMPERATURE` shows the reasons and temperatures live.");
    static final RuleInfo FABRIC = new RuleInfo("FABRIC_MANAGER_NOT_READY", Severity.ERROR,
            "a GPU is not registered with its NVLink fabric (Fabric Manager)",
            "On NVSwitch systems (HGX/DGX H100 and newer) the NVIDIA Fabric Manager registers each GPU with the NVLink "
                    + "fabric; only then can GPUs reach each other over NVLink (nvml.h, nvmlDeviceGetGpuFabricInfoV). A "
                    + "registration not started, still in progress or completed with an error means CUDA jobs fail to "
                    + "start or run without peer-to-peer: nvidia-fabricmanager is stopped, its version differs from the "
                    + "driver's, or an NVSwitch failed. A fabric health summary of UNHEALTHY or LIMITED_CAPACITY "
                    + "(degraded bandwidth, route recovery) is reported too. DCGM's software plugin checks the same.",
            "nvmlDeviceGetGpuFabricInfoV per GPU: state, status, health summary",
            "`systemctl status nvidia-fabricmanager` and its log (/var/log/fabricmanager.log); its version must equal the "
                    + "driver's; restart it, then check `nvidia-smi -q | grep -A3 Fabric` shows State: Completed, Status: Success.");
    static final RuleInfo REPLAYS = new RuleInfo("PCIE_REPLAYS", Severity.WARN,
            "a GPU's PCIe link replayed more packets than DCGM's diagnostic allows",
            "The PCIe data link layer replays a packet whose CRC failed or whose acknowledgement timed out; NVML counts the "
                    + "replays since the driver loaded (nvmlDeviceGetPcieReplayCounter). Each costs bandwidth and they point "
                    + "at signal integrity: a riser, retimer, slot or cable. DCGM's PCIe diagnostic fails above "
                    + REPLAYS_ALLOWED + " (max_pcie_replays, nvvs/plugin_src/pcie/Pcie.cpp) and its health watch warns "
                    + "when the rate exceeds a bit error rate of 1e-12 per lane (DCGM_FR_PCI_REPLAY_RATE).",
            "nvmlDeviceGetPcieReplayCounter per GPU",
            "Compare with a second reading after load; reseat the GPU or its riser, check `nccl-doctor topo` for a link "
                    + "trained below its capability, and the AER counters of the GPU's root port.");
    static final RuleInfo PERSISTENCE = new RuleInfo("GPU_PERSISTENCE_OFF", Severity.INFO,
            "persistence mode is off: every process pays the GPU's initialisation",
            "Without persistence mode (or nvidia-persistenced) the driver tears the GPU down when its last client exits and "
                    + "sets it up again for the next: seconds per job start on a large node, and NVML's and CUDA's first "
                    + "call wait for it (nvmlDeviceGetPersistenceMode). DCGM's software plugin flags it as configuration "
                    + "(DCGM_FR_PERSISTENCE_MODE).",
            "nvmlDeviceGetPersistenceMode per GPU",
            "Run nvidia-persistenced (the supported way) or `nvidia-smi -pm 1` at boot.");
    static final RuleInfo MIG = new RuleInfo("GPU_MIG_ENABLED", Severity.INFO,
            "MIG is enabled (or pending) on a GPU",
            "With MIG enabled a GPU is split into instances; a process sees only the instances it is given, and NVLink and "
                    + "peer-to-peer between GPUs are not available to them, so NCCL over the node's GPUs behaves differently "
                    + "from the whole-GPU case (nvmlDeviceGetMigMode; DCGM treats the NVLinks of a MIG GPU as disabled). A "
                    + "pending mode takes effect at the next GPU reset.",
            "nvmlDeviceGetMigMode per GPU: current and pending",
            "If the node is meant for whole-GPU NCCL jobs, disable MIG (`nvidia-smi -mig 0`, then reset the GPU).");

    /** nvmlClocksEventReason bits that mean the hardware holds the clocks down: HwSlowdown, SwThermal, HwThermal, HwPowerBrake. */
    static final long SLOWDOWN = 0x8L | 0x20L | 0x40L | 0x80L;

    private GpuState() {
    }

    static Rule throttled() {
        return new GpuCheck<>(THROTTLED, GpuHealth.Gpu::clocksEventReasons, (g, mask, rule) -> {
            if ((mask & SLOWDOWN) == 0) {
                return Optional.empty();
            }
            String clocks = g.clocks().map(c -> ", SM clock " + c.smMHz().describe() + " of " + c.smMaxMHz().describe() + " MHz").orElse("");
            return Optional.of(rule.finding(g.label(), g.label() + ": clocks held down by " + String.join(", ",
                    GpuHealth.reasonNames(mask & SLOWDOWN)), List.of(g.label() + ": clocks event reasons 0x" + Long.toHexString(mask)
                    + " " + GpuHealth.reasonNames(mask) + clocks + " (nvmlDeviceGetCurrentClocksEventReasons)")));
        });
    }

    static Rule fabric() {
        return new GpuCheck<>(FABRIC, GpuHealth.Gpu::fabric, (g, f, rule) -> {
            String evidence = g.label() + ": fabric state " + f.state() + ", status " + f.status().describe() + ", health summary "
                    + f.healthSummary().describe() + " (nvmlDeviceGetGpuFabricInfoV)";
            if (!"COMPLETED".equals(f.state()) || !"SUCCESS".equals(f.status().orElse(""))) {
                return Optional.of(rule.finding(g.label(), g.label() + ": NVLink fabric registration " + f.state()
                        + (f.status().isValue() ? " with " + f.status().get() : ""), List.of(evidence)));
            }
            String summary = f.healthSummary().orElse("HEALTHY");
            if ("UNHEALTHY".equals(summary) || "LIMITED_CAPACITY".equals(summary)) {
                return Optional.of(rule.finding(g.label(), g.label() + ": NVLink fabric health " + summary, List.of(evidence))
                        .withSeverity("UNHEALTHY".equals(summary) ? Severity.ERROR : Severity.WARN));
            }
            return Optional.empty();
        });
    }

    static Rule pcieReplays() {
        return new GpuCheck<>(REPLAYS, GpuHealth.Gpu::pcieReplays, (g, n, rule) -> n <= REPLAYS_ALLOWED ? Optional.empty()
                : Optional.of(rule.finding(g.label(), g.label() + ": " + n + " PCIe replays since the driver loaded",
                        List.of(g.label() + ": PCIe replay counter " + n + " > " + REPLAYS_ALLOWED + " (nvmlDeviceGetPcieReplayCounter)"))));
    }

    static Rule persistenceOff() {
        return new GpuCheck<>(PERSISTENCE, GpuHealth.Gpu::persistenceMode, (g, on, rule) -> on ? Optional.empty()
                : Optional.of(rule.finding(g.label(), g.label() + ": persistence mode off",
                        List.of(g.label() + ": persistence mode disabled (nvmlDeviceGetPersistenceMode)"))));
    }

    static Rule migEnabled() {
        return new GpuCheck<>(MIG, GpuHealth.Gpu::mig, (g, m, rule) -> !m.enabled() && !m.pendingEnabled() ? Optional.empty()
                : Optional.of(rule.finding(g.label(), g.label() + ": MIG " + (m.enabled() ? "enabled" : "pending (enabled at the next reset)"),
                        List.of(g.label() + ": MIG current " + (m.enabled() ? "enabled" : "disabled") + ", pending "
                                + (m.pendingEnabled() ? "enabled" : "disabled") + " (nvmlDeviceGetMigMode)"))));
    }
}
