package io.nccldoctor.reports.cluster;

import io.nccldoctor.core.Fact;
import io.nccldoctor.gdr.RdmaDevices;
import io.nccldoctor.gdr.RdmaDevices.RdmaDevice;
import io.nccldoctor.gdr.RdmaDevices.RdmaPort;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The RDMA facts of the drift table: device names, firmware per HCA, and state, rate, MTU and ARP per port. */
final class RdmaFacts {

    private RdmaFacts() {
    }

    /** The device names in natural order: "mlx5_0 mlx5_1 … mlx5_9". */
    static Cell names(NodeView n) {
        return HostFacts.cell(n.rdma(), r -> Cell.of(r.devices(), l -> l.isEmpty() ? "none"
                : l.stream().map(RdmaDevice::name).sorted(NaturalOrder.INSTANCE).collect(Collectors.joining(" "))));
    }

    static Fact<Map<String, Cell>> firmware(NodeView n) {
        return devices(n).map(list -> {
            Map<String, Cell> out = new LinkedHashMap<>();
            list.forEach(d -> out.put(d.name(), Cell.known(d.fwVersion(), v -> v)));
            return out;
        });
    }

    /** "ACTIVE (LinkUp)". */
    static Fact<Map<String, Cell>> state(NodeView n) {
        return ports(n, (d, p) -> Optional.of(Cell.known(p.state(), s -> s + p.physState().map(x -> " (" + x + ")").orElse(""))));
    }

    /** The rate as the kernel prints it ("400 Gb/sec (4X NDR)"): lanes and generation as well as the speed. */
    static Fact<Map<String, Cell>> rate(NodeView n) {
        return ports(n, (d, p) -> Optional.of(p.rate().isValue() ? Cell.of(p.rate().get())
                : Cell.known(p.rateGbps(), g -> String.format(Locale.ROOT, "%.0f Gb/s", g))));
    }

    /** The MTUs of the port's net devices (RoCE); InfiniBand ports have none and get no row. */
    static Fact<Map<String, Cell>> mtu(NodeView n) {
        return perNetdev(n, nd -> nd.mtu().map(String::valueOf));
    }

    /** arp_ignore / arp_announce of the port's net devices. */
    static Fact<Map<String, Cell>> arp(NodeView n) {
        return perNetdev(n, nd -> nd.arpIgnore().flatMap(i -> nd.arpAnnounce().map(a -> "arp_ignore " + i + ", arp_announce " + a)));
    }

    private static Fact<Map<String, Cell>> perNetdev(NodeView n, Function<RdmaDevices.Netdev, Fact<String>> read) {
        return ports(n, (d, p) -> {
            if (!p.netdevs().isValue()) {
                return p.netdevs().isAbsent() ? Optional.empty() : Optional.of(Cell.unknown(p.netdevs().reason()));
            }
            List<RdmaDevices.Netdev> netdevs = p.netdevs().get();
            if (netdevs.isEmpty()) {
                return Optional.empty();
            }
            TreeSet<String> values = new TreeSet<>(NaturalOrder.INSTANCE);
            for (RdmaDevices.Netdev nd : netdevs) {
                Fact<String> v = read.apply(nd);
                if (!v.isValue()) {
                    return Optional.of(Cell.unknown(nd.name() + ": " + v.reason()));
                }
                values.add(v.get());
            }
            return Optional.of(Cell.of(String.join("; ", values)));
        });
    }

    /** One cell per port, keyed "mlx5_0/1"; a port the reader gives nothing for (no net device) has no row. */
    private static Fact<Map<String, Cell>> ports(NodeView n, BiFunction<RdmaDevice, RdmaPort, Optional<Cell>> read) {
        return devices(n).flatMap(list -> {
            Map<String, Cell> out = new LinkedHashMap<>();
            for (RdmaDevice d : list) {
                if (!d.ports().isValue()) {
                    return Fact.error("ports of " + d.name() + " unreadable: " + d.ports().reason());
                }
                for (RdmaPort p : d.ports().get()) {
                    read.apply(d, p).ifPresent(c -> out.put(d.name() + "/" + p.number(), c));
                }
            }
            return Fact.of(out);
        });
    }

    /** The devices; none (an empty list) when the node has no RDMA device, so every per-device row says so. */
    private static Fact<List<RdmaDevice>> devices(NodeView n) {
        return n.rdma().flatMap(r -> r.devices().isAbsent() ? Fact.of(List.<RdmaDevice>of()) : r.devices());
    }
}
