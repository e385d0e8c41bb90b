package io.nccldoctor.pcie;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What lspci text says about one function while it is being read; unknown fields stay null and become absent facts
 * at the end. A fragment (attribute lines with no header line above them) has no address unless {@code lspci -s}
 * named it.
 */
final class LspciRaw {
    final String address;
    String parent;
    String vendor;
    String device;
    String cls;
    String className;
    String name;
    Double speed;
    Integer width;
    Double maxSpeed;
    Integer maxWidth;
    String portType;
    Integer mpsCap;
    Integer mps;
    Integer mrrs;
    List<String> acs;
    Boolean ats;
    boolean accessDenied;
    Integer numa;
    /** True when the block shows the lines lspci prints the NUMA node with, so a missing one means the kernel's -1. */
    boolean numaSection;
    String driver;
    String subsystem;
    int[] busRange;
    /** True for a function of an {@code lspci -t} tree: its parent is what the tree shows, never inferred. */
    boolean inTree;
    /** True for a bridge known only as a component of another function's {@code lspci -PP} path. */
    boolean bridgeOfPath;
    /** True when no header line named this function (grep'd excerpts). */
    boolean headerless;
    int firstLine;
    int lastLine;
    /** Attribute keys and capability names seen, to tell where one grep'd device ends and the next begins. */
    final Set<String> seen = new LinkedHashSet<>();

    LspciRaw(String address) {
        this.address = address;
    }

    /** The attribute lines a paste can hold that say nothing read here; the rest are named. */
    List<String> missing() {
        List<String> out = new ArrayList<>();
        if (address == null) {
            out.add("the device address (no header line, no `lspci -s BDF`)");
        }
        if (headerless) {
            out.add(driver != null && PciIds.vendorOfDriver(driver).isPresent()
                    ? "class and device id (no header line; the vendor, " + PciIds.vendorOfDriver(driver).get() + ", is its driver's)"
                    : "class, vendor and device ids (no header line)");
        }
        if (accessDenied) {
            out.add("LnkCap, LnkSta, DevCtl, ACSCtl and ATSCtl: lspci ran without root ('Capabilities: <access denied>')");
        } else {
            addIf(out, maxSpeed == null, "LnkCap");
            addIf(out, speed == null, "LnkSta");
            addIf(out, mps == null, "DevCtl MaxPayload");
            addIf(out, acs == null, "ACSCtl");
            addIf(out, ats == null, "ATSCtl");
        }
        addIf(out, numa == null, "NUMA node");
        addIf(out, driver == null, "Kernel driver in use");
        return out;
    }

    private static void addIf(List<String> out, boolean missing, String what) {
        if (missing) {
            out.add(what);
        }
    }
}
