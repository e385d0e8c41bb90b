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
 */
public record PciDevice(String address, String vendorId, String deviceId, String classCode, DeviceKind kind,
                        Fact<PciNames> names, Fact<String> driver, Fact<Integer> numaNode) {

    public record PciNames(String vendor, String device, String className) {
    }

    public String ids() {
        return vendorId + ":" + deviceId;
    }
}
