package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.Probe;
import io.nccldoctor.core.host.HostRoot;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** RDMA devices and their ports: state, rate, link layer, GIDs, and for RoCE the net devices with MTU, IPv4 and ARP settings. */
public final class RdmaProbe implements Probe<RdmaDevices> {

    public static final String KEY = "rdma";
    static final String CLASS_DIR = "/sys/class/infiniband";
    static final List<String> IP_ADDR = List.of("ip", "-o", "-4", "addr", "show");
    private static final String ZERO_GID = "0000:0000:0000:0000:0000:0000:0000:0000";
    private static final Pattern RATE = Pattern.compile("^([0-9.]+)\\s*Gb/sec");
    private static final Pattern IP_LINE = Pattern.compile("^\\d+:\\s+(\\S+)\\s+inet\\s+(\\S+)");

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
        return new RdmaDevices(names.map(list -> list.stream().map(n -> device(files, n, ipv4)).toList()));
    }

    private static RdmaDevices.RdmaDevice device(HostRoot files, String name, Fact<Map<String, List<String>>> ipv4) {
        String dir = CLASS_DIR + "/" + name;
        Fact<String> pci = files.realPath(dir + "/device").map(p -> p.substring(p.lastIndexOf('/') + 1));
        Fact<List<RdmaDevices.RdmaPort>> ports = files.list(dir + "/ports").map(l -> l.stream()
                .filter(s -> s.matches("\\d+")).map(Integer::valueOf).sorted()
                .map(n -> port(files, dir, n, ipv4)).toList());
        return new RdmaDevices.RdmaDevice(name, pci, files.readAttribute(dir + "/fw_ver"), files.readAttribute(dir + "/node_guid"), ports);
    }

    private static RdmaDevices.RdmaPort port(HostRoot files, String dev, int n, Fact<Map<String, List<String>>> ipv4) {
        String dir = dev + "/ports/" + n;
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
        List<RdmaDevices.Netdev> netdevs = netdevNames.stream().map(nd -> netdev(files, nd, ipv4)).toList();
        return new RdmaDevices.RdmaPort(n, files.readAttribute(dir + "/state").map(RdmaProbe::afterColon),
                files.readAttribute(dir + "/phys_state").map(RdmaProbe::afterColon), rate.flatMap(RdmaProbe::rateGbps), rate,
                files.readAttribute(dir + "/link_layer"), Fact.of(gids), Fact.of(netdevs));
    }

    private static RdmaDevices.Netdev netdev(HostRoot files, String name, Fact<Map<String, List<String>>> ipv4) {
        String conf = "/proc/sys/net/ipv4/conf/" + name;
        return new RdmaDevices.Netdev(name, files.readAttribute("/sys/class/net/" + name + "/mtu").flatMap(RdmaProbe::integer),
                ipv4.map(m -> m.getOrDefault(name, List.of())),
                files.readAttribute(conf + "/arp_ignore").flatMap(RdmaProbe::integer),
                files.readAttribute(conf + "/arp_announce").flatMap(RdmaProbe::integer));
    }

    /** "4: ACTIVE" → "ACTIVE"; the kernel prints the number and the name. */
    static String afterColon(String s) {
        int c = s.indexOf(':');
        return c < 0 ? s.strip() : s.substring(c + 1).strip();
    }

    /** "400 Gb/sec (4X NDR)" → 400.0; "10 Gb/sec (1X QDR)" → 10.0. */
    static Fact<Double> rateGbps(String s) {
        Matcher m = RATE.matcher(s.strip());
        return m.find() ? Fact.of(Double.parseDouble(m.group(1))) : Fact.error("unreadable rate '" + s + "'");
    }

    static Fact<Integer> integer(String s) {
        try {
            return Fact.of(Integer.parseInt(s.strip()));
        } catch (NumberFormatException e) {
            return Fact.error("not a number: '" + s.strip() + "'");
        }
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
