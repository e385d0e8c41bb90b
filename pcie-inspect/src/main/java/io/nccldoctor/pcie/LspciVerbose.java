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
    /**
     * {@code lspci -PP}: every bridge above the function, each with its bus ("00:01.1/01:00.0/05:00.0 Class: name"),
     * lspci.c show_slot_path; the domain, when printed, only before the first.
     */
    private static final Pattern BRIDGE_PATH = Pattern.compile(
            "^((?:[0-9a-fA-F]{4,8}:)?)((?:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]/)+)(?=[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]\\s)");
    /** {@code lspci -P}: below the first bridge only device.function ("00:01.1/00.0/00.0"): the buses are not printed. */
    private static final Pattern SHORT_PATH = Pattern.compile(
            "^(?:[0-9a-fA-F]{4,8}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7](?:/(?:[0-9a-fA-F]{2}:)?[0-9a-fA-F]{2}\\.[0-7])*/[0-9a-fA-F]{2}\\.[0-7]\\s");
    /** A header glued to the end of prose ("here is my card 62:00.0 VGA compatible controller: NVIDIA …"). */
    private static final Pattern GLUED_HEADER = Pattern.compile("^(\\S.*?)\\s+((?:[0-9a-fA-F]{4,8}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]\\s.*)$");
    /**
     * The PCI Express capability line: ls-caps.c cap_express prints "Express ", "(vN) " and the device/port type
     * ("Endpoint", "Root Port (Slot+)", "PCI-Express to PCI/PCI-X Bridge" …), then ", MSI 00" or ", IntMsgNum 0".
     */
    private static final Pattern EXPRESS = Pattern.compile(
            "^Capabilities: \\[[0-9a-f]+(?: v\\d+)?] Express (?:\\(v\\d+\\) )?(.+?)(?: \\(Slot[+-]\\))?(?:,.*)?$");
    /** ls-caps.c's type names → the names {@link PcieConfig} gives the type numbers of the config space. */
    private static final Map<String, String> PORT_TYPES = Map.of("Endpoint", "endpoint", "Legacy Endpoint", "legacy endpoint",
            "Root Port", "root port", "Upstream Port", "upstream port", "Downstream Port", "downstream port",
            "PCI-Express to PCI/PCI-X Bridge", "pcie-to-pci bridge", "PCI/PCI-X to PCI-Express Bridge", "pci-to-pcie bridge",
            "Root Complex Integrated Endpoint", "root complex integrated endpoint",
            "Root Complex Event Collector", "root complex event collector");
    /** {@code lspci -v}'s "Flags: bus master, fast devsel, latency 0, IRQ 16, NUMA node 0". */
    /** One bare word, as a line cut inside an attribute name leaves it. */
    private static final Pattern CUT_WORD = Pattern.compile("[A-Za-z][A-Za-z0-9]*");
    private static final Pattern FLAGS_NUMA = Pattern.compile(", NUMA node (\\d+)");
    private static final List<String> KEYS = List.of("LnkCap:", "LnkSta:", "DevCap:", "DevCtl:", "ACSCtl:", "ATSCtl:",
            "NUMA node:", "Kernel driver in use:", "Subsystem:", "Bus:");

    private final Map<String, LspciRaw> devices;
    private final List<LspciRaw> fragments;
    private final List<String> problems;
    private String source;
    private LspciRaw current;
    private String slot;
    private boolean previousLspci;

    LspciVerbose(Map<String, LspciRaw> devices, List<LspciRaw> fragments, List<String> problems) {
        this.devices = devices;
        this.fragments = fragments;
        this.problems = problems;
    }

    void read(List<String> lines, String source) {
        this.source = source;
        current = null;
        slot = null;
        previousLspci = false;
        int last = -1;
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n);
            if (!line.isBlank()) {
                line(line, n + 1);
                last = n;
            }
        }
        if (last >= 0) {
            cutLastLine(lines.get(last), last + 1);
        }
    }

    /**
     * A paste cut inside a block ends in the first letters of an attribute name ("\t\tLn", "Lnk"): lspci prints every
     * attribute as "Name:" and every continuation as flags or values (ls-caps.c), never one bare word, so such a last
     * line is said, with what the block lacks for it, instead of passing as a continuation.
     */
    private void cutLastLine(String line, int number) {
        if (current != null && Character.isWhitespace(line.charAt(0)) && CUT_WORD.matcher(line.strip()).matches()) {
            problems.add(source + ":" + number + ": the text ends in a cut line `" + line.strip() + "` inside "
                    + (current.address == null ? "a device block" : current.address + "'s block")
                    + ": what lspci prints after it (the link lines among them) is not in the text");
        }
    }

    private void line(String line, int number) {
        boolean afterLspci = previousLspci;
        previousLspci = true;
        if (!Character.isWhitespace(line.charAt(0)) && headerForms(line, number)) {
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
            notLspci(number, t);
            return;
        }
        if (current == null || current.headerless) {
            if (!ATTRIBUTE.matcher(t).matches()) {
                if (continuation(line, afterLspci)) {
                    if (current != null) {
                        current.lastLine = number;
                    }
                    return;
                }
                notLspci(number, t);
                return;
            }
            if (current == null || repeats(current, t)) {
                current = startFragment(number);
            }
        }
        current.lastLine = number;
        attribute(current, t, source + ":" + number);
    }

    private void notLspci(int number, String t) {
        problems.add(source + ":" + number + ": not an lspci line: " + t);
        previousLspci = false;
    }

    /**
     * A line lspci prints below an attribute: ls-caps.c and ls-ecaps.c print an attribute at two tabs and its further
     * flags at three (two tabs, "LnkSta:", then three tabs, "TrErr- Train- …", ls-caps.c cap_express_link), and
     * sub-items such as "BAR 3: current
     * size" at two. Read as lspci's, holding nothing this reader uses; where tabs became spaces, an indented line right
     * after an lspci line.
     */
    private static boolean continuation(String line, boolean afterLspci) {
        return line.startsWith("\t\t") || afterLspci && Character.isWhitespace(line.charAt(0));
    }

    /** A device header: plain, after a {@code -PP} bridge path, or glued to prose before it; false when none. */
    private boolean headerForms(String line, int number) {
        Matcher h = HEADER.matcher(line);
        if (h.matches()) {
            header(h, number, null);
            return true;
        }
        Matcher path = BRIDGE_PATH.matcher(line);
        if (path.find()) {
            Matcher ph = HEADER.matcher(path.group(1) + line.substring(path.end()));
            if (ph.matches()) {
                header(ph, number, bridges(path.group(1), path.group(2)));
                return true;
            }
        }
        if (SHORT_PATH.matcher(line).find()) {
            problems.add(source + ":" + number + ": an `lspci -P` path prints no bus below its first bridge, so this function's address "
                    + "is unknown (give `lspci -PP`): " + line.strip());
            previousLspci = false;
            return true;
        }
        Matcher glued = GLUED_HEADER.matcher(line);
        if (glued.matches()) {
            Matcher gh = HEADER.matcher(glued.group(2));
            if (gh.matches() && PciIds.classOfName(gh.group(5).strip()).isPresent()) {
                problems.add(source + ":" + number + ": text before a device header, not read: " + glued.group(1).strip());
                header(gh, number, null);
                return true;
            }
        }
        return false;
    }

    /** The bridges of a {@code -PP} path, top first, each below the one before and the first below its root complex. */
    private List<String> bridges(String domain, String path) {
        List<String> out = new ArrayList<>();
        String above = null;
        for (String component : path.split("/")) {
            String address = LspciText.canonical(domain + component);
            LspciRaw b = devices.computeIfAbsent(address, LspciRaw::new);
            if (b.parent == null) {
                b.parent = above != null ? above : "pci" + LspciText.domainBus(address);
            }
            b.bridgeOfPath = true;
            above = address;
            out.add(address);
        }
        return out;
    }

    private void header(Matcher h, int number, List<String> bridges) {
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
        if (bridges != null) {
            r.parent = bridges.get(bridges.size() - 1);
        }
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
                acs(r, t, where);
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

    /**
     * ACSCtl's flags, each printed as Name+ or Name- (pciutils ls-ecaps.c cap_acs). A line cut inside them (a paste that
     * ends "SrcValid+ TransBlk- Req") leaves the redirect bits unknown: no ACS fact, and the line is said not read.
     */
    private void acs(LspciRaw r, String t, String where) {
        String flags = t.substring("ACSCtl:".length()).strip();
        for (String flag : flags.split("\\s+")) {
            if (!flag.endsWith("+") && !flag.endsWith("-")) {
                problems.add(where + ": ACSCtl line cut at '" + flag + "': its flags, redirect bits included, are not known");
                return;
            }
        }
        r.acs = enabledFlags(flags);
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
        Matcher express = EXPRESS.matcher(t);
        if (t.startsWith("Capabilities: <access denied>")) {
            r.accessDenied = true;
        } else if (express.matches()) {
            r.portType = PORT_TYPES.get(express.group(1).strip());
        } else if (t.startsWith("Subsystem:")) {
            Matcher ids = IDS.matcher(t);
            if (ids.find()) {
                r.subsystem = ids.group(1).toLowerCase(Locale.ROOT) + ":" + ids.group(2).toLowerCase(Locale.ROOT);
            }
        } else if (t.startsWith("NUMA node:")) {
            r.numa = Integer.parseInt(t.substring("NUMA node:".length()).strip());
        } else if (t.startsWith("Control:") || t.startsWith("Flags:")) {
            // the section where lspci prints "NUMA node" unless the kernel says -1: -vv's Control line, -v's Flags line
            // (pciutils lspci.c@0f5b941a L898-905, L936-937)
            r.numaSection = true;
            Matcher m = FLAGS_NUMA.matcher(t);
            if (m.find()) {
                r.numa = Integer.parseInt(m.group(1));
            }
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
