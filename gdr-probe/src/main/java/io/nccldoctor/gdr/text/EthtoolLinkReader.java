package io.nccldoctor.gdr.text;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Plain `ethtool IFACE`: "Settings for eth0:", then indented "Key: value" lines. The wording is ethtool.c's
 * (dump_link_usettings; the netlink printer of ethtool 5.x keeps it): "Speed: %uMb/s", or "Speed: Unknown!" when the
 * kernel's speed is 0 or SPEED_UNKNOWN (-1; older ethtool printed "Unknown! (65535)"); "Duplex: Half|Full", else
 * "Unknown! (%i)"; "Port: Twisted Pair|AUI|BNC|MII|FIBRE|Direct Attach Copper|None|Other", else "Unknown! (%i)";
 * then "PHYAD:", "Transceiver:", "Auto-negotiation: on|off", "MDI-X:" on twisted pair; do_gset adds "Supports
 * Wake-on:", "Wake-on:", "Current message level: 0x… (N)" with the level's names on the next line, and "Link
 * detected: yes|no" (ETHTOOL_GLINK: the kernel's ethtool_get_link answers netif_running && get_link, which is
 * netif_carrier_ok for ethtool_op_get_link drivers such as mlx5e). Link-mode lists continue on indented lines
 * without a colon. A setting the kernel refuses is ethtool's perror line "Cannot get wake-on-lan settings: Operation
 * not permitted", printed to stderr and so unindented in a paste.
 *
 * <p>Speed, duplex, port type and link detected are read into the net device's facts; the other settings are known
 * lines. {@link PasteFacts#judgeLinkSettings} ties them to the RDMA port the input maps the net device to.
 */
final class EthtoolLinkReader implements SectionReader {

    static final Pattern OPENS = Pattern.compile("^Settings for ([\\w.:@-]+):\\s*$");
    /** "\tSpeed: 1000Mb/s"; also without the tab, as some pastes lose it. */
    private static final Pattern KEY_VALUE = Pattern.compile("^\\s*([A-Za-z][\\w -]*?):\\s*(.*?)\\s*$");
    private static final Pattern SPEED = Pattern.compile("^(\\d+)Mb/s$");
    private static final Pattern UNKNOWN = Pattern.compile("^Unknown!(?: \\(-?\\d+\\))?$");
    /** ethtool's perror lines for a setting the kernel refused ("Cannot get link status: Invalid argument"). */
    private static final Pattern CANNOT = Pattern.compile("^\\s*Cannot get [\\w -]+: .+$");
    /** A continuation line of a link-mode list or of the message level's names: words, no colon. */
    private static final Pattern CONTINUATION = Pattern.compile("^\\s+[\\w/ -]+$");
    /** The settings ethtool prints that the facts do not need (ethtool.c dump_supported, dump_link_caps, do_gset). */
    private static final Pattern OTHER_KEYS = Pattern.compile("^(Supported ports|Supported link modes|Supported pause frame use"
            + "|Supports auto-negotiation|Supported FEC modes|Advertised link modes|Advertised pause frame use"
            + "|Advertised auto-negotiation|Advertised FEC modes|Link partner advertised link modes"
            + "|Link partner advertised pause frame use|Link partner advertised auto-negotiation"
            + "|Link partner advertised FEC modes|Lanes|PHYAD|Transceiver|Auto-negotiation|MDI-X|master-slave cfg"
            + "|master-slave status|Supports Wake-on|Wake-on|SecureOn password|Current message level)$");

    private final PasteFacts facts;
    private PasteFacts.NetdevFacts netdev;
    /** Whether the line before was a list that may continue on the next (link modes, message level). */
    private boolean continues;

    EthtoolLinkReader(PasteFacts facts) {
        this.facts = facts;
    }

    @Override
    public Verdict read(String line, Slot.Line at) {
        Matcher open = OPENS.matcher(line);
        if (open.matches()) {
            netdev = facts.netdev(open.group(1));
            if (netdev.settingsAt == null) {
                netdev.settingsAt = at;
            } else {
                facts.notes.add("ethtool " + open.group(1) + " printed again (" + at + ") after " + netdev.settingsAt + ": another "
                        + "host's output or a later reading; a value that differs is noted and the first kept");
            }
            continues = false;
            return Verdict.FACT;
        }
        if (netdev == null) {
            return Verdict.FOREIGN;
        }
        if (CANNOT.matcher(line).matches()) {
            netdev.refused.add(line.strip() + " (" + at + ")");
            return Verdict.KNOWN;
        }
        Matcher kv = KEY_VALUE.matcher(line);
        if (!kv.matches()) {
            return continues && CONTINUATION.matcher(line).matches() ? Verdict.KNOWN : Verdict.FOREIGN;
        }
        continues = kv.group(1).endsWith("link modes") || kv.group(1).equals("Current message level");
        return setting(kv.group(1), kv.group(2), at);
    }

    private Verdict setting(String key, String value, Slot.Line at) {
        switch (key) {
            case "Speed" -> {
                Matcher mbps = SPEED.matcher(value);
                if (mbps.matches()) {
                    netdev.speedMbps.set(Integer.parseInt(mbps.group(1)), at, facts.notes);
                } else if (UNKNOWN.matcher(value).matches()) {
                    netdev.speedMbps.fail("ethtool printed Speed: " + value + " (the kernel's speed is 0 or SPEED_UNKNOWN: no link, "
                            + "or the driver does not report one)", at);
                } else {
                    return Verdict.FOREIGN;
                }
            }
            case "Duplex" -> netdev.duplex.set(value, at, facts.notes);
            case "Port" -> netdev.portType.set(value, at, facts.notes);
            case "Link detected" -> {
                if (!value.equals("yes") && !value.equals("no")) {
                    return Verdict.FOREIGN;
                }
                netdev.carrier.set(value.equals("yes"), at, facts.notes);
            }
            default -> {
                return OTHER_KEYS.matcher(key).matches() ? Verdict.KNOWN : Verdict.FOREIGN;
            }
        }
        return Verdict.FACT;
    }
}
