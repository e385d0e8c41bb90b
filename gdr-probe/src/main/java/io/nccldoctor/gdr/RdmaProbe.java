package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.Probe;
import io.nccldoctor.core.exec.CommandResult;
import io.nccldoctor.core.host.HostRoot;
import io.nccldoctor.gdr.text.QosText;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * RDMA devices and their ports: state, rate, link layer, GIDs, and for RoCE the net devices with MTU, IPv4 and ARP
 * settings, priority settings (`mlnx_qos -i NAME`), DCQCN per priority and, for a bond, its mode and hash policy.
 */
public final class RdmaProbe implements Probe<RdmaDevices> {

    public static final String KEY = "rdma";
    static final String CLASS_DIR = "/sys/class/infiniband";
    static final List<String> IP_ADDR = List.of("ip", "-o", "-4", "addr", "show");
    private static final String ZERO_GID = "0000:0000:0000:0000:0000:0000:0000:0000";
    private static final Pattern RATE = Pattern.compile("^([0-9.]+)\\s*Gb/sec");
    private static final Pattern IP_LINE = Pattern.compile("^\\d+:\\s+(\\S+)\\s+inet\\s+(\\S+)");
    private static final Pattern HCA_TYPE = Pattern.compile("MT(\\d{3,6})");
    private static final Pattern TCLASS = Pattern.compile("tclass=(-?\\d+)");
    static final String NO_ACTIVE_MTU = "sysfs has no active or maximum MTU of a port; ibv_devinfo prints both (ibv_query_port)";
    /**
     * mlnx_qos (NVIDIA's mlnx-tools, installed with MLNX_OFED / DOCA-OFED) from PATH, then /usr/sbin: it reads PFC and
     * trust through netlink DCB, which sysfs does not show.
     */
    public static final List<String> MLNX_QOS = List.of("mlnx_qos", "/usr/sbin/mlnx_qos");
    static final Duration QOS_TIMEOUT = Duration.ofSeconds(5);
    static final int PRIORITIES = 8;

    @Override
    public String key() {
        return KEY;
    }

    @Override
    public String description() {
        return "RDMA devices with firmware, ports (state, rate, link layer, GIDs) and RoCE net devices (MTU, IPv4, ARP)";
    }

    @Override
    public RdmaDevices run(Host host) {
        HostRoot files = host.files();
        Fact<List<String>> names = files.list(CLASS_DIR);
        if (names.isAbsent()) {
            return new RdmaDevices(Fact.absent(CLASS_DIR + " absent: no RDMA device, or the ib_core/ib_uverbs modules are not loaded"));
        }
        Map<String, List<String>> addresses = new LinkedHashMap<>();
        Fact<Map<String, List<String>>> ip = Fact.absent("not needed");
        if (names.isValue() && !names.get().isEmpty()) {
            ip = host.commands().run(IP_ADDR, Duration.ofSeconds(5)).stdoutIfSucceeded().map(out -> parseIpAddr(out.lines().toList()));
        }
        Fact<Map<String, List<String>>> ipv4 = ip;
        return new RdmaDevices(names.map(list -> list.stream().map(n -> device(host, n, ipv4)).toList()));
    }

    private static RdmaDevices.RdmaDevice device(Host host, String name, Fact<Map<String, List<String>>> ipv4) {
        HostRoot files = host.files();
        String dir = CLASS_DIR + "/" + name;
        Fact<String> pci = files.realPath(dir + "/device").map(p -> p.substring(p.lastIndexOf('/') + 1));
        Fact<List<RdmaDevices.RdmaPort>> ports = files.list(dir + "/ports").map(l -> l.stream()
                .filter(s -> s.matches("\\d+")).map(Integer::valueOf).sorted()
                .map(n -> port(host, dir, n, ipv4)).toList());
        return new RdmaDevices.RdmaDevice(name, pci, files.readAttribute(dir + "/fw_ver"), files.readAttribute(dir + "/node_guid"), ports,
                files.readAttribute(dir + "/hca_type").flatMap(RdmaProbe::partId));
    }

    private static RdmaDevices.RdmaPort port(Host host, String dev, int n, Fact<Map<String, List<String>>> ipv4) {
        HostRoot files = host.files();
        String dir = dev + "/ports/" + n;
        Fact<String> linkLayer = files.readAttribute(dir + "/link_layer");
        Fact<String> rate = files.readAttribute(dir + "/rate");
        List<RdmaDevices.Gid> gids = new ArrayList<>();
        Set<String> netdevNames = new LinkedHashSet<>();
        for (int i = 0; i < RdmaDevices.RdmaPort.GIDS_READ; i++) {
            Fact<String> gid = files.readAttribute(dir + "/gids/" + i);
            if (!gid.isValue()) {
                break;
            }
            if (gid.get().equals(ZERO_GID)) {
                continue;
            }
            Fact<String> type = files.readAttribute(dir + "/gid_attrs/types/" + i);
            Fact<String> ndev = files.readAttribute(dir + "/gid_attrs/ndevs/" + i);
            ndev.map(netdevNames::add);
            gids.add(new RdmaDevices.Gid(i, gid.get(), type, ndev));
        }
        for (String nd : files.list(dev + "/device/net").orElse(List.of())) {
            netdevNames.add(nd);
        }
        boolean ethernet = linkLayer.orElse("Ethernet").equals("Ethernet");
        List<RdmaDevices.Netdev> netdevs = netdevNames.stream().map(nd -> netdev(host, nd, ipv4, ethernet)).toList();
        return new RdmaDevices.RdmaPort(n, files.readAttribute(dir + "/state").map(RdmaProbe::afterColon),
                files.readAttribute(dir + "/phys_state").map(RdmaProbe::afterColon), rate.flatMap(RdmaProbe::rateGbps), rate,
                linkLayer, Fact.of(gids), Fact.of(netdevs), Fact.absent(NO_ACTIVE_MTU),
                Fact.absent(NO_ACTIVE_MTU), files.readAttribute(dir + "/lid").flatMap(RdmaProbe::lid),
                files.readAttribute(dir + "/sm_lid").flatMap(RdmaProbe::lid),
                files.readAttribute(dev + "/tc/" + n + "/traffic_class").flatMap(RdmaProbe::trafficClass));
    }

    private static RdmaDevices.Netdev netdev(Host host, String name, Fact<Map<String, List<String>>> ipv4, boolean ethernet) {
        HostRoot files = host.files();
        String conf = "/proc/sys/net/ipv4/conf/" + name;
        String net = "/sys/class/net/" + name;
        Fact<RdmaDevices.Qos> qos = ethernet ? qos(host, name)
                : Fact.absent("not run: PFC and trust are Ethernet settings, and this port is InfiniBand");
        return new RdmaDevices.Netdev(name, files.readAttribute(net + "/mtu").flatMap(RdmaProbe::integer),
                ipv4.map(m -> m.getOrDefault(name, List.of())),
                files.readAttribute(conf + "/arp_ignore").flatMap(RdmaProbe::integer),
                files.readAttribute(conf + "/arp_announce").flatMap(RdmaProbe::integer),
                files.readAttribute(net + "/operstate"), qos, bond(files, net), dcqcn(files, net));
    }

    /** `mlnx_qos -i NAME`: the first program of {@link #MLNX_QOS} that is installed, with a time limit. */
    private static Fact<RdmaDevices.Qos> qos(Host host, String name) {
        CommandResult result = null;
        for (String program : MLNX_QOS) {
            result = host.commands().run(List.of(program, "-i", name), QOS_TIMEOUT);
            if (!(result instanceof CommandResult.NotRun n) || !n.reason().startsWith("command not found")) {
                break;
            }
        }
        return result.stdoutIfSucceeded().flatMap(out -> QosText.parse(name, out.lines().toList()));
    }

    /**
     * bonding/mode ("802.3ad 4"), bonding/xmit_hash_policy ("layer2 0") and bonding/slaves ("ens1f0np0 ens1f1np1"):
     * drivers/net/bonding/bond_sysfs.c prints each option's name and number.
     */
    static Fact<RdmaDevices.Bond> bond(HostRoot files, String net) {
        Fact<String> mode = files.readAttribute(net + "/bonding/mode");
        if (mode.isAbsent()) {
            return Fact.absent("not a bond (no " + net + "/bonding)");
        }
        return mode.map(m -> new RdmaDevices.Bond(firstWord(m), files.readAttribute(net + "/bonding/xmit_hash_policy")
                .map(RdmaProbe::firstWord), files.readAttribute(net + "/bonding/slaves")
                .map(s -> s.isBlank() ? List.<String>of() : List.of(s.strip().split("\\s+")))));
    }

    /** ecn/roce_np/enable/0..7 and ecn/roce_rp/enable/0..7 (MLNX_OFED's mlx5); absent without the ecn folder. */
    static Fact<RdmaDevices.Dcqcn> dcqcn(HostRoot files, String net) {
        if (!files.exists(net + "/ecn")) {
            return Fact.absent("no " + net + "/ecn: DCQCN's per-priority switches are MLNX_OFED's mlx5 sysfs, which this "
                    + "driver does not have");
        }
        return Fact.of(new RdmaDevices.Dcqcn(enabled(files, net + "/ecn/roce_np/enable"), enabled(files, net + "/ecn/roce_rp/enable")));
    }

    private static Fact<List<Integer>> enabled(HostRoot files, String dir) {
        List<Integer> on = new ArrayList<>();
        for (int p = 0; p < PRIORITIES; p++) {
            Fact<String> v = files.readAttribute(dir + "/" + p);
            if (!v.isValue()) {
                return Fact.error(dir + "/" + p + ": " + v.describe());
            }
            if (!v.get().equals("0") && !v.get().equals("1")) {
                return Fact.error(dir + "/" + p + ": '" + v.get() + "' is neither 0 nor 1");
            }
            if (v.get().equals("1")) {
                on.add(p);
            }
        }
        return Fact.of(List.copyOf(on));
    }

    private static String firstWord(String s) {
        String t = s.strip();
        int space = t.indexOf(' ');
        return space < 0 ? t : t.substring(0, space);
    }

    /** "4: ACTIVE" → "ACTIVE"; the kernel prints the number and the name. */
    public static String afterColon(String s) {
        int c = s.indexOf(':');
        return c < 0 ? s.strip() : s.substring(c + 1).strip();
    }

    /** "400 Gb/sec (4X NDR)" → 400.0; "10 Gb/sec (1X QDR)" → 10.0. */
    public static Fact<Double> rateGbps(String s) {
        Matcher m = RATE.matcher(s.strip());
        return m.find() ? Fact.of(Double.parseDouble(m.group(1))) : Fact.error("unreadable rate '" + s + "'");
    }

    public static Fact<Integer> integer(String s) {
        try {
            return Fact.of(Integer.parseInt(s.strip()));
        } catch (NumberFormatException e) {
            return Fact.error("not a number: '" + s.strip() + "'");
        }
    }

    /**
     * sysfs lid and sm_lid: "0x1a" (drivers/infiniband/core/sysfs.c prints them in hex); ibstatus shows the same text.
     */
    public static Fact<Integer> lid(String s) {
        String t = s.strip();
        try {
            return Fact.of(t.startsWith("0x") || t.startsWith("0X") ? Integer.parseInt(t.substring(2), 16) : Integer.parseInt(t));
        } catch (NumberFormatException e) {
            return Fact.error("not a LID: '" + t + "'");
        }
    }

    /**
     * "MT4129" → 4129: mlx4/mlx5 name the adapter by "MT" and the PCI device ID in decimal, which is also what
     * ibv_devinfo prints as vendor_part_id. Other drivers print a description ("Broadcom NetXtreme-C/E RoCE Driver HCA").
     */
    public static Fact<Integer> partId(String hcaType) {
        Matcher m = HCA_TYPE.matcher(hcaType.strip());
        return m.matches() ? Fact.of(Integer.parseInt(m.group(1)))
                : Fact.absent("'" + hcaType.strip() + "' names no part number (only MT<number> does)");
    }

    /** MLNX_OFED's tc/PORT/traffic_class: "Global tclass=106"; a negative class means none is set. */
    public static Fact<Integer> trafficClass(String s) {
        Matcher m = TCLASS.matcher(s.strip());
        if (!m.find()) {
            return Fact.error("unreadable traffic_class '" + s.strip() + "'");
        }
        int tc = Integer.parseInt(m.group(1));
        return tc < 0 ? Fact.absent("no global traffic class set (" + s.strip() + ")") : Fact.of(tc);
    }

    /** `ip -o -4 addr show`: "4: eth0    inet 192.0.2.2/24 brd 192.0.2.255 scope global eth0\ …". */
    static Map<String, List<String>> parseIpAddr(List<String> lines) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (String line : lines) {
            Matcher m = IP_LINE.matcher(line);
            if (m.find()) {
                out.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(m.group(2));
            }
        }
        return out;
    }
}
