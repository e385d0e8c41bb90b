package io.nccldoctor.pcie;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.InputException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PCI devices from pasted lspci text: the tree of {@code lspci -tv}/{@code -tvnn} (hierarchy, names, ids with -nn)
 * and the blocks of {@code lspci -vvv}/{@code -vvvnn} (class, ids, LnkCap/LnkSta, DevCap/DevCtl, ACSCtl, NUMA node,
 * driver; bridges' "Bus: primary=, secondary=" lines give the hierarchy when no tree is given). Either may be partial
 * or grep'd; what cannot be read is listed line by line in {@link #problems()}, and only an input with no device at
 * all is an error. Formats: pciutils ls-tree.c, ls-caps.c, ls-ecaps.c (reference/peers-and-platform.md B3).
 */
public final class LspciText {

    private static final Pattern TREE_TOKEN = Pattern.compile(
            "-\\[(?:([0-9a-fA-F]{4}):)?([0-9a-fA-F]{2})(?:-([0-9a-fA-F]{2}))?]|([0-9a-fA-F]{2})\\.([0-7])");
    private static final Pattern IDS = Pattern.compile("\\[([0-9a-fA-F]{4}):([0-9a-fA-F]{4})]\\s*$");
    private static final Pattern HEADER = Pattern.compile(
            "^(?:([0-9a-fA-F]{4}):)?([0-9a-fA-F]{2}):([0-9a-fA-F]{2})\\.([0-7])\\s+(.+?)(?:\\s+\\[([0-9a-fA-F]{4})])?:\\s+(.*)$");
    private static final Pattern LINK = Pattern.compile("Speed\\s+([0-9.]+)GT/s[^,]*,\\s+Width\\s+x(\\d+)");
    private static final Pattern BUS = Pattern.compile("Bus:\\s+primary=([0-9a-f]{2}),\\s+secondary=([0-9a-f]{2}),\\s+subordinate=([0-9a-f]{2})");
    private static final Pattern PAYLOAD = Pattern.compile("MaxPayload (\\d+) bytes(?:, MaxReadReq (\\d+) bytes)?");

    /** What is known of one function; unknown fields stay null while parsing and become absent facts at the end. */
    private static final class Raw {
        final String address;
        String parent;
        String vendor;
        String device;
        String cls;
        String className;
        String name;
        Double speed;
        Integer width;
        Double maxSpeed;
        Integer maxWidth;
        Integer mpsCap;
        Integer mps;
        Integer mrrs;
        List<String> acs;
        boolean accessDenied;
        Integer numa;
        String driver;
        String subsystem;
        int[] busRange;

        Raw(String address) {
            this.address = address;
        }
    }

    private final Map<String, Raw> raw = new LinkedHashMap<>();
    private final List<String> problems = new ArrayList<>();
    private final Map<String, String> roots = new LinkedHashMap<>();

    private LspciText() {
    }

    /** Either text may be null; at least one must be given. */
    public static LspciText parse(List<String> tree, String treeSource, List<String> verbose, String verboseSource) {
        LspciText t = new LspciText();
        if (tree != null) {
            t.parseTree(tree, treeSource);
        }
        if (verbose != null) {
            t.parseVerbose(verbose, verboseSource);
        }
        if (t.raw.isEmpty()) {
            String what = tree != null && verbose != null ? treeSource + " and " + verboseSource : tree != null ? treeSource : verboseSource;
            throw new InputException(what + ": no PCI device found; give the output of `lspci -tvnn` or `lspci -vvvnn` ("
                    + t.problems.size() + " lines not understood)");
        }
        return t;
    }

    public List<String> problems() {
        return List.copyOf(problems);
    }

    private Raw device(String address) {
        return raw.computeIfAbsent(address, Raw::new);
    }

    // ---- lspci -tv ----------------------------------------------------------------------------------------------

    private record Context(String domain, String bus, String parent) {
    }

    private void parseTree(List<String> lines, String source) {
        Map<Integer, Context> byColumn = new LinkedHashMap<>();
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n);
            Context current = null;
            String last = null;
            int found = 0;
            Matcher m = TREE_TOKEN.matcher(line);
            int namesFrom = line.length();
            while (m.find() && m.start() < namesFrom) {
                if (m.group(2) != null) {
                    String domain = m.group(1) != null ? m.group(1).toLowerCase(Locale.ROOT)
                            : last != null ? last.substring(0, 4) : "0000";
                    if (m.group(1) == null && last == null) {
                        problems.add(source + ":" + (n + 1) + ": bus bracket without a bridge before it");
                        continue;
                    }
                    current = new Context(domain, m.group(2).toLowerCase(Locale.ROOT), m.group(1) != null ? null : last);
                    if (current.parent() == null) {
                        roots.put(domain + ":" + current.bus(), "pci" + domain + ":" + current.bus());
                    }
                    int marker = markerAfter(line, m.end());
                    if (marker >= 0) {
                        byColumn.put(marker, current);
                    }
                    continue;
                }
                Context ctx = current != null ? current : byColumn.get(m.start() - 2);
                if (ctx == null) {
                    problems.add(source + ":" + (n + 1) + ": device " + m.group() + " with no bus above it");
                    continue;
                }
                String address = ctx.domain() + ":" + ctx.bus() + ":" + m.group(4).toLowerCase(Locale.ROOT) + "." + m.group(5);
                Raw r = device(address);
                r.parent = ctx.parent() != null ? ctx.parent() : "pci" + ctx.domain() + ":" + ctx.bus();
                last = address;
                current = null;
                found++;
                int nameStart = line.indexOf("  ", m.end());
                if (nameStart >= 0 && line.substring(m.end(), nameStart).isBlank()) {
                    String name = line.substring(nameStart).strip();
                    namesFrom = nameStart;
                    Matcher ids = IDS.matcher(name);
                    if (ids.find()) {
                        r.vendor = ids.group(1).toLowerCase(Locale.ROOT);
                        r.device = ids.group(2).toLowerCase(Locale.ROOT);
                        name = name.substring(0, ids.start()).strip();
                    }
                    r.name = name;
                }
            }
            if (found == 0 && !line.isBlank() && !line.matches("[\\s|]*")) {
                problems.add(source + ":" + (n + 1) + ": not a tree line: " + line.strip());
            }
        }
    }

    /** The column of the '+' or '\' where the children of a bracket branch off, or -1 for a single child. */
    private static int markerAfter(String line, int from) {
        int i = from;
        while (i < line.length() && line.charAt(i) == '-') {
            i++;
        }
        return i < line.length() && (line.charAt(i) == '+' || line.charAt(i) == '\\') ? i : -1;
    }

    // ---- lspci -vvv ---------------------------------------------------------------------------------------------

    private void parseVerbose(List<String> lines, String source) {
        Raw r = null;
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n);
            if (line.isBlank()) {
                continue;
            }
            Matcher h = HEADER.matcher(line);
            if (!Character.isWhitespace(line.charAt(0)) && h.matches()) {
                String domain = h.group(1) != null ? h.group(1).toLowerCase(Locale.ROOT) : "0000";
                r = device(domain + ":" + h.group(2).toLowerCase(Locale.ROOT) + ":" + h.group(3).toLowerCase(Locale.ROOT) + "." + h.group(4));
                r.className = h.group(5).strip();
                if (h.group(6) != null) {
                    r.cls = h.group(6).toLowerCase(Locale.ROOT) + "00";
                }
                String name = h.group(7).strip();
                Matcher ids = IDS.matcher(name.replaceAll("\\s+\\(rev [0-9a-f]+\\)$", "").replaceAll("\\s+\\(prog-if .*\\)$", ""));
                if (ids.find()) {
                    r.vendor = ids.group(1).toLowerCase(Locale.ROOT);
                    r.device = ids.group(2).toLowerCase(Locale.ROOT);
                }
                r.name = name.replaceAll("\\s*\\[[0-9a-fA-F]{4}:[0-9a-fA-F]{4}].*$", "").replaceAll("\\s+\\(rev [0-9a-f]+\\)$", "");
                continue;
            }
            if (r == null) {
                problems.add(source + ":" + (n + 1) + ": attribute line before any device header: " + line.strip());
                continue;
            }
            attribute(r, line.strip(), source + ":" + (n + 1));
        }
    }

    private void attribute(Raw r, String t, String where) {
        try {
            if (t.startsWith("LnkCap:")) {
                Matcher m = LINK.matcher(t);
                if (m.find()) {
                    r.maxSpeed = Double.parseDouble(m.group(1));
                    r.maxWidth = Integer.parseInt(m.group(2));
                }
            } else if (t.startsWith("LnkSta:")) {
                Matcher m = LINK.matcher(t);
                if (m.find()) {
                    r.speed = Double.parseDouble(m.group(1));
                    r.width = Integer.parseInt(m.group(2));
                }
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
                List<String> on = new ArrayList<>();
                for (String flag : t.substring("ACSCtl:".length()).strip().split("\\s+")) {
                    if (flag.endsWith("+")) {
                        on.add(flag.substring(0, flag.length() - 1));
                    }
                }
                r.acs = on;
            } else if (t.startsWith("Capabilities: <access denied>")) {
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
        } catch (NumberFormatException e) {
            problems.add(where + ": unreadable number in '" + t + "'");
        }
    }

    // ---- the result ---------------------------------------------------------------------------------------------

    /** The devices, with sysfs-shaped paths built from the tree (or, without one, from the bridges' bus ranges). */
    public List<PciDevice> devices() {
        inferParentsFromBusRanges();
        List<PciDevice> out = new ArrayList<>();
        for (Raw r : raw.values()) {
            out.add(toDevice(r));
        }
        return out;
    }

    /** A device whose parent the tree did not give hangs from the bridge with the tightest bus range containing its bus. */
    private void inferParentsFromBusRanges() {
        for (Raw r : raw.values()) {
            if (r.parent != null) {
                continue;
            }
            int bus = Integer.parseInt(r.address.substring(5, 7), 16);
            Raw best = null;
            for (Raw b : raw.values()) {
                if (b.busRange != null && b.address.startsWith(r.address.substring(0, 4)) && bus >= b.busRange[0] && bus <= b.busRange[1]
                        && (best == null || b.busRange[1] - b.busRange[0] < best.busRange[1] - best.busRange[0])) {
                    best = b;
                }
            }
            r.parent = best != null ? best.address : "pci" + r.address.substring(0, 7);
        }
    }

    /** Vendors NCCL topologies contain, by the name pci.ids gives them: lspci -tv prints names, not ids. */
    private static final List<String[]> VENDOR_NAMES = List.of(
            new String[] {"nvidia corporation", "10de"}, new String[] {"mellanox technologies", "15b3"},
            new String[] {"intel corporation", "8086"}, new String[] {"advanced micro devices, inc. [amd/ati]", "1002"},
            new String[] {"advanced micro devices", "1022"}, new String[] {"broadcom / lsi", "1000"},
            new String[] {"plx technology", "10b5"}, new String[] {"broadcom inc", "14e4"});

    /** The vendor id of a pci.ids vendor name at the start of {@code name}; "0000" (unknown) otherwise. */
    private static String vendorFromName(String name) {
        if (name == null) {
            return "0000";
        }
        String lower = name.toLowerCase(Locale.ROOT);
        return VENDOR_NAMES.stream().filter(v -> lower.startsWith(v[0])).map(v -> v[1]).findFirst().orElse("0000");
    }

    private PciDevice toDevice(Raw r) {
        String vendor = r.vendor != null ? r.vendor : vendorFromName(r.name);
        String cls = r.cls != null ? r.cls : guessClass(r);
        String noTree = "not in the lspci text";
        Fact<String> path = Fact.of(path(r));
        PcieConfig config = r.accessDenied
                ? denied()
                : new PcieConfig(Fact.absent("port type is not printed by lspci -vvv in a parsable form"),
                        fact(r.mpsCap, "no DevCap line"), fact(r.mps, "no DevCtl MaxPayload line"),
                        fact(r.mrrs, "no DevCtl MaxReadReq line"),
                        r.acs != null ? Fact.of(r.acs) : Fact.absent("no ACSCtl line (no ACS capability, or lspci run without -vv)"));
        Fact<PciDevice.PciNames> names = r.name != null
                ? Fact.of(new PciDevice.PciNames("", r.name, r.className != null ? r.className : ""))
                : Fact.absent(noTree);
        return new PciDevice(r.address, vendor, r.device != null ? r.device : "0000", cls, DeviceKind.classify(vendor, cls),
                names, fact(r.driver, "no 'Kernel driver in use' line"),
                r.numa == null || r.numa < 0 ? Fact.absent("no NUMA node line") : Fact.of(r.numa), path,
                new PciLink(fact(r.speed, "no LnkSta line"), fact(r.width, "no LnkSta line"),
                        fact(r.maxSpeed, "no LnkCap line"), fact(r.maxWidth, "no LnkCap line")),
                config, Fact.absent("lspci does not print AER counters"), Fact.absent(noTree), fact(r.subsystem, "no Subsystem ids (lspci without -nn)"));
    }

    private static PcieConfig denied() {
        String why = "lspci ran unprivileged: 'Capabilities: <access denied>' (run it as root)";
        return new PcieConfig(Fact.absent(why), Fact.absent(why), Fact.absent(why), Fact.absent(why), Fact.absent(why));
    }

    /** pciutils' class names (lib/pci.ids "C" lines) for the classes that matter here, for output without -nn. */
    private static final Map<String, String> CLASS_NAMES = Map.of(
            "host bridge", "060000", "pci bridge", "060400", "bridge", "068000", "ethernet controller", "020000",
            "infiniband controller", "020700", "network controller", "028000", "3d controller", "030200",
            "vga compatible controller", "030000", "display controller", "038000");

    /**
     * Without -nn the class comes from its name; lspci -tv prints no class at all: a function with children is a
     * bridge, an NVIDIA function a GPU (unless audio, USB or NVSwitch), a Mellanox one a NIC.
     */
    private String guessClass(Raw r) {
        if (r.className != null) {
            String byName = CLASS_NAMES.get(r.className.toLowerCase(Locale.ROOT));
            if (byName != null) {
                return byName;
            }
        }
        boolean hasChildren = raw.values().stream().anyMatch(c -> r.address.equals(c.parent));
        String name = r.name == null ? "" : r.name.toLowerCase(Locale.ROOT);
        if (hasChildren || name.contains("bridge") || name.contains("root port") || name.contains("switch")) {
            return "060400";
        }
        if ("10de".equals(r.vendor) || name.startsWith("nvidia")) {
            return name.contains("audio") || name.contains("usb") || name.contains("nvswitch") ? "040300" : "030200";
        }
        if ("15b3".equals(r.vendor) || name.startsWith("mellanox")) {
            return "020000";
        }
        return "ff0000";
    }

    private String path(Raw r) {
        List<String> chain = new ArrayList<>();
        String p = r.address;
        for (int guard = 0; guard < 64; guard++) {
            chain.add(0, p);
            Raw node = raw.get(p);
            String parent = node == null ? null : node.parent;
            if (parent == null || parent.startsWith("pci")) {
                return SyntheticPaths.path(parent != null ? parent : "pci" + r.address.substring(0, 7), chain);
            }
            p = parent;
        }
        problems.add(r.address + ": the parent chain loops; treated as directly below its root complex");
        return SyntheticPaths.path("pci" + r.address.substring(0, 7), List.of(r.address));
    }

    private static <T> Fact<T> fact(T v, String why) {
        return v == null ? Fact.absent(why) : Fact.of(v);
    }
}
