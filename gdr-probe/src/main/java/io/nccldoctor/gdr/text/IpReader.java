package io.nccldoctor.gdr.text;

import io.nccldoctor.gdr.RdmaProbe;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * iproute2's `ip addr` and `ip link` (ip/ipaddress.c print_linkinfo): a line per net device, "2: p1p1:
 * <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP group default qlen 1000", then its indented "link/ether
 * …", and with `ip addr` its "inet …", "inet6 …" and "valid_lft …" lines. The device line gives the net device's MTU
 * (what ROCE_MTU_TOO_SMALL judges: RoCE takes the RDMA MTU from it) and its operational state, the word after
 * "state": ip prints the kernel's IF_OPER_* name in capitals (UNKNOWN, NOTPRESENT, DOWN, LOWERLAYERDOWN, TESTING,
 * DORMANT, UP), which /sys/class/net/NAME/operstate prints in small letters; it is kept in the sysfs form. The
 * addresses are not read: ARP_FLUX judges them with arp_ignore and arp_announce, which no such paste holds.
 */
final class IpReader implements SectionReader {

    /** "2: p1p1: <…> mtu 1500 …"; a VLAN or veth shows "eth0.10@eth0:" and "eth0@if12:", read without the "@…". */
    static final Pattern DEVICE = Pattern.compile("^\\s*\\d+:\\s+([\\w.:-]+?)(?:@[\\w.-]+)?:\\s+<[^>]*>\\s+(.*?)\\s*$");
    private static final Pattern MTU = Pattern.compile("\\bmtu (\\d+)\\b");
    private static final Pattern STATE = Pattern.compile("\\bstate ([A-Z]+)\\b");
    /** The lines under a device: its link address, addresses with their lifetimes, alternative names. */
    private static final Pattern UNDER = Pattern.compile("^\\s*(?:link/\\S+|inet6?|valid_lft|altname|vf \\d+|prog/xdp)\\b.*$");

    private final PasteFacts facts;
    private PasteFacts.NetdevFacts netdev;

    IpReader(PasteFacts facts) {
        this.facts = facts;
    }

    @Override
    public Verdict read(String line, Slot.Line at) {
        Matcher d = DEVICE.matcher(line);
        if (d.matches()) {
            netdev = facts.netdev(d.group(1));
            Matcher mtu = MTU.matcher(d.group(2));
            Matcher state = STATE.matcher(d.group(2));
            if (mtu.find()) {
                PortFiles.put(netdev.mtu, RdmaProbe.integer(mtu.group(1)), at, facts.notes);
            }
            if (state.find()) {
                netdev.link.set(state.group(1).toLowerCase(Locale.ROOT), at, facts.notes);
            }
            return Verdict.FACT;
        }
        if (netdev == null || !UNDER.matcher(line).matches()) {
            return Verdict.FOREIGN;
        }
        if (line.strip().startsWith("inet ") && netdev.ipv4Printed == null) {
            netdev.ipv4Printed = at;
        }
        return Verdict.KNOWN;
    }
}
