package io.nccldoctor.gdr.text;

import io.nccldoctor.core.Fact;
import io.nccldoctor.gdr.CounterSnapshot;
import io.nccldoctor.gdr.RdmaDevices;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the sections of one paste state, gathered per device, port and net device, and turned into the records the
 * live probes write ({@link RdmaDevices}, {@link CounterSnapshot.Port}). A fact no section states is absent with
 * "not in the input".
 */
final class PasteFacts {

    static final String NOT_IN_INPUT = "not in the input";

    final List<String> notes = new ArrayList<>();
    private final Map<String, DeviceFacts> devices = new LinkedHashMap<>();
    private final Map<String, NetdevFacts> netdevs = new LinkedHashMap<>();
    /** Set when a tool said there is no RDMA device ("No IB devices found"). */
    private Slot.Line noDevices;

    DeviceFacts device(String name) {
        return devices.computeIfAbsent(name, DeviceFacts::new);
    }

    NetdevFacts netdev(String name) {
        return netdevs.computeIfAbsent(name, NetdevFacts::new);
    }

    void noDevices(Slot.Line at) {
        noDevices = at;
    }

    /** Ties a net device to a port: show_gids' DEV column, ibdev2netdev, rdma link's netdev, gid_attrs/ndevs. */
    void link(String device, int port, String netdev) {
        device(device).port(port).netdevs.add(netdev);
        netdev(netdev);
    }

    RdmaDevices rdma() {
        Set<String> tied = new LinkedHashSet<>();
        List<RdmaDevices.RdmaDevice> list = new ArrayList<>();
        for (DeviceFacts d : devices.values()) {
            if (d.name.equals(RdmaPaste.UNNAMED)) {
                continue; // counters of a device the paste does not name: kept with the counters only
            }
            List<RdmaDevices.RdmaPort> ports = new ArrayList<>();
            d.ports.values().forEach(p -> {
                tied.addAll(p.netdevs);
                p.linkLayerFrom(d.protocol, notes);
                ports.add(p.build(this));
            });
            list.add(new RdmaDevices.RdmaDevice(d.name, d.pci.fact(NOT_IN_INPUT), d.fw.fact(NOT_IN_INPUT), d.guid.fact(NOT_IN_INPUT),
                    d.ports.isEmpty() ? Fact.absent("no port of " + d.name + " in the input") : Fact.of(ports),
                    d.partId.fact(NOT_IN_INPUT)));
        }
        List<RdmaDevices.Netdev> others = netdevs.values().stream().filter(n -> !tied.contains(n.name) && n.statesSomething())
                .map(NetdevFacts::build).toList();
        if (list.isEmpty() && noDevices == null) {
            return new RdmaDevices(Fact.absent("the input names no RDMA device"), others);
        }
        return new RdmaDevices(Fact.of(list), others);
    }

    /** Every port with counters or with a net device whose `ethtool -S` was read, in the counter probe's records. */
    List<CounterSnapshot.Port> counterPorts() {
        List<CounterSnapshot.Port> out = new ArrayList<>();
        for (DeviceFacts d : devices.values()) {
            for (PortFacts p : d.ports.values()) {
                List<CounterSnapshot.Netdev> eth = p.netdevs.stream().map(netdevs::get).filter(n -> n.ethtool != null)
                        .map(NetdevFacts::counters).toList();
                if (p.counters.isEmpty() && p.hwCounters.isEmpty() && eth.isEmpty()) {
                    continue;
                }
                out.add(new CounterSnapshot.Port(d.name, p.number, p.state.fact(NOT_IN_INPUT), p.linkLayer.fact(NOT_IN_INPUT),
                        p.gbps.fact(NOT_IN_INPUT), folder(p.counters, "counters"), folder(p.hwCounters, "hw_counters"),
                        p.netdevs.isEmpty() ? Fact.absent("no net device of this port in the input") : Fact.of(eth)));
            }
        }
        return out;
    }

    /** `ethtool -S` of net devices the input ties to no port. */
    List<CounterSnapshot.Netdev> otherEthtool() {
        Set<String> tied = new LinkedHashSet<>();
        devices.values().forEach(d -> d.ports.values().forEach(p -> tied.addAll(p.netdevs)));
        return netdevs.values().stream().filter(n -> n.ethtool != null && !tied.contains(n.name)).map(NetdevFacts::counters).toList();
    }

    private static Fact<Map<String, Fact<Long>>> folder(Map<String, Fact<Long>> values, String name) {
        return values.isEmpty() ? Fact.absent("no " + name + " in the input") : Fact.of(new TreeMap<>(values));
    }

    /** One RDMA device. */
    static final class DeviceFacts {
        final String name;
        final Slot<String> fw;
        final Slot<String> guid;
        final Slot<String> pci;
        final Slot<Integer> partId;
        /** `rdma dev`'s protocol: "roce", "ib", "iw"; it tells the link layer of every port of the device. */
        final Slot<String> protocol;
        final TreeMap<Integer, PortFacts> ports = new TreeMap<>();

        DeviceFacts(String name) {
            this.name = name;
            fw = new Slot<>(name + " firmware");
            guid = new Slot<>(name + " node GUID");
            pci = new Slot<>(name + " PCI address");
            partId = new Slot<>(name + " part id");
            protocol = new Slot<>(name + " protocol");
        }

        PortFacts port(int n) {
            return ports.computeIfAbsent(n, k -> new PortFacts(name, k));
        }
    }

    /** One port of a device. */
    static final class PortFacts {
        final int number;
        final Slot<String> state;
        final Slot<String> phys;
        final Slot<String> rate;
        final Slot<Double> gbps;
        final Slot<String> linkLayer;
        final Slot<Integer> activeMtu;
        final Slot<Integer> maxMtu;
        final Slot<Integer> lid;
        final Slot<Integer> smLid;
        final Slot<Integer> trafficClass;
        final TreeMap<Integer, GidFacts> gids = new TreeMap<>();
        final Set<String> netdevs = new LinkedHashSet<>();
        final Map<String, Fact<Long>> counters = new LinkedHashMap<>();
        final Map<String, Fact<Long>> hwCounters = new LinkedHashMap<>();
        private final String label;

        PortFacts(String device, int number) {
            this.number = number;
            label = device + " port " + number;
            state = new Slot<>(label + " state");
            phys = new Slot<>(label + " physical state");
            rate = new Slot<>(label + " rate");
            gbps = new Slot<>(label + " rate in Gb/s");
            linkLayer = new Slot<>(label + " link layer");
            activeMtu = new Slot<>(label + " active MTU");
            maxMtu = new Slot<>(label + " max MTU");
            lid = new Slot<>(label + " LID");
            smLid = new Slot<>(label + " SM LID");
            trafficClass = new Slot<>(label + " traffic class");
        }

        GidFacts gid(int index, String gid, List<String> notes, Slot.Line at) {
            GidFacts g = gids.computeIfAbsent(index, i -> new GidFacts(label, i, gid));
            if (!g.gid.equals(gid)) {
                notes.add(label + " GID " + index + ": " + g.gid + " but " + gid + " (" + at + "); the first is kept");
            }
            return g;
        }

        /** rdma dev's "protocol roce" or "protocol ib" gives the link layer where no tool printed it. */
        void linkLayerFrom(Slot<String> protocol, List<String> notes) {
            String layer = switch (protocol.isSet() ? protocol.value() : "") {
                case "roce" -> "Ethernet";
                case "ib" -> "InfiniBand";
                default -> null;
            };
            if (layer != null && !linkLayer.isSet()) {
                linkLayer.set(layer, protocol.from(), notes);
                notes.add(label + " link layer: " + layer + ", from the device's protocol " + protocol.value() + " ("
                        + protocol.from() + ")");
            }
        }

        RdmaDevices.RdmaPort build(PasteFacts all) {
            Optional<GidFacts> v2 = gids.values().stream().filter(g -> "RoCE v2".equals(g.type.value())).findFirst();
            if (!linkLayer.isSet() && v2.isPresent()) {
                // only an Ethernet port has RoCE v2 GIDs; InfiniBand GIDs are typed "IB/RoCE v1" like RoCE v1 ones
                linkLayer.set("Ethernet", v2.get().type.from(), all.notes);
                all.notes.add(label + " link layer: Ethernet, inferred from its RoCE v2 GID " + v2.get().index + " ("
                        + v2.get().type.from() + "); no tool in the input printed the link layer");
            }
            Fact<List<RdmaDevices.Gid>> gidList = gids.isEmpty()
                    ? Fact.absent("no GID table of this port in the input (show_gids or ibv_devinfo -v print it)")
                    : Fact.of(gids.values().stream().filter(g -> !g.gid.equals(Gids.ZERO)).map(GidFacts::build).toList());
            List<RdmaDevices.Netdev> nds = netdevs.stream().map(all::netdev).map(NetdevFacts::build).toList();
            return new RdmaDevices.RdmaPort(number, state.fact(NOT_IN_INPUT), phys.fact(NOT_IN_INPUT), gbps.fact(NOT_IN_INPUT),
                    rate.fact(NOT_IN_INPUT), linkLayer.fact(NOT_IN_INPUT), gidList,
                    nds.isEmpty() ? Fact.absent("no net device of this port in the input") : Fact.of(nds),
                    activeMtu.fact(NOT_IN_INPUT), maxMtu.fact(NOT_IN_INPUT), lid.fact(NOT_IN_INPUT), smLid.fact(NOT_IN_INPUT),
                    trafficClass.fact(NOT_IN_INPUT));
        }
    }

    /** One GID table entry. */
    static final class GidFacts {
        final int index;
        final String gid;
        final Slot<String> type;
        final Slot<String> netdev;

        GidFacts(String port, int index, String gid) {
            this.index = index;
            this.gid = gid;
            type = new Slot<>(port + " GID " + index + " type");
            netdev = new Slot<>(port + " GID " + index + " net device");
        }

        RdmaDevices.Gid build() {
            return new RdmaDevices.Gid(index, gid, type.fact("no GID type in the input for this entry"), netdev.fact(NOT_IN_INPUT));
        }
    }

    /** One net device. */
    static final class NetdevFacts {
        final String name;
        final Slot<Integer> mtu;
        final Slot<String> link;
        RdmaDevices.Qos qos;
        Map<String, Long> ethtool;

        NetdevFacts(String name) {
            this.name = name;
            mtu = new Slot<>(name + " MTU");
            link = new Slot<>(name + " link");
        }

        RdmaDevices.Netdev build() {
            return new RdmaDevices.Netdev(name, mtu.fact(NOT_IN_INPUT), Fact.absent(NOT_IN_INPUT + " (no RDMA tool prints "
                    + "a net device's IPv4 prefix)"), Fact.absent(NOT_IN_INPUT), Fact.absent(NOT_IN_INPUT),
                    link.fact(NOT_IN_INPUT), qos == null ? Fact.absent(NOT_IN_INPUT + " (`mlnx_qos -i " + name + "` prints it)")
                    : Fact.of(qos));
        }

        /** Whether the paste states more of it than `ethtool -S` counters, which are kept with the counters. */
        boolean statesSomething() {
            return qos != null || mtu.isSet() || link.isSet();
        }

        CounterSnapshot.Netdev counters() {
            return new CounterSnapshot.Netdev(name, Fact.of(ethtool));
        }
    }
}
