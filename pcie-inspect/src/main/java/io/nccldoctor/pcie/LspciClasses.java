package io.nccldoctor.pcie;

import java.util.Locale;
import java.util.Optional;

/**
 * The class of a function whose lspci text gave no class code: from the class name lspci printed without -n, else
 * (lspci -tv prints no class at all) from the device name through the family table, else from the tree's shape.
 * What none of these tells stays "ff0000" (unassigned) and is listed as not understood.
 */
final class LspciClasses {

    static final String UNKNOWN = "ff0000";

    private LspciClasses() {
    }

    static String guess(LspciRaw r, String vendor, String device, boolean hasChildren) {
        if (r.className != null) {
            Optional<String> byName = PciIds.classOfName(r.className);
            if (byName.isPresent()) {
                return byName.get();
            }
        }
        String name = r.name == null ? "" : r.name.toLowerCase(Locale.ROOT);
        Optional<String> named = byDeviceName(name, hasChildren || r.busRange != null);
        if (named.isPresent()) {
            return named.get();
        }
        if (hasChildren || r.busRange != null || name.contains("bridge") || name.contains("root port") || name.contains("switch")) {
            return "060400";
        }
        if (vendor.equals(PciIds.NVIDIA)) {
            // an NVIDIA function that is not its GPU's audio or USB-C controller, or an NVSwitch, is the GPU
            return name.contains("audio") || name.contains("usb") || name.contains("nvswitch") ? "040300" : "030200";
        }
        Optional<PciIds.Family> family = PciIds.family(vendor, device, UNKNOWN, r.name);
        if (family.isPresent()) {
            return family.get().role() == PciIds.Role.RDMA_NIC ? "020000" : "038000";
        }
        if (name.contains("ethernet") || name.contains("network adapter") || name.contains("network controller")) {
            return "020000";
        }
        return UNKNOWN;
    }

    /**
     * Classes that a device name states outright, where "bridge" alone would mislead: an LPC or ISA bridge (AMD's
     * "FCH LPC Bridge", Intel's "LPC Controller") has no secondary bus, pci.ids class 06 01 "ISA bridge"; a "Host
     * Bridge" without children is class 06 00; an "NVMe" controller is 01 08 02 "Non-Volatile memory controller, NVM
     * Express" (the NVMe spec fixes that class code). A RAID card that names NVMe (HighPoint's "NVMe RAID Controller")
     * is not read as NVMe.
     */
    static Optional<String> byDeviceName(String lowerName, boolean hasChildren) {
        if (hasChildren) {
            return Optional.empty();
        }
        if (lowerName.contains("lpc bridge") || lowerName.contains("isa bridge") || lowerName.contains("lpc controller")) {
            return Optional.of("060100");
        }
        if (lowerName.contains("host bridge")) {
            return Optional.of("060000");
        }
        if (lowerName.contains("nvme") && !lowerName.contains("raid")) {
            return Optional.of("010802");
        }
        return Optional.empty();
    }
}
