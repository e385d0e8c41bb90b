package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import java.util.ArrayList;
import java.util.List;

/**
 * The health of each GPU as NVML reports it, and the Xid errors the driver wrote to the kernel log. Every field is
 * what NVML answered or why it did not: a GPU that does not support a query (NVML_ERROR_NOT_SUPPORTED) reads as
 * absent with "not supported on this GPU", never as an error. Field meanings: nvml.h of NVML 13.3.29
 * (NVIDIA/go-nvml gen/nvml/nvml.h at 2f9e261); docs/health.md lists each with its NVML call.
 *
 * @param gpus       per GPU in NVML's index order (not necessarily CUDA's)
 * @param kernelXids the Xid lines of the kernel log within the window read
 */
public record GpuHealth(Fact<List<Gpu>> gpus, Fact<XidLog> kernelXids) {

    /**
     * @param busId              domain:bus:device.function, lower case, as sysfs writes it (nvmlDeviceGetPciInfo_v3)
     * @param persistenceMode    nvmlDeviceGetPersistenceMode: the driver stays loaded with no client (otherwise every
     *                           process pays the GPU's initialisation)
     * @param clocksEventReasons nvmlDeviceGetCurrentClocksEventReasons (or its older name …ThrottleReasons where the driver lacks it), the bitmask
     *                           of nvmlClocksEventReason*; {@link #reasonNames(long)} names the bits
     * @param pcieReplays        nvmlDeviceGetPcieReplayCounter: PCIe link-level replays since the driver loaded
     */
    public record Gpu(int index, Fact<String> busId, Fact<String> name, Fact<Boolean> persistenceMode, Fact<Mig> mig,
                      Fact<Ecc> ecc, Fact<RetiredPages> retiredPages, Fact<RowRemap> rowRemap, Fact<List<NvLink>> nvlinks,
                      Fact<Long> clocksEventReasons, Fact<Clocks> clocks, Fact<Fabric> fabric, Fact<Long> pcieReplays) {

        /** The bus id, or "GPU n (NVML index)" when NVML could not give it. */
        public String label() {
            return busId.orElse("GPU " + index + " (NVML index)");
        }
    }

    /** nvmlDeviceGetMigMode: the current mode and the one the next GPU reset activates. */
    public record Mig(boolean enabled, boolean pendingEnabled) {
    }

    /**
     * nvmlDeviceGetEccMode and nvmlDeviceGetTotalEccErrors. Volatile counts reset each time the driver loads; aggregate
     * counts persist for the life of the board (nvmlEccCounterType_t). Corrected are single-bit errors, uncorrected
     * double-bit errors (nvmlMemoryErrorType_t).
     */
    public record Ecc(boolean enabled, boolean pendingEnabled, Fact<Long> volatileCorrected, Fact<Long> volatileUncorrected,
                      Fact<Long> aggregateCorrected, Fact<Long> aggregateUncorrected) {
    }

    /**
     * nvmlDeviceGetRetiredPages per cause and nvmlDeviceGetRetiredPagesPendingStatus: pages retired for repeated
     * single-bit and for double-bit ECC errors, and whether some wait for a driver reload to be retired.
     */
    public record RetiredPages(Fact<Integer> singleBitEcc, Fact<Integer> doubleBitEcc, Fact<Boolean> pending) {
    }

    /**
     * nvmlDeviceGetRemappedRows (Ampere and newer): rows remapped for correctable and uncorrectable errors, whether a
     * remapping waits for a GPU reset, and whether one ever failed.
     */
    public record RowRemap(int correctable, int uncorrectable, boolean pending, boolean failed) {
    }

    /**
     * One NVLink the GPU has (nvmlDeviceGetNvLinkState answered), with nvmlDeviceGetNvLinkErrorCounter's counters
     * (nvmlNvLinkErrorCounter_t: DL_REPLAY 0, DL_RECOVERY 1, DL_CRC_FLIT 2, DL_CRC_DATA 3, DL_ECC_DATA 4).
     */
    public record NvLink(int link, boolean active, Fact<Long> replay, Fact<Long> recovery, Fact<Long> crcFlit,
                         Fact<Long> crcData, Fact<Long> eccData) {
    }

    /** nvmlDeviceGetClockInfo and nvmlDeviceGetMaxClockInfo for NVML_CLOCK_SM (1) and NVML_CLOCK_MEM (2), in MHz. */
    public record Clocks(Fact<Integer> smMHz, Fact<Integer> smMaxMHz, Fact<Integer> memMHz, Fact<Integer> memMaxMHz) {
    }

    /**
     * nvmlDeviceGetGpuFabricInfoV (Hopper and newer): the GPU's registration with the NVLink fabric (on NVSwitch
     * systems, by the Fabric Manager).
     *
     * @param state         NOT_SUPPORTED, NOT_STARTED, IN_PROGRESS or COMPLETED (NVML_GPU_FABRIC_STATE_*)
     * @param status        the nvmlReturn_t of the registration, meaningful once COMPLETED (SUCCESS when it worked)
     * @param healthSummary HEALTHY, UNHEALTHY, LIMITED_CAPACITY or NOT_SUPPORTED (nvmlGpuFabricInfo_v3_t)
     */
    public record Fabric(String state, Fact<String> status, Fact<Long> healthMask, Fact<String> healthSummary) {
    }

    /**
     * The Xid lines of the kernel log.
     *
     * @param source       the command that gave them, with its time window
     * @param events       every line that names an Xid, in the order logged
     * @param unreadable   lines that mention an Xid but do not have its shape, kept as they are
     */
    public record XidLog(String source, String window, List<XidEvent> events, List<String> unreadable) {

        public XidLog {
            events = List.copyOf(events);
            unreadable = List.copyOf(unreadable);
        }
    }

    /**
     * One Xid: {@code NVRM: Xid (PCI:0000:18:00): 79, pid=…, GPU has fallen off the bus.}
     *
     * @param busId   domain:bus:device.0 of the GPU named in the line (the driver prints no function)
     * @param xid     the Xid number
     * @param detail  what follows the number (pid, process name, the driver's own words)
     * @param when    the line's time stamp as the tool printed it
     */
    public record XidEvent(String busId, int xid, String detail, String when) {
    }

    /** nvmlClocksEventReason* bits (nvml.h) and their names, in bit order. */
    static final String[] REASONS = {"GpuIdle", "ApplicationsClocksSetting", "SwPowerCap", "HwSlowdown", "SyncBoost",
        "SwThermalSlowdown", "HwThermalSlowdown", "HwPowerBrakeSlowdown", "DisplayClockSetting"};

    /** The names of the bits set in a clocks event reason mask; an unknown bit as "bit N". */
    public static List<String> reasonNames(long mask) {
        List<String> out = new ArrayList<>();
        for (int bit = 0; bit < 64; bit++) {
            if ((mask & (1L << bit)) != 0) {
                out.add(bit < REASONS.length ? REASONS[bit] : "bit " + bit);
            }
        }
        return out;
    }
}
