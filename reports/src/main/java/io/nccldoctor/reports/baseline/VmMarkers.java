package io.nccldoctor.reports.baseline;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Devices only a virtual machine has: the vendor ids of QEMU's emulated devices and of other hypervisors, and the names
 * lspci gives them. QEMU include/hw/pci/pci.h: {@code PCI_VENDOR_ID_REDHAT 0x1b36} (its PCIe root ports and
 * bridges), {@code PCI_VENDOR_ID_REDHAT_QUMRANET 0x1af4} (virtio devices), {@code PCI_VENDOR_ID_VMWARE 0x15ad}; the
 * pci.ids database names 1414 Microsoft Corporation (Hyper-V). A Kata Containers guest (QEMU q35) shows "Red Hat, Inc.
 * Virtio …" functions and every GPU on a root port of its own (corpus/lspci-tree/lspci-tree-kata-vm-*).
 */
final class VmMarkers {

    static final Map<String, String> VENDORS = Map.of("1b36", "Red Hat, Inc. (QEMU's emulated bridges)", "1af4",
            "Red Hat, Inc. (virtio)", "15ad", "VMware", "1414", "Microsoft Corporation (Hyper-V)");
    private static final List<String> NAMES = List.of("virtio", "qemu", "vmware", "hyper-v");

    private VmMarkers() {
    }

    /** Whether a vendor id (four hex digits) is a hypervisor's. */
    static boolean vendor(String vendorId) {
        return VENDORS.containsKey(vendorId.toLowerCase(Locale.ROOT));
    }

    /** The lines of an lspci listing that name a hypervisor's device, trimmed. */
    static List<String> lines(List<String> lspci) {
        List<String> out = new ArrayList<>();
        for (String l : lspci) {
            String low = l.toLowerCase(Locale.ROOT);
            boolean byName = NAMES.stream().anyMatch(low::contains);
            boolean byId = VENDORS.keySet().stream().anyMatch(v -> low.contains("[" + v + ":"));
            if (byName || byId) {
                out.add(l.strip());
            }
        }
        return out;
    }
}
