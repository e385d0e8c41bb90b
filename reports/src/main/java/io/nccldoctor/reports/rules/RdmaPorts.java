package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.RdmaDevices;
import io.nccldoctor.reports.Sections;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

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

    /**
     * A net device with the port it belongs to, when the input ties it to one.
     *
     * @param port empty for a net device the input names without a port (an `mlnx_qos -i eth4` alone)
     */
    record Nic(RdmaDevices.Netdev netdev, Optional<Port> port) {
        String label() {
            return port.map(p -> p.label() + " (" + netdev.name() + ")").orElse(netdev.name());
        }

        /** The driver's per-port traffic class, which MLNX_OFED applies to every QP of the port. */
        Fact<Integer> trafficClass() {
            return port.map(p -> p.port().trafficClass()).orElse(Fact.absent("the input ties " + netdev.name() + " to no RDMA port"));
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

    /** The net devices of Ethernet (or unknown link layer) ports, then those tied to no port; each once. */
    static List<Nic> nics(Snapshot s) {
        List<Nic> out = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (Port p : of(s).orElse(List.of())) {
            if (p.port().linkLayer().orElse("Ethernet").equals("Ethernet")) {
                p.port().netdevs().orElse(List.of()).stream().filter(n -> seen.add(n.name())).forEach(n -> out.add(new Nic(n, Optional.of(p))));
            }
        }
        Sections.rdma(s).ifPresent(r -> r.otherNetdevs().stream().filter(n -> seen.add(n.name()))
                .forEach(n -> out.add(new Nic(n, Optional.empty()))));
        return out;
    }

    /**
     * Why no port is judged as RoCE: how many are InfiniBand and how many have no link layer read. The net device
     * rules ({@link #nics}) still look at the net devices of the latter, which is said here so the two do not seem to
     * disagree.
     */
    static String whyNoRoce(List<Port> ports) {
        long ib = ports.stream().filter(p -> p.port().linkLayer().orElse("").equals("InfiniBand")).count();
        long unknown = ports.stream().filter(p -> !p.port().linkLayer().isValue()).count();
        long other = ports.size() - ib - unknown;
        List<String> parts = new ArrayList<>();
        if (ib > 0) {
            parts.add(ib + " InfiniBand port" + (ib == 1 ? "" : "s"));
        }
        if (other > 0) {
            parts.add(other + " port" + (other == 1 ? "" : "s") + " of another link layer (" + String.join(", ", ports.stream().map(p -> p.port().linkLayer())
                    .filter(Fact::isValue).map(Fact::get).filter(l -> !l.equals("InfiniBand")).distinct().toList()) + ")");
        }
        if (unknown > 0) {
            parts.add(unknown + " port" + (unknown == 1 ? "" : "s") + " with no link layer read (their net devices, if any, are still checked by the net device rules)");
        }
        return "no RoCE port: " + String.join(", ", parts);
    }

    static String whyNone(Snapshot s) {
        return Sections.rdma(s).map(r -> r.devices().isValue() ? "no RDMA device" : r.devices().reason()).orElse("RDMA devices not probed");
    }
}
