package io.nccldoctor.pcie;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the blocks of {@code lspci -vvv}/{@code -vvvnn}, plain {@code lspci} listings, and grep'd excerpts of either.
 * Formats: pciutils lspci.c (header), ls-caps.c (LnkCap, LnkSta, DevCap, DevCtl), ls-ecaps.c (ACSCtl, ATSCtl)
 * (reference/peers-and-platform.md B3). A shell prompt with an lspci command is read for its {@code -s BDF}, which
 * names the device of the header-less lines below it.
 */
final class LspciVerbose {

    static final Pattern HEADER = Pattern.compile(
            "^(?:([0-9a-fA-F]{4,8}):)?([0-9a-fA-F]{2}):([0-9a-fA-F]{2})\\.([0-7])\\s+(.+?)(?:\\s+\\[([0-9a-fA-F]{4})])?:\\s+(.*)$");
    static final Pattern IDS = Pattern.compile("\\[([0-9a-fA-F]{4}):([0-9a-fA-F]{4})]\\s*$");
    /** "Device 2335": lspci prints the device id where pci.ids has no name for it. */
    static final Pattern UNNAMED_DEVICE = Pattern.compile("\\bDevice ([0-9a-fA-F]{4})$");
    /** A shell line that runs lspci ("$ lspci -tv", "root@host:~# lspci -vvv |grep -i ats", "sudo lspci -s 2f:00.0 …"). */
    static final Pattern COMMAND = Pattern.compile("^\\s*(?:(?:\\S.*?)?[$#>]\\s*)?(?:sudo\\s+)?lspci(?=\\s|$)(.*)$");
    private static final Pattern SLOT = Pattern.compile("\\s-s\\s*((?:[0-9a-fA-F]{4,8}:)?[0-9a-fA-F]{1,2}:[0-9a-fA-F]{1,2}\\.[0-7])\\b");
    private static final Pattern LINK = Pattern.compile("Speed\\s+([0-9.]+)GT/s[^,]*,\\s+Width\\s+x(\\d+)");
    private static final Pattern BUS = Pattern.compile("Bus:\\s+primary=([0-9a-f]{2}),\\s+secondary=([0-9a-f]{2}),\\s+subordinate=([0-9a-f]{2})");
    private static final Pattern PAYLOAD = Pattern.compile("MaxPayload (\\d+) bytes(?:, MaxReadReq (\\d+) bytes)?");
    /** The attribute names of lspci -vvv (ls-caps.c, ls-ecaps.c, lspci.c) that a header-less excerpt may start with. */
    private static final Pattern ATTRIBUTE = Pattern.compile("^(?:Lnk(?:Cap|Ctl|Sta)2?|Dev(?:Cap|Ctl|Sta)2?|ACS(?:Cap|Ctl)"
            + "|ATS(?:Cap|Ctl)|Slt(?:Cap|Ctl|Sta)|UE(?:Sta|Msk|Svrt)|CE(?:Sta|Msk)|AERCap|NUMA node|Kernel driver in use"
            + "|Kernel modules|Subsystem|Physical Slot|IOMMU group|Capabilities|Control|Status|Latency|Interrupt|Region \\d+"
            + "|Bus):.*|^MaxPayload \\d+ bytes.*");
    /** Capability names that follow "Capabilities: [480 v1] " in a grep'd excerpt. */
    private static final Pattern CAPABILITY = Pattern.compile("^Capabilities: \\[[0-9a-f]+(?: v\\d+)?] (.+)$");
    private static final List<String> KEYS = List.of("LnkCap:", "LnkSta:", "DevCap:", "DevCtl:", "ACSCtl:", "ATSCtl:",
            "NUMA node:", "Kernel driver in use:", "Subsystem:", "Bus:");

    private final Map<String, LspciRaw> devices;
    private final List<LspciRaw> fragments;
    private final List<String> problems;
    private String source;
    private LspciRaw current;
    private String slot;

    LspciVerbose(Map<String, LspciRaw> devices, List<LspciRaw> fragments, List<String> problems) {
        this.devices = devices;
        this.fragments = fragments;
        this.problems = problems;
    }

    void read(List<String> lines, String source) {
        this.source = source;
        current = null;
        slot = null;
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n);
            if (!line.isBlank()) {
                line(line, n + 1);
            }
        }
    }

    private void line(String line, int number) {
        Matcher h = HEADER.matcher(line);
        if (!Character.isWhitespace(line.charAt(0)) && h.matches()) {
            header(h, number);
            return;
        }
        Matcher command = COMMAND.matcher(line);
        if (command.find() && !line.strip().startsWith("lspci:")) {
            Matcher s = SLOT.matcher(" " + command.group(1));
            slot = s.find() ? LspciText.canonical(s.group(1)) : null;
            current = null;
            return;
        }
        String t = line.strip();
        if (current != null && !current.headerless && !Character.isWhitespace(line.charAt(0)) && !ATTRIBUTE.matcher(t).matches()) {
            // lspci indents every attribute; an unindented line inside a block is something else (stderr, a banner)
            problems.add(source + ":" + number + ": not an lspci line: " + t);
            return;
        }
        if (current == null || current.headerless) {
            if (!ATTRIBUTE.matcher(t).matches()) {
                problems.add(source + ":" + number + ": not an lspci line: " + t);
                return;
            }
            if (current == null || repeats(current, t)) {
                current = startFragment(number);
            }
        }
        current.lastLine = number;
        attribute(current, t, source + ":" + number);
    }

    private void header(Matcher h, int number) {
        String domain = h.group(1) != null ? h.group(1).toLowerCase(Locale.ROOT) : "0000";
        String address = domain + ":" + h.group(2).toLowerCase(Locale.ROOT) + ":" + h.group(3).toLowerCase(Locale.ROOT) + "." + h.group(4);
        LspciRaw r = devices.computeIfAbsent(address, LspciRaw::new);
        r.className = h.group(5).strip();
        if (h.group(6) != null) {
            r.cls = h.group(6).toLowerCase(Locale.ROOT) + "00";
        }
        String name = h.group(7).strip().replaceAll("\\s+\\(prog-if .*\\)$", "").replaceAll("\\s+\\(rev [0-9a-f]+\\)$", "");
        Matcher ids = IDS.matcher(name);
        if (ids.find()) {
            r.vendor = ids.group(1).toLowerCase(Locale.ROOT);
            r.device = ids.group(2).toLowerCase(Locale.ROOT);
        }
        r.name = name.replaceAll("\\s*\\[[0-9a-fA-F]{4}:[0-9a-fA-F]{4}].*$", "").replaceAll("\\s+\\(rev [0-9a-f]+\\)$", "");
        r.firstLine = number;
        current = r;
        slot = null;
    }

    /** A header-less attribute repeats: lspci prints each once per device, so the next device's lines have begun. */
    private static boolean repeats(LspciRaw r, String t) {
        Matcher cap = CAPABILITY.matcher(t);
        if (cap.matches()) {
            return r.seen.contains("cap:" + cap.group(1));
        }
        return KEYS.stream().anyMatch(k -> t.startsWith(k) && r.seen.contains(k));
    }

    /** Lines with no header: the device {@code lspci -s} named (once), else a device whose address is unknown. */
    private LspciRaw startFragment(int number) {
        LspciRaw r;
        if (slot != null && !devices.containsKey(slot)) {
            r = devices.computeIfAbsent(slot, LspciRaw::new);
        } else {
            r = new LspciRaw(null);
        }
        slot = null;
        r.headerless = true;
        r.firstLine = number;
        fragments.add(r);
        return r;
    }

    private void attribute(LspciRaw r, String t, String where) {
        Matcher cap = CAPABILITY.matcher(t);
        if (cap.matches()) {
            r.seen.add("cap:" + cap.group(1));
        }
        KEYS.stream().filter(t::startsWith).findFirst().ifPresent(r.seen::add);
        try {
            if (t.startsWith("LnkCap:") || t.startsWith("LnkSta:")) {
                link(r, t);
            } else if (t.startsWith("DevCap:")) {
                Matcher m = PAYLOAD.matcher(t);
                if (m.find()) {
                    r.mpsCap = Integer.parseInt(m.group(1));
                }
            } else if (t.startsWith("MaxPayload") || t.startsWith("DevCtl:")) {
                Matcher m = PAYLOAD.matcher(t);
                if (m.find() && m.group(2) != null) {
                    r.mps = Integer.parseInt(m.group(1));
                    r.mrrs = Integer.parseInt(m.group(2));
                }
            } else if (t.startsWith("ACSCtl:")) {
                r.acs = enabledFlags(t.substring("ACSCtl:".length()));
            } else if (t.startsWith("ATSCtl:")) {
                r.ats = t.substring("ATSCtl:".length()).strip().startsWith("Enable+");
            } else {
                other(r, t);
            }
        } catch (NumberFormatException e) {
            problems.add(where + ": unreadable number in '" + t + "'");
        }
    }

    private static void link(LspciRaw r, String t) {
        Matcher m = LINK.matcher(t);
        if (!m.find()) {
            return;
        }
        if (t.startsWith("LnkCap:")) {
            r.maxSpeed = Double.parseDouble(m.group(1));
            r.maxWidth = Integer.parseInt(m.group(2));
        } else {
            r.speed = Double.parseDouble(m.group(1));
            r.width = Integer.parseInt(m.group(2));
        }
    }

    private static List<String> enabledFlags(String flags) {
        List<String> on = new ArrayList<>();
        for (String flag : flags.strip().split("\\s+")) {
            if (flag.endsWith("+")) {
                on.add(flag.substring(0, flag.length() - 1));
            }
        }
        return on;
    }

    private static void other(LspciRaw r, String t) {
        if (t.startsWith("Capabilities: <access denied>")) {
            r.accessDenied = true;
        } else if (t.startsWith("Subsystem:")) {
            Matcher ids = IDS.matcher(t);
            if (ids.find()) {
                r.subsystem = ids.group(1).toLowerCase(Locale.ROOT) + ":" + ids.group(2).toLowerCase(Locale.ROOT);
            }
        } else if (t.startsWith("NUMA node:")) {
            r.numa = Integer.parseInt(t.substring("NUMA node:".length()).strip());
        } else if (t.startsWith("Kernel driver in use:")) {
            r.driver = t.substring("Kernel driver in use:".length()).strip();
        } else if (t.startsWith("Bus:")) {
            Matcher m = BUS.matcher(t);
            if (m.find()) {
                r.busRange = new int[] {Integer.parseInt(m.group(2), 16), Integer.parseInt(m.group(3), 16)};
            }
        }
    }
}
