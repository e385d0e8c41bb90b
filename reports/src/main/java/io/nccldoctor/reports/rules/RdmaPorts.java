package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.RdmaDevices;
import io.nccldoctor.reports.Sections;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Every RDMA port with its device, for the port rules; empty when there is no RDMA device to judge. */
final class RdmaPorts {

    private RdmaPorts() {
    }

    record Port(RdmaDevices.RdmaDevice device, RdmaDevices.RdmaPort port) {
        String label() {
            return device.name() + " port " + port.number();
        }

        boolean roce() {
            return port.linkLayer().orElse("").equals("Ethernet");
        }
    }

    static Optional<List<Port>> of(Snapshot s) {
        var rdma = Sections.rdma(s).map(RdmaDevices::devices);
        if (rdma.isEmpty() || !rdma.get().isValue() || rdma.get().get().isEmpty()) {
            return Optional.empty();
        }
        List<Port> out = new ArrayList<>();
        for (RdmaDevices.RdmaDevice d : rdma.get().get()) {
            d.ports().orElse(List.of()).forEach(p -> out.add(new Port(d, p)));
        }
        return Optional.of(out);
    }

    static String whyNone(Snapshot s) {
        return Sections.rdma(s).map(r -> r.devices().isValue() ? "no RDMA device" : r.devices().reason()).orElse("RDMA devices not probed");
    }
}
