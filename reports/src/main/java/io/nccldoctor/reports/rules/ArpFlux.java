package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.RdmaDevices;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Several RoCE net devices in one IPv4 subnet without arp_ignore=1 / arp_announce=2: ARP flux. */
public final class ArpFlux implements Rule {

    static final RuleInfo INFO = new RuleInfo("ARP_FLUX", Severity.WARN,
            "several RDMA net devices in one subnet without arp_ignore=1 and arp_announce=2",
            "With two NICs in one subnet, Linux answers ARP for any local address on any interface by default "
                    + "(arp_ignore=0). Peers then learn the wrong MAC for an address, RoCE connections of one rail land on "
                    + "the other port, and bandwidth halves or connections time out depending on which port answered "
                    + "first; stale entries survive reboots of the peer. The field report hit this with two ports in one "
                    + "subnet.",
            "IPv4 addresses of every RoCE net device and their /proc/sys/net/ipv4/conf/NAME/arp_ignore, arp_announce",
            "Set net.ipv4.conf.<dev>.arp_ignore=1 and arp_announce=2 (sysctl, persistently), or put each rail in its own "
                    + "subnet; flush the peers' neighbour tables after the change (`ip neigh flush`).");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        var ports = RdmaPorts.of(s);
        if (ports.isEmpty()) {
            return Outcome.waived(RdmaPorts.whyNone(s));
        }
        if (ports.get().stream().flatMap(p -> p.port().netdevs().orElse(List.of()).stream()).noneMatch(n -> n.ipv4().isValue())) {
            return Outcome.waived("no RDMA net device with an IPv4 address and prefix read (the live probe runs `ip -o -4 addr`; "
                    + "RDMA tools' output has none)");
        }
        Map<String, List<RdmaDevices.Netdev>> bySubnet = new LinkedHashMap<>();
        for (RdmaPorts.Port p : ports.get()) {
            for (RdmaDevices.Netdev n : p.port().netdevs().orElse(List.of())) {
                for (String cidr : n.ipv4().orElse(List.of())) {
                    List<RdmaDevices.Netdev> same = bySubnet.computeIfAbsent(subnet(cidr), k -> new ArrayList<>());
                    if (same.stream().noneMatch(x -> x.name().equals(n.name()))) {
                        same.add(n);
                    }
                }
            }
        }
        List<Finding> findings = new ArrayList<>();
        bySubnet.forEach((subnet, devs) -> {
            boolean unsafe = devs.stream().anyMatch(n -> n.arpIgnore().orElse(0) != 1 || n.arpAnnounce().orElse(0) != 2);
            if (devs.size() > 1 && unsafe) {
                findings.add(finding(subnet, devs.size() + " RDMA net devices in " + subnet + " without arp_ignore=1/arp_announce=2",
                        devs.stream().map(n -> n.name() + " " + n.ipv4().orElse(List.of()) + " arp_ignore=" + n.arpIgnore().describe()
                                + " arp_announce=" + n.arpAnnounce().describe()).toList()));
            }
        });
        return findings.isEmpty() ? Outcome.pass() : Outcome.flag(findings);
    }

    /** "10.0.0.5/24" → "10.0.0.0/24". */
    static String subnet(String cidr) {
        String[] parts = cidr.split("/");
        int bits = parts.length > 1 ? Integer.parseInt(parts[1]) : 32;
        String[] o = parts[0].split("\\.");
        long ip = 0;
        for (String x : o) {
            ip = ip << 8 | Integer.parseInt(x);
        }
        long mask = bits == 0 ? 0 : (0xffffffffL << (32 - bits)) & 0xffffffffL;
        long net = ip & mask;
        return (net >> 24 & 255) + "." + (net >> 16 & 255) + "." + (net >> 8 & 255) + "." + (net & 255) + "/" + bits;
    }
}
