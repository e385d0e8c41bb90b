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
}
