package io.nccldoctor.pcie;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.nccldoctor.core.Fact;

/**
 * One PCI function as sysfs shows it.
 *
 * @param address   domain:bus:device.function, e.g. 0000:17:00.0
 * @param vendorId  four hex digits, e.g. 10de
 * @param deviceId  four hex digits, e.g. 2330; "0000" (no device has it) where the input does not print the id (lspci
 *                  without -n, a topology file without the attribute): left out of the JSON then, and shown as "?"
 * @param classCode six hex digits, e.g. 030200 (3D controller)
 * @param names     vendor and device names from the pci.ids database through {@code lspci -mm}, when available
 * @param driver    the bound kernel driver (the basename of the {@code driver} link)
 * @param numaNode  from {@code numa_node}; absent when the kernel says -1 (no affinity known)
 * @param sysfsPath the real path of the device folder; its components are the bridges above it, NCCL reads the
 *                  same path to build its topology (reference/peers-and-platform.md B2)
 * @param link      the upstream link: current and maximum speed and width
 * @param config    MaxPayload, MaxReadReq and ACS from the config space (root only)
 * @param aer       AER error totals (correctable, nonFatal, fatal) from aer_dev_*, where the kernel has them
 * @param localCpus the CPUs near the device (local_cpulist), what nvidia-smi prints as CPU Affinity
 * @param subsystem subsystem vendor:device ids (the board maker's ids: which H100 board, which OEM NIC)
 */
public record PciDevice(String address, String vendorId,
                        @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = UnknownId.class) String deviceId,
                        String classCode, DeviceKind kind,
                        Fact<PciNames> names, Fact<String> driver, Fact<Integer> numaNode, Fact<String> sysfsPath,
                        PciLink link, PcieConfig config, Fact<AerCounts> aer,
                        Fact<String> localCpus, Fact<String> subsystem) {

    public PciDevice {
        deviceId = deviceId == null ? PciIds.UNKNOWN_DEVICE : deviceId; // a JSON written without it: not in the input
    }

    /** Leaves an unknown device id out of the JSON: absent, not a value (Jackson's CUSTOM filter: equal means excluded). */
    public static final class UnknownId {
        @Override
        public boolean equals(Object o) {
            return PciIds.UNKNOWN_DEVICE.equals(o);
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }

    /** Totals of the TOTAL_ERR_* lines of aer_dev_correctable, aer_dev_nonfatal and aer_dev_fatal. */
    public record AerCounts(long correctable, long nonFatal, long fatal) {
    }

    public record PciNames(String vendor, String device, String className) {
    }

    /**
     * "15b3:1021"; "15b3:?" where the input does not print the device id, "?:?" where it prints neither (a bare
     * {@code <pci>} of a hand-written NCCL topology file): no vendor has the id 0000, so it is not shown as one.
     */
    public String ids() {
        return (PciIds.vendorKnown(vendorId) ? vendorId : "?") + ":" + (deviceId.equals(PciIds.UNKNOWN_DEVICE) ? "?" : deviceId);
    }

    /** The lspci name when known, else the ids, else (ids unknown, as in virtual topology files) the class. */
    public String label() {
        if (names.isValue() && !names.get().device().isBlank()) {
            return (names.get().vendor() + " " + names.get().device()).strip();
        }
        return vendorId.equals("0000") ? "class " + classCode : ids();
    }
}
