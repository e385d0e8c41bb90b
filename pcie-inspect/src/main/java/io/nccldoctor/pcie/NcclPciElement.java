package io.nccldoctor.pcie;

import io.nccldoctor.core.Fact;
import java.util.Locale;
import java.util.Map;

/**
 * One {@code <pci>} element of a topology file while it is read: its attributes, where it sits, and what its children
 * said it is ({@code <gpu>}, {@code <nic>}), which a file without class attributes relies on.
 */
final class NcclPciElement {

    final String busId;
    final Map<String, String> attributes;
    final String path;
    final int depth;
    final Fact<Integer> numa;
    boolean gpu;
    boolean nic;
    /** A {@code <gpu>} with RCCL's attributes: an AMD GPU. */
    boolean rccl;

    NcclPciElement(String busId, Map<String, String> attributes, String path, int depth, Fact<Integer> numa) {
        this.busId = busId;
        this.attributes = attributes;
        this.path = path;
        this.depth = depth;
        this.numa = numa;
    }

    PciDevice toDevice() {
        String vendor = hex("vendor", 4);
        String device = hex("device", 4);
        String cls = attributes.containsKey("class") ? hex("class", 6) : LspciClasses.UNKNOWN;
        Fact<Double> speed = attributes.containsKey("link_speed") ? PciLink.parseSpeed(attributes.get("link_speed"))
                : Fact.absent("no link_speed attribute");
        Fact<Integer> width = attributes.containsKey("link_width") ? PciLink.parseWidth(attributes.get("link_width"))
                : Fact.absent("no link_width attribute");
        String why = "not in NCCL topology XML";
        PcieConfig config = new PcieConfig(Fact.absent(why), Fact.absent(why), Fact.absent(why), Fact.absent(why),
                Fact.absent(why), Fact.absent(why));
        return new PciDevice(busId, vendor, device, cls, kind(vendor, device, cls), Fact.absent(why), Fact.absent(why), numa,
                Fact.of(path), new PciLink(speed, width, speed, width), config, Fact.absent(why), Fact.absent(why), subsystem());
    }

    /**
     * The table's kind, then NCCL's own reading (src/graph/topo.cc kvDictPciClass: "0x03" GPU, "0x02" NIC by class
     * alone): a virtual file that gives the class and no vendor (Azure's) has GPUs, and a file that gives no class at
     * all (AWS's g5, read by NCCL together with sysfs) is typed by its {@code <gpu>} and {@code <nic>} children.
     */
    private DeviceKind kind(String vendor, String device, String cls) {
        DeviceKind k = DeviceKind.classify(vendor, device, cls);
        boolean vendorless = vendor.equals("0000") || vendor.equals("ffff");
        boolean untyped = vendorless || cls.equals(LspciClasses.UNKNOWN);
        if (k == DeviceKind.DISPLAY && vendorless || k == DeviceKind.OTHER && untyped && gpu) {
            return rccl ? DeviceKind.AMD_GPU : DeviceKind.GPU;
        }
        if (k == DeviceKind.OTHER && untyped && nic) {
            return DeviceKind.NIC;
        }
        return k;
    }

    /** What the file says that the table does not confirm, or null: a {@code <gpu>} under a vendor that makes none. */
    String doubt(PciDevice d) {
        if (gpu && !d.kind().isGpu()) {
            return "<pci " + busId + "> holds a <gpu>, but class " + d.classCode() + " vendor " + d.vendorId()
                    + " is no NVIDIA or AMD Instinct GPU in the table: kept as " + d.kind().name().toLowerCase(Locale.ROOT);
        }
        if (nic && d.kind() != DeviceKind.NIC) {
            return "<pci " + busId + "> holds a <nic>, but class " + d.classCode() + " is not a network class: kept as "
                    + d.kind().name().toLowerCase(Locale.ROOT);
        }
        return null;
    }

    private Fact<String> subsystem() {
        if (!attributes.containsKey("subsystem_vendor") || !attributes.containsKey("subsystem_device")) {
            return Fact.absent("no subsystem ids in the XML");
        }
        return Fact.of(hex("subsystem_vendor", 4) + ":" + hex("subsystem_device", 4));
    }

    /** "0x10de" → "10de"; missing or unreadable → zeros, which the table knows as "unknown". */
    private String hex(String attribute, int digits) {
        String v = attributes.getOrDefault(attribute, "").strip().toLowerCase(Locale.ROOT);
        v = v.startsWith("0x") ? v.substring(2) : v;
        if (!v.matches("[0-9a-f]+")) {
            return "0".repeat(digits);
        }
        return v.length() >= digits ? v.substring(v.length() - digits) : "0".repeat(digits - v.length()) + v;
    }
}
