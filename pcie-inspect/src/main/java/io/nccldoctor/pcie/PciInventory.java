package io.nccldoctor.pcie;

import io.nccldoctor.core.Fact;
import java.util.List;

/**
 * Every PCI function of the node, from /sys/bus/pci/devices.
 *
 * @param namesSource where device names came from, or why there are none (lspci missing)
 */
public record PciInventory(Fact<List<PciDevice>> devices, Fact<String> namesSource) {

    public List<PciDevice> ofKind(DeviceKind kind) {
        return devices.orElse(List.of()).stream().filter(d -> d.kind() == kind).toList();
    }
}
