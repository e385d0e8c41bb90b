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
    private final List<AdapterFacts> adapters = new ArrayList<>();
    private final List<DriverFacts> drivers = new ArrayList<>();
    /** Nodes `ibportstate` reached, by the address it printed: fabric ports, not this host's devices. */
    private final Map<String, DeviceFacts> fabric = new LinkedHashMap<>();
    /** Lines of ibv_devinfo's "Failed to open device" / "Failed to query device props", one per device not opened. */
    private final List<Integer> unopened = new ArrayList<>();
    /** Set when a tool said there is no RDMA device ("No IB devices found"). */
    private Slot.Line noDevices;
    /** Set when show_gids listed no GID at all ("n_gids_found=0"), with what it says. */
    private Slot.Line noGids;
    private String noGidsText;
    /** show_gids listings whose count line matched their rows: the devices whose whole GID tables they show. */
    private final List<GidListing> gidListings = new ArrayList<>();
    /** ibv_devices headers by line, each with the devices of its rows. */
    private final Map<Slot.Line, List<String>> ibvDevices = new LinkedHashMap<>();
    private Slot.Line ibvDevicesHeader;

    /**
     * One complete show_gids listing.
     *
     * @param named  the devices its command line named; empty for every device, null when no command line shows which
     * @param listed the devices of its rows
     */
    private record GidListing(Set<String> named, Set<String> listed, Slot.Line at) {

        boolean covers(String device) {
            return listed.contains(device) || (named != null && (named.isEmpty() || named.contains(device)));
        }
    }

    DeviceFacts device(String name) {
        return devices.computeIfAbsent(name, DeviceFacts::new);
    }

    NetdevFacts netdev(String name) {
        return netdevs.computeIfAbsent(name, NetdevFacts::new);
    }

    /** A new mlxfwmanager device block: blocks are numbered per call, so a second call's "Device #1" is another block. */
    AdapterFacts adapter(int number, Slot.Line at) {
        AdapterFacts a = new AdapterFacts(number, at);
        adapters.add(a);
        return a;
    }

    /**
     * The mlxfwmanager blocks, with a note where two name one PCI address (two hosts' outputs, or one host's before
     * and after a firmware update: not one host's adapters) or where adapters at different addresses run different
     * firmware.
     */
    List<RdmaPaste.Adapter> adapters() {
        List<RdmaPaste.Adapter> out = adapters.stream().map(MlxfwmanagerReader::build).toList();
        Map<String, List<RdmaPaste.Adapter>> byPci = new LinkedHashMap<>();
        out.stream().filter(a -> a.pci().isValue()).forEach(a -> byPci.computeIfAbsent(a.pci().get(), k -> new ArrayList<>()).add(a));
        byPci.forEach((pci, same) -> {
            if (same.size() > 1) {
                notes.add("mlxfwmanager: " + same.size() + " blocks name PCI device " + pci + " (lines " + String.join(", ",
                        same.stream().map(a -> a.line() + " firmware " + a.fw().orElse("?")).toList()) + "): one host has one "
                        + "device at an address, so these are several hosts' outputs or one host's at different times");
            }
        });
        Set<String> fw = new LinkedHashSet<>();
        byPci.values().stream().map(same -> same.get(0).fw()).filter(Fact::isValue).forEach(f -> fw.add(f.get()));
        if (fw.size() > 1) {
            notes.add("mlxfwmanager: adapters at different PCI addresses run different firmware " + fw + "; the blocks name "
                    + "no RDMA device, so the devices' firmware check does not see them");
        }
        return out;
    }

    /** A new `ethtool -i` block of the net device its command line named (or {@link RdmaPaste#UNNAMED}). */
    DriverFacts driverInfo(String netdev, Slot.Line at) {
        DriverFacts d = new DriverFacts(netdev, at);
        drivers.add(d);
        return d;
    }

    DeviceFacts fabricNode(String address) {
        return fabric.computeIfAbsent(address, DeviceFacts::new);
    }

    /** The ports ibportstate printed, each also said in a note, since the port rules do not judge them. */
    List<RdmaDevices.RdmaDevice> fabric() {
        List<RdmaDevices.RdmaDevice> out = new ArrayList<>();
        for (DeviceFacts d : fabric.values()) {
            List<RdmaDevices.RdmaPort> ports = d.ports.values().stream().map(p -> p.build(this)).toList();
            ports.forEach(p -> notes.add("ibportstate " + d.name + " port " + p.number() + ": " + p.state().describe() + " ("
                    + p.physState().describe() + "), " + p.rate().describe() + (p.lid().isValue() ? ", LID " + p.lid().get() : "")
                    + "; a fabric port reached by that address (a switch's, or the far end of a link), not one of this host's "
                    + "RDMA devices: kept apart (fabric), not judged by the port rules"));
            out.add(new RdmaDevices.RdmaDevice(d.name, Fact.absent("ibportstate prints no PCI address"), Fact.absent(NOT_IN_INPUT),
                    Fact.absent(NOT_IN_INPUT), Fact.of(ports), Fact.absent(NOT_IN_INPUT)));
        }
        return out;
    }

    /** ibv_devinfo could not open (or query) a device it found; it does not say which. */
    void unopened(Slot.Line at) {
        unopened.add(at.number());
    }

    int unopenedCount() {
        return unopened.size();
    }

    /**
     * The note that says the devices ibv_devinfo could not open, or nothing. print_hca_cap (rdma-core
     * libibverbs/examples/devinfo.c) prints "Failed to open device" when ibv_open_device fails on a device of the
     * list, before its hca_id line, so the device is not named: its /dev/infiniband/uverbsN is missing in a
     * container that was not given it (an SR-IOV VF assigned elsewhere), or not readable by the user.
     */
    void unopenedNote() {
        if (!unopened.isEmpty()) {
            notes.add("ibv_devinfo could not open " + unopened.size() + " device" + (unopened.size() == 1 ? "" : "s") + " it found "
                    + "(\"Failed to open device\", line" + (unopened.size() == 1 ? " " : "s ") + String.join(", ",
                    unopened.stream().map(String::valueOf).toList()) + "): they are on the host's device list, but their "
                    + "verbs device (/dev/infiniband/uverbsN) is absent here (a container or VF not given it) or not "
                    + "permitted; the tool names none of them, and their ports are not in the input nor judged");
        }
    }

    /**
     * Gives each `ethtool -i` block's firmware and PCI function to the RDMA device the input places there: the one
     * whose PCI address (ls -l /sys/class/infiniband, sysfs) is its bus-info, or the one whose port the named
     * interface belongs to (ibdev2netdev, rdma link). Call once, before {@link #rdma()}.
     */
    void tieDriverInfo() {
        for (DriverFacts d : drivers) {
            Optional<DeviceFacts> dev = devices.values().stream().filter(x -> d.busInfo.isSet() && x.pci.isSet()
                    && x.pci.value().equals(d.busInfo.value())).findFirst();
            if (dev.isEmpty() && !d.netdev.equals(RdmaPaste.UNNAMED)) {
                dev = devices.values().stream().filter(x -> x.ports.values().stream().anyMatch(p -> p.netdevs.contains(d.netdev))).findFirst();
            }
            String what = "ethtool -i" + (d.netdev.equals(RdmaPaste.UNNAMED) ? "" : " " + d.netdev) + " (" + d.from + ")";
            if (dev.isPresent()) {
                d.device = dev.get().name;
                if (d.firmware.isSet()) {
                    dev.get().fw.set(d.firmware.value(), d.firmware.from(), notes);
                }
                if (d.busInfo.isSet() && Slot.PCI.matcher(d.busInfo.value()).matches()) {
                    dev.get().pci.set(d.busInfo.value(), d.busInfo.from(), notes);
                }
            } else if (d.firmware.isSet() || d.busInfo.isSet()) {
                notes.add(what + ": driver " + d.driver.fact(NOT_IN_INPUT).describe() + ", firmware " + d.firmware.fact(NOT_IN_INPUT)
                        .describe() + (d.psid.isSet() ? " (PSID " + d.psid.value() + ")" : "") + ", PCI " + d.busInfo.fact(NOT_IN_INPUT)
                        .describe() + ": the input places no RDMA device at that PCI function, so the devices' firmware check does "
                        + "not see it");
            }
        }
    }

    /**
     * Ties each `ethtool IFACE` output to the RDMA port the input maps the interface to, and judges what it shows
     * with the port rules' facts. "Link detected" is the kernel's ETHTOOL_GLINK answer, netif_running && the driver's
     * get_link (net/ethtool/ioctl.c ethtool_get_link; the carrier for drivers whose get_link is ethtool_op_get_link). A
     * RoCE port is ACTIVE only when its net device is running with carrier (drivers/infiniband/hw/mlx5/main.c
     * mlx5_query_port_roce: DOWN unless netif_running && netif_carrier_ok; erdma and ionic alike), so "Link detected:
     * no" on the net device of an Ethernet port whose state no tool printed is that port DOWN, which
     * RDMA_PORT_NOT_ACTIVE judges. Its physical state is left unread: mlx5 reports Disabled, ionic Polling while the
     * device is up. Call once, before {@link #rdma()}.
     */
    void judgeLinkSettings() {
        for (NetdevFacts n : netdevs.values()) {
            if (n.settingsAt == null) {
                continue;
            }
            Map<PortFacts, DeviceFacts> ports = new LinkedHashMap<>();
            devices.values().forEach(d -> d.ports.values().stream().filter(p -> p.netdevs.contains(n.name)).forEach(p -> ports.put(p, d)));
            String read = "ethtool " + n.name + " (" + n.settingsAt + "): speed " + n.speedMbps.fact(NOT_IN_INPUT).map(v -> v + " Mb/s")
                    .describe() + ", duplex " + n.duplex.fact(NOT_IN_INPUT).describe() + ", port " + n.portType.fact(NOT_IN_INPUT)
                    .describe() + ", link detected " + n.carrier.fact(NOT_IN_INPUT).map(v -> v ? "yes" : "no").describe()
                    + (n.refused.isEmpty() ? "" : "; refused: " + String.join("; ", n.refused));
            if (ports.isEmpty()) {
                notes.add(read + "; the input maps " + n.name + " to no RDMA device (ibdev2netdev, rdma link or show_gids would), "
                        + "so nothing is judged from it");
                continue;
            }
            n.rdmaPort = String.join(", ", ports.keySet().stream().map(p -> p.label).toList());
            notes.add(read + "; the net device of " + n.rdmaPort);
            ports.forEach((p, d) -> p.judge(n, p.ethernet(d.protocol), notes));
        }
    }

    List<RdmaPaste.LinkSettings> linkSettings() {
        return netdevs.values().stream().filter(n -> n.settingsAt != null).map(n -> new RdmaPaste.LinkSettings(n.name,
                n.settingsAt.number(), n.speedMbps.fact(NOT_IN_INPUT), n.duplex.fact(NOT_IN_INPUT), n.portType.fact(NOT_IN_INPUT),
                n.carrier.fact(n.refused.isEmpty() ? NOT_IN_INPUT : NOT_IN_INPUT + " (" + String.join("; ", n.refused) + ")"),
                n.rdmaPort == null ? Fact.absent("the input maps the interface to no RDMA port") : Fact.of(n.rdmaPort),
                n.refused)).toList();
    }

    List<RdmaPaste.DriverInfo> driverInfos() {
        String empty = "printed empty, or not in the input";
        return drivers.stream().map(d -> new RdmaPaste.DriverInfo(d.netdev, d.from.number(), d.driver.fact(empty), d.firmware.fact(empty),
                d.psid.fact("no PSID in parentheses after the firmware"), d.busInfo.fact(empty), d.device == null
                ? Fact.absent("no RDMA device of the input at this PCI function or net device") : Fact.of(d.device))).toList();
    }

    /** rdma_cm's per-port defaults from configfs. */
    final RdmaCmSettings rdmaCm = new RdmaCmSettings(notes);

    void noDevices(Slot.Line at) {
        noDevices = at;
    }

    /**
     * @param named the devices show_gids' command line named: empty for every device it could see, null when the input
     *              shows no command line for it
     */
    void noGids(Slot.Line at, Set<String> named) {
        noGids = at;
        String covered = named == null ? "show_gids found no GID on any port of the devices it walked (the input shows no "
                + "command line, so not which)" : named.isEmpty() ? "show_gids, run without a device argument, found no GID on any "
                + "port of any device it could see" : "show_gids " + String.join(" ", named) + " found no GID on any port of "
                + String.join(", ", named);
        noGidsText = covered + " (n_gids_found=0, " + at + "): " + (named != null && !named.isEmpty() ? "" : "no RDMA device is "
                + "visible there, or ") + "none of " + (named != null && named.size() == 1 ? "its" : "their") + " ports has a GID; "
                + "RDMA (RoCE or InfiniBand) cannot connect without one";
        notes.add(noGidsText);
    }

    /** A show_gids listing whose n_gids_found matched its rows: every GID of the devices it covers is in it. */
    void gidsListed(Set<String> named, Set<String> listed, Slot.Line at) {
        gidListings.add(new GidListing(named, Set.copyOf(listed), at));
    }

    /** The complete show_gids listing that shows the whole GID table of the device, if any. */
    Optional<Slot.Line> gidListing(String device) {
        return gidListings.stream().filter(l -> l.covers(device)).map(GidListing::at).findFirst();
    }

    /** Devices a complete show_gids listing covers with no GID, none of whose ports the input gives: device → the listing. */
    Map<String, String> withoutGid() {
        Map<String, String> out = new TreeMap<>();
        devices.values().stream().filter(d -> d.ports.isEmpty() && !d.name.equals(RdmaPaste.UNNAMED))
                .forEach(d -> gidListing(d.name).ifPresent(at -> out.put(d.name, at.toString())));
        return out;
    }

    void ibvDevicesHeader(Slot.Line at) {
        ibvDevicesHeader = at;
        ibvDevices.put(at, new ArrayList<>());
    }

    /** A row of ibv_devices: the device is on the host's verbs device list. */
    void ibvDevicesRow(DeviceFacts d, Slot.Line at) {
        if (d.listedBy == null) {
            d.listedBy = at;
        }
        if (ibvDevicesHeader != null) {
            ibvDevices.get(ibvDevicesHeader).add(d.name);
        }
    }

    /** What ibv_devices does not say: a header without rows, and the devices of its rows no other section gives ports of. */
    void ibvDevicesNote() {
        ibvDevices.forEach((at, names) -> {
            if (names.isEmpty()) {
                notes.add("ibv_devices printed its header and no device (" + at + "): no RDMA device is on the list, or the "
                        + "paste is cut there; nothing is concluded from it");
            }
        });
        List<String> portless = devices.values().stream().filter(d -> d.listedBy != null && d.ports.isEmpty()).map(d -> d.name).toList();
        if (!portless.isEmpty()) {
            notes.add("ibv_devices lists " + String.join(", ", portless) + " with " + (portless.size() == 1 ? "its node GUID" : "their node "
                    + "GUIDs") + " only: ports, port state, link layer and firmware are not in its output (ibv_devinfo or ibstat "
                    + "print them), and no other section of the input gives them, so the port rules do not judge "
                    + (portless.size() == 1 ? "it" : "them"));
        }
    }

    /** Ties a net device to a port: show_gids' DEV column, ibdev2netdev, rdma link's netdev, gid_attrs/ndevs. */
    void link(String device, int port, String netdev) {
        device(device).port(port).netdevs.add(netdev);
        netdev(netdev);
    }

    RdmaDevices rdma() {
        Set<String> tied = new LinkedHashSet<>();
        List<RdmaDevices.RdmaDevice> list = new ArrayList<>();
        Map<String, List<String>> inferred = new TreeMap<>();
        for (DeviceFacts d : devices.values()) {
            if (d.name.equals(RdmaPaste.UNNAMED) && !d.portsStated) {
                continue; // counters of a device the paste does not name: kept with the counters only
            }
            List<RdmaDevices.RdmaPort> ports = new ArrayList<>();
            d.ports.values().forEach(p -> {
                tied.addAll(p.netdevs);
                p.linkLayerFrom(d.protocol, notes);
                p.linkLayerFromRdmaLink(notes).ifPresent(l -> inferred.computeIfAbsent(l, k -> new ArrayList<>()).add(p.inferredFrom()));
                ports.add(p.build(this));
            });
            list.add(new RdmaDevices.RdmaDevice(d.name, d.pci.fact(NOT_IN_INPUT), d.fw.fact(NOT_IN_INPUT), d.guid.fact(NOT_IN_INPUT),
                    d.ports(ports, gidListing(d.name)),
                    d.partId.fact(NOT_IN_INPUT)));
        }
        inferred.forEach((layer, ports) -> notes.add("link layer " + layer + ", inferred (no tool in the input printed it) for "
                + String.join(", ", ports) + (layer.equals("InfiniBand") ? ": rdma link printed lid and sm_lid, which the kernel "
                + "sends for InfiniBand ports only" : ": rdma link printed no lid or sm_lid, which the kernel sends for every "
                + "InfiniBand port, and the port has a net device (RoCE or iWARP)")));
        List<RdmaDevices.Netdev> others = netdevs.values().stream().filter(n -> !tied.contains(n.name) && n.statesSomething())
                .map(NetdevFacts::build).toList();
        if (list.isEmpty() && noDevices == null) {
            return new RdmaDevices(Fact.absent(noGids == null ? "the input names no RDMA device" : noGidsText
                    + "; the input names no device otherwise"), others);
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

    /** One `ethtool -i` block. */
    static final class DriverFacts {
        final String netdev;
        final Slot.Line from;
        final Slot<String> driver;
        final Slot<String> firmware;
        final Slot<String> psid;
        final Slot<String> busInfo;
        String device;

        DriverFacts(String netdev, Slot.Line from) {
            this.netdev = netdev;
            this.from = from;
            String label = "ethtool -i " + netdev + " (" + from + ")";
            driver = new Slot<>(label + " driver");
            firmware = new Slot<>(label + " firmware");
            psid = new Slot<>(label + " PSID");
            busInfo = new Slot<>(label + " bus-info");
        }
    }

    /** One mlxfwmanager device block. */
    static final class AdapterFacts {
        final int number;
        final Slot.Line from;
        final Slot<String> type;
        final Slot<String> partNumber;
        final Slot<String> psid;
        final Slot<String> pci;
        final Slot<String> fw;
        final Slot<String> fwRunning;
        final Slot<String> fwAvailable;
        final Slot<String> status;

        AdapterFacts(int number, Slot.Line from) {
            this.number = number;
            this.from = from;
            String label = "mlxfwmanager Device #" + number + " (" + from + ")";
            type = new Slot<>(label + " type");
            partNumber = new Slot<>(label + " part number");
            psid = new Slot<>(label + " PSID");
            pci = new Slot<>(label + " PCI device name");
            fw = new Slot<>(label + " firmware");
            fwRunning = new Slot<>(label + " running firmware");
            fwAvailable = new Slot<>(label + " available firmware");
            status = new Slot<>(label + " status");
        }
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
        /** Set when a tool's port section was read for the device, also one the paste does not name. */
        boolean portsStated;
        /** Why a tool could not read the device (ibstat's "stat of IB device … failed"), or null. */
        private String unreadable;
        /** The ibv_devices row that lists the device, or null. */
        Slot.Line listedBy;

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

        /** A tool named the device and could not read it: its ports are absent, for that reason. */
        void unreadable(String why, List<String> notes) {
            unreadable = why;
            notes.add(name + ": " + why);
        }

        /** @param gidListing the show_gids listing that covers the device, if any: its ports have no GID there when none is read */
        Fact<List<RdmaDevices.RdmaPort>> ports(List<RdmaDevices.RdmaPort> built, Optional<Slot.Line> gidListing) {
            if (!built.isEmpty()) {
                return Fact.of(built);
            }
            // absent, not an error: the pasted tool failed on the device, no probe of this tool did
            String why = unreadable != null ? unreadable : "no port of " + name + " in the input" + (listedBy == null ? ""
                    : " (" + listedBy + ": ibv_devices prints names and node GUIDs only)");
            return Fact.absent(why + gidListing.map(at -> "; show_gids (" + at + ") lists no GID on any of its ports").orElse(""));
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
        /** An rdma link line of this port with InfiniBand-only attributes (lid, sm_lid …), or one without them. */
        Slot.Line rdmaLinkIb;
        Slot.Line rdmaLinkPlain;
        private String linkLayerAbsent = NOT_IN_INPUT;
        private final String label;
        private final String device;

        PortFacts(String device, int number) {
            this.number = number;
            this.device = device;
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

        /**
         * The link layer an rdma link line shows by its shape, where no tool printed one: InfiniBand when the line has
         * lid, sm_lid, subnet_prefix (only InfiniBand and Omni-Path ports get them, {@link RdmaToolReader}); Ethernet
         * when it has none and the port has a net device (RoCE and iWARP ports have one; EFA ports, which get none
         * either, have no net device). Returns the link layer inferred, or empty.
         */
        Optional<String> linkLayerFromRdmaLink(List<String> notes) {
            if (linkLayer.isSet() || (rdmaLinkIb == null && rdmaLinkPlain == null)) {
                return Optional.empty();
            }
            if (rdmaLinkIb != null) {
                linkLayer.set("InfiniBand", rdmaLinkIb, notes);
            } else if (!netdevs.isEmpty()) {
                linkLayer.set("Ethernet", rdmaLinkPlain, notes);
            } else {
                linkLayerAbsent = NOT_IN_INPUT + " (rdma link printed no lid or sm_lid (" + rdmaLinkPlain + "): not InfiniBand; "
                        + "with no net device in the input it may be RoCE, iWARP or EFA)";
                return Optional.empty();
            }
            return Optional.of(linkLayer.value());
        }

        /**
         * A port without a GID read: an empty table when a complete show_gids listing covers its device (show_gids prints
         * no row for a port without a GID), else absent.
         */
        private Fact<List<RdmaDevices.Gid>> noGid(PasteFacts all) {
            Optional<Slot.Line> listing = all.gidListing(device);
            if (listing.isEmpty()) {
                return Fact.absent("no GID table of this port in the input (show_gids or ibv_devinfo -v print it)");
            }
            all.notes.add(label + ": show_gids (" + listing.get() + ") lists every GID of " + device + " and none of this port: "
                    + "its GID table is empty (or holds only unset fe80:: entries, which show_gids skips as NCCL does)");
            return Fact.of(List.of());
        }

        /**
         * What the port's net device's `ethtool IFACE` shows against the port: its link, its speed against the
         * port's active rate. The port's state is taken from "Link detected: no" only on an Ethernet port whose state
         * no tool printed; an InfiniBand port's IPoIB carrier also drops with the port ACTIVE (no multicast join).
         */
        void judge(NetdevFacts n, boolean ethernet, List<String> notes) {
            String what = n.name + " (" + n.settingsAt + ")";
            if (n.carrier.isSet() && !n.carrier.value()) {
                if (state.isSet()) {
                    if (state.value().equals("ACTIVE")) {
                        notes.add(label + " is ACTIVE (" + state.from() + ") but its net device " + what + " has no link detected ("
                                + n.carrier.from() + "): the outputs were taken at different times, or the link flaps");
                    }
                } else if (ethernet) {
                    state.set("DOWN", n.carrier.from(), notes);
                    notes.add(label + " state DOWN, from its net device " + what + ": \"Link detected: no\" (" + n.carrier.from()
                            + "); a RoCE port is DOWN unless its net device is up with carrier (mlx5_query_port_roce), and no "
                            + "tool in the input printed the port's state");
                } else {
                    notes.add(label + ": its net device " + what + " has no link detected (" + n.carrier.from() + "); the port's "
                            + "state and link layer are not in the input, so the port rules do not judge it from that");
                }
            }
            if (n.speedMbps.isSet() && gbps.isSet() && n.speedMbps.value() / 1000.0 < gbps.value()) {
                notes.add(label + ": its net device " + what + " runs at " + n.speedMbps.value() + " Mb/s (" + n.speedMbps.from()
                        + "), below the port's active rate " + rate.fact(NOT_IN_INPUT).describe() + " (" + gbps.value() + " Gb/s, "
                        + gbps.from() + "): RoCE traffic leaves at the Ethernet speed; the two outputs were taken at different "
                        + "times, or the RDMA driver reports a rate the Ethernet link does not have");
            }
        }

        /**
         * Whether the input shows the port is Ethernet (RoCE or iWARP): a tool printed the link layer, or the device's
         * protocol is roce, or the port has a RoCE v2 GID, or rdma link printed it without InfiniBand's lid and sm_lid
         * (the inferences {@link #linkLayerFrom}, {@link #linkLayerFromRdmaLink} and {@link #build} make later).
         */
        boolean ethernet(Slot<String> protocol) {
            if (linkLayer.isSet()) {
                return linkLayer.value().equals("Ethernet");
            }
            return (protocol.isSet() && protocol.value().equals("roce")) || (rdmaLinkPlain != null && rdmaLinkIb == null)
                    || gids.values().stream().anyMatch(g -> "RoCE v2".equals(g.type.value()));
        }

        /** "mlx5_0 port 1 (rdma link, line 13)". */
        String inferredFrom() {
            return label + " (" + linkLayer.from() + ")";
        }

        RdmaDevices.RdmaPort build(PasteFacts all) {
            Optional<GidFacts> v2 = gids.values().stream().filter(g -> "RoCE v2".equals(g.type.value())).findFirst();
            if (!linkLayer.isSet() && v2.isPresent()) {
                // only an Ethernet port has RoCE v2 GIDs; InfiniBand GIDs are typed "IB/RoCE v1" like RoCE v1 ones
                linkLayer.set("Ethernet", v2.get().type.from(), all.notes);
                all.notes.add(label + " link layer: Ethernet, inferred from its RoCE v2 GID " + v2.get().index + " ("
                        + v2.get().type.from() + "); no tool in the input printed the link layer");
            }
            Fact<List<RdmaDevices.Gid>> gidList = gids.isEmpty() ? noGid(all)
                    : Fact.of(gids.values().stream().filter(g -> !g.gid.equals(Gids.ZERO)).map(GidFacts::build).toList());
            List<RdmaDevices.Netdev> nds = netdevs.stream().map(all::netdev).map(NetdevFacts::build).toList();
            return new RdmaDevices.RdmaPort(number, state.fact(NOT_IN_INPUT), phys.fact(NOT_IN_INPUT), gbps.fact(NOT_IN_INPUT),
                    rate.fact(NOT_IN_INPUT), linkLayer.fact(linkLayerAbsent), gidList,
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
        /** The first `ip addr` inet line of this device, or null: addresses are printed there but not read. */
        Slot.Line ipv4Printed;
        /** `ethtool IFACE`: its "Settings for" line (null when none), and what it printed. */
        Slot.Line settingsAt;
        final Slot<Integer> speedMbps;
        final Slot<String> duplex;
        final Slot<String> portType;
        final Slot<Boolean> carrier;
        final List<String> refused = new ArrayList<>();
        /** The RDMA port the input maps this net device to ("mlx5_0 port 1"), set by {@link #judgeLinkSettings}. */
        String rdmaPort;

        NetdevFacts(String name) {
            this.name = name;
            mtu = new Slot<>(name + " MTU");
            link = new Slot<>(name + " link");
            speedMbps = new Slot<>(name + " speed in Mb/s");
            duplex = new Slot<>(name + " duplex");
            portType = new Slot<>(name + " port type");
            carrier = new Slot<>(name + " link detected");
        }

        RdmaDevices.Netdev build() {
            return new RdmaDevices.Netdev(name, mtu.fact(NOT_IN_INPUT), Fact.absent(ipv4Printed == null ? NOT_IN_INPUT
                    + " (no RDMA tool prints a net device's IPv4 prefix)" : "printed by ip addr (" + ipv4Printed + ") but not read "
                    + "from a paste: it is judged with arp_ignore and arp_announce, which the input does not hold"),
                    Fact.absent(NOT_IN_INPUT), Fact.absent(NOT_IN_INPUT),
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
