package io.nccldoctor.gdr.text;

import io.nccldoctor.core.Fact;
import io.nccldoctor.gdr.RdmaProbe;
import java.util.List;

/**
 * The files of /sys/class/infiniband/DEV/ports/N as the kernel prints them (drivers/infiniband/core/sysfs.c;
 * reference/peers-and-platform.md B4), read the way the live probe reads them. ibstatus and sysfs listings print
 * these strings unchanged.
 */
final class PortFiles {

    private PortFiles() {
    }

    /** Reads one port file into the port; false when the file is not one the facts need. */
    static boolean read(PasteFacts.PortFacts port, String file, String value, Slot.Line at, List<String> notes) {
        switch (file) {
            case "state" -> PortStates.state(value).ifPresentOrElse(s -> port.state.set(s, at, notes),
                    () -> port.state.fail("unknown port state '" + value + "'", at));
            case "phys_state" -> PortStates.phys(value).ifPresentOrElse(s -> port.phys.set(s, at, notes),
                    () -> port.phys.fail("unknown physical state '" + value + "'", at));
            case "rate" -> {
                port.rate.set(value, at, notes);
                put(port.gbps, RdmaProbe.rateGbps(value), at, notes);
            }
            case "link_layer" -> port.linkLayer.set(value, at, notes);
            case "lid" -> put(port.lid, RdmaProbe.lid(value), at, notes);
            case "sm_lid" -> put(port.smLid, RdmaProbe.lid(value), at, notes);
            default -> {
                return false;
            }
        }
        return true;
    }

    /** A value, or an unreadable one kept as such; an absent one (a description without a part number) sets nothing. */
    static <T> void put(Slot<T> slot, Fact<T> fact, Slot.Line at, List<String> notes) {
        if (fact.isValue()) {
            slot.set(fact.get(), at, notes);
        } else if (fact.isError()) {
            slot.fail(fact.reason(), at);
        }
    }
}
