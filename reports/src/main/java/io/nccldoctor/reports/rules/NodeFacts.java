package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.pcie.DeviceKind;
import io.nccldoctor.pcie.PciDevice;
import io.nccldoctor.pcie.PciInventory;
import io.nccldoctor.reports.Sections;
import java.util.List;
import java.util.Optional;

/** Counts the rules share, read once from the PCI inventory. */
final class NodeFacts {

    private NodeFacts() {
    }

    /** The PCI inventory when it was read; empty when the probe did not run or could not list the bus. */
    static Optional<List<PciDevice>> devices(Snapshot s) {
        return Sections.pci(s).map(PciInventory::devices).filter(f -> f.isValue()).map(f -> f.get());
    }

    /** Whether the PCI inventory lists an NVIDIA GPU (false when it could not be read). */
    static boolean hasGpu(Snapshot s) {
        return !ofKind(devices(s).orElse(List.of()), DeviceKind.GPU).isEmpty();
    }

    static List<PciDevice> ofKind(List<PciDevice> devices, DeviceKind kind) {
        return devices.stream().filter(d -> d.kind() == kind).toList();
    }

    static List<String> describe(List<PciDevice> devices) {
        return devices.stream().map(d -> d.address() + " [" + d.ids() + "] class " + d.classCode()
                + d.names().map(n -> " " + n.vendor() + " " + n.device()).orElse("")).toList();
    }

    static String pciUnreadable(Snapshot s) {
        return Sections.pci(s).map(p -> "the PCI bus could not be listed: " + p.devices().describe())
                .orElse("the PCI inventory was not probed");
    }
}
