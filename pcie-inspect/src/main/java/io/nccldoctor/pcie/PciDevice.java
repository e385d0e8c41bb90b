package io.nccldoctor.pcie;

import io.nccldoctor.core.Fact;

/**
 * One PCI function as sysfs shows it.
 *
 * @param address   domain:bus:device.function, e.g. 0000:17:00.0
 * @param vendorId  four hex digits, e.g. 10de
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
public record PciDevice(String address, String vendorId, String deviceId, String classCode, DeviceKind kind,
                        Fact<PciNames> names, Fact<String> driver, Fact<Integer> numaNode, Fact<String> sysfsPath,
                        PciLink link, PcieConfig config, Fact<AerCounts> aer,
                        Fact<String> localCpus, Fact<String> subsystem) {

    /** Totals of the TOTAL_ERR_* lines of aer_dev_correctable, aer_dev_nonfatal and aer_dev_fatal. */
    public record AerCounts(long correctable, long nonFatal, long fatal) {
    }

    public record PciNames(String vendor, String device, String className) {
    }

    public String ids() {
        return vendorId + ":" + deviceId;
    }

    /** The lspci name when known, else the ids, else (ids unknown, as in virtual topology files) the class. */
    public String label() {
        if (names.isValue() && !names.get().device().isBlank()) {
            return (names.get().vendor() + " " + names.get().device()).strip();
        }
        return vendorId.equals("0000") ? "class " + classCode : ids();
    }
}
