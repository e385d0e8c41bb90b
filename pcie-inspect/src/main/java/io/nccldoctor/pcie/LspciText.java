package io.nccldoctor.pcie;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.InputException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PCI devices from pasted lspci text: the tree of {@code lspci -tv}/{@code -tvnn} (hierarchy, names, ids with -nn)
 * and the blocks of {@code lspci -vvv}/{@code -vvvnn} or a plain {@code lspci} listing ({@link LspciVerbose}; bridges'
 * "Bus: primary=, secondary=" lines give the hierarchy when no tree is given). Either may be partial or grep'd:
 * attribute lines without a header become {@link #fragments()}, what cannot be read is listed line by line in
 * {@link #problems()}, and only an input with nothing read at all is an error. Device kinds come from the one table,
 * {@link PciIds}. Formats: pciutils ls-tree.c, ls-caps.c, ls-ecaps.c (reference/peers-and-platform.md B3).
 */
public final class LspciText {

    /** The leftmost branch marker of a tree line: "+-" for a child with siblings after it, "\-" for the last one. */
    private static final Pattern BRANCH = Pattern.compile("[+\\\\]-");
    private static final Pattern TREE_TOKEN = Pattern.compile(
            "-\\[(?:([0-9a-fA-F]{4,8}):)?([0-9a-fA-F]{2})(?:-([0-9a-fA-F]{2}))?]|([0-9a-fA-F]{2})\\.([0-7])");
    /** PCI domains are 16 bits on most hosts; Intel VMD adds domains from 10000 (lspci prints "10006:0a:00.0"). */
    private static final Pattern BDF = Pattern.compile("(?:([0-9a-fA-F]{4,8}):)?([0-9a-fA-F]{1,2}):([0-9a-fA-F]{1,2})\\.([0-7])");

    private final Map<String, LspciRaw> raw = new LinkedHashMap<>();
    private final List<LspciRaw> fragmentRaws = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private final List<String> sources = new ArrayList<>();

    private LspciText() {
    }

    /** Either text may be null; at least one must be given. */
    public static LspciText parse(List<String> tree, String treeSource, List<String> verbose, String verboseSource) {
        LspciText t = new LspciText();
        if (tree != null) {
            t.sources.add(treeSource);
            t.parseTree(tree, treeSource);
        }
        if (verbose != null) {
            t.sources.add(verboseSource);
            new LspciVerbose(t.raw, t.fragmentRaws, t.problems).read(verbose, verboseSource);
        }
        if (t.raw.isEmpty() && t.fragmentRaws.isEmpty()) {
            throw new InputException(String.join(" and ", t.sources) + ": no PCI device found; give the output of `lspci -tvnn` or "
                    + "`lspci -vvvnn` (" + t.problems.size() + " lines not understood)");
        }
        return t;
    }

    public List<String> problems() {
        return List.copyOf(problems);
    }

    /** "41:00.0" → "0000:41:00.0"; lower case. */
    static String canonical(String bdf) {
        Matcher m = BDF.matcher(bdf.strip());
        if (!m.matches()) {
            return bdf.strip().toLowerCase(Locale.ROOT);
        }
        String domain = m.group(1) != null ? m.group(1) : "0000";
        return String.format(Locale.ROOT, "%s:%02x:%02x.%s", domain.toLowerCase(Locale.ROOT), Integer.parseInt(m.group(2), 16),
                Integer.parseInt(m.group(3), 16), m.group(4));
    }

    /** "0000:41:00.0" → "0000:41", "10006:0a:00.0" → "10006:0a": the root complex (domain and bus). */
    static String domainBus(String address) {
        int second = address.indexOf(':', address.indexOf(':') + 1);
        return second > 0 ? address.substring(0, second) : address;
    }

    // ---- lspci -tv ----------------------------------------------------------------------------------------------

    /**
     * A bus of the tree: its domain and number, and the bridge it is the secondary bus of (null for a root bus, or
     * for a bus whose bridge the text does not show: then {@code rooted} tells which).
     */
    private record Context(String domain, String bus, String parent, boolean rooted) {
    }

    /** Functions of a tree fragment whose bus bracket is above the cut: name (or "") → their device.function. */
    private final Map<String, List<String>> unseenBus = new LinkedHashMap<>();

    private void parseTree(List<String> lines, String source) {
        Map<Integer, Context> byColumn = new HashMap<>();
        int lastTreeLine = -1;
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n);
            if (LspciVerbose.COMMAND.matcher(line).find() && !line.contains("-[")) {
                continue; // the prompt line a paste starts with: "[ec2-user@ip-10-0-13-247 ~]$ lspci -tv"
            }
            int found = treeLine(line, n + 1, source, byColumn);
            if (found == 0 && !line.isBlank() && !line.matches("[\\s|]*")) {
                problems.add(source + ":" + (n + 1) + ": not a tree line: " + line.strip());
            }
            lastTreeLine = found > 0 ? n : lastTreeLine;
        }
        if (lastTreeLine >= 0) {
            cutTreeEnd(lines.get(lastTreeLine), lastTreeLine + 1, source);
        }
        unseenBusSummary(source);
    }

    /**
     * lspci draws every child of a bus but the last with "+-" and the last with "\-" (pciutils ls-tree.c show_tree_bus,
     * show_tree_bridge), and print_it leaves a '|' in that column on the lines below while children are still to come,
     * so the last line of a whole tree holds neither '|' nor a '+-' at its leftmost branch. A last line that does was cut: what followed is said to be missing, not taken as the end.
     */
    private void cutTreeEnd(String line, int number, String source) {
        Matcher branch = BRANCH.matcher(line);
        if (!branch.find()) {
            return;
        }
        boolean openAbove = line.substring(0, branch.start()).contains("|");
        if (openAbove || branch.group().startsWith("+")) {
            problems.add(source + ":" + number + ": the tree is cut: its last line still has " + (openAbove
                    ? "a '|' of a bus with more children to come" : "'+-' before more children of its bus")
                    + ", so the functions lspci printed after it are not in the text");
        }
    }

    /**
     * One entry for the functions of a mid-tree fragment whose bus is not shown: lspci prints a function as "dev.fn"
     * below its bus's bracket (ls-tree.c show_tree_dev), so without that line their bus, and so their address, is
     * unknown. Their lines are tree lines; the functions are counted and named here, not made up as devices.
     */
    private void unseenBusSummary(String source) {
        if (unseenBus.isEmpty()) {
            return;
        }
        List<String> groups = new ArrayList<>();
        int count = 0;
        for (Map.Entry<String, List<String>> e : unseenBus.entrySet()) {
            count += e.getValue().size();
            groups.add(e.getValue().size() + " × " + (e.getKey().isEmpty() ? "(no name)" : e.getKey()) + " (" + String.join(" ", e.getValue()) + ")");
        }
        problems.add(source + ": " + count + " functions on buses whose bracket is above the cut (a fragment of a tree), not read as "
                + "devices because their bus, and so their address, is not in the text: " + String.join("; ", groups));
    }

    /** The devices of one tree line; returns how many (functions on a bus the text does not show included). */
    private int treeLine(String line, int number, String source, Map<Integer, Context> byColumn) {
        Context current = null;
        String last = null;
        boolean lastUnseen = false;
        int found = 0;
        Matcher m = TREE_TOKEN.matcher(line);
        int namesFrom = line.length();
        while (m.find() && m.start() < namesFrom) {
            if (m.group(2) != null) {
                if (m.group(1) == null && last == null) {
                    // a fragment of a tree whose lines above were cut: the bridge's own bus is lost, its secondary bus is not
                    problems.add(source + ":" + number + ": bus bracket -[" + m.group(2) + "] " + (lastUnseen ? "of a bridge on a bus the text "
                            + "does not show" : "without its bridge") + ": the buses below it are read in domain 0000 (a fragment does not show "
                            + "its domain), and what lies above them is unknown");
                }
                String domain = m.group(1) != null ? m.group(1).toLowerCase(Locale.ROOT) : last == null ? "0000" : last.substring(0, last.indexOf(':'));
                current = new Context(domain, m.group(2).toLowerCase(Locale.ROOT), m.group(1) != null ? null : last, m.group(1) != null);
                if (m.group(1) == null && last != null) { // "04.0-[01-04]": a bridge, even with nothing behind it ("08.0-[05]--")
                    int secondary = Integer.parseInt(m.group(2), 16);
                    raw.get(last).busRange = new int[] {secondary, m.group(3) != null ? Integer.parseInt(m.group(3), 16) : secondary};
                }
                int marker = markerAfter(line, m.end());
                if (marker >= 0) {
                    byColumn.put(marker, current);
                }
                continue;
            }
            Context ctx = current != null ? current : column(byColumn, m.start() - 2);
            int nameStart = line.indexOf("  ", m.end());
            boolean named = nameStart >= 0 && line.substring(m.end(), nameStart).isBlank();
            if (named) {
                namesFrom = nameStart;
            }
            found++;
            current = null;
            if (ctx == null) { // a mid-tree fragment: the bracket of this function's bus is above the cut
                unseenBus.computeIfAbsent(named ? line.substring(nameStart).strip() : "", k -> new ArrayList<>()).add(m.group());
                last = null;
                lastUnseen = true;
                continue;
            }
            String address = ctx.domain() + ":" + ctx.bus() + ":" + m.group(4).toLowerCase(Locale.ROOT) + "." + m.group(5);
            LspciRaw r = raw.computeIfAbsent(address, LspciRaw::new);
            r.parent = ctx.parent() != null ? ctx.parent() : ctx.rooted() ? "pci" + ctx.domain() + ":" + ctx.bus() : null;
            r.inTree = true;
            last = address;
            lastUnseen = false;
            if (named) {
                treeName(r, line.substring(nameStart).strip());
            }
        }
        return found;
    }

    /**
     * The bus whose branch marker ('+' or '\\') sits at this column; one column off when a paste shifted a line by a
     * space (a first line indented alone, a line re-wrapped): markers of different buses are never that close.
     */
    private static Context column(Map<Integer, Context> byColumn, int col) {
        Context exact = byColumn.get(col);
        if (exact != null) {
            return exact;
        }
        Context left = byColumn.get(col - 1);
        Context right = byColumn.get(col + 1);
        return left == null ? right : right == null ? left : null;
    }

    private static void treeName(LspciRaw r, String name) {
        Matcher ids = LspciVerbose.IDS.matcher(name);
        if (ids.find()) {
            r.vendor = ids.group(1).toLowerCase(Locale.ROOT);
            r.device = ids.group(2).toLowerCase(Locale.ROOT);
            name = name.substring(0, ids.start()).strip();
        }
        r.name = name;
    }

    /** The column of the '+' or '\' where the children of a bracket branch off, or -1 for a single child. */
    private static int markerAfter(String line, int from) {
        int i = from;
        while (i < line.length() && line.charAt(i) == '-') {
            i++;
        }
        return i < line.length() && (line.charAt(i) == '+' || line.charAt(i) == '\\') ? i : -1;
    }

    // ---- the result ---------------------------------------------------------------------------------------------

    /** The devices, with sysfs-shaped paths built from the tree (or, without one, from the bridges' bus ranges). */
    public List<PciDevice> devices() {
        inferParentsFromBusRanges();
        Set<String> parents = new HashSet<>();
        raw.values().forEach(r -> parents.add(r.parent));
        List<PciDevice> out = new ArrayList<>();
        for (LspciRaw r : raw.values()) {
            out.add(toDevice(r, parents.contains(r.address)));
        }
        return out;
    }

    /** Header-less attribute lines, one entry per device they describe (named or not). */
    public List<LspciFragment> fragments() {
        List<LspciFragment> out = new ArrayList<>();
        for (LspciRaw r : fragmentRaws) {
            Fact<String> device = r.address != null ? Fact.of(r.address) : Fact.absent("no header line and no `lspci -s BDF` names it");
            Fact<String> driver = fact(r.driver, "no 'Kernel driver in use' line");
            Fact<String> vendor = driver.isValue() ? PciIds.vendorOfDriver(driver.get())
                    .map(Fact::of).orElse(Fact.absent("driver " + driver.get() + " does not tell the vendor"))
                    : Fact.absent("no header line and no 'Kernel driver in use' line");
            out.add(new LspciFragment(sources.get(sources.size() - 1), r.firstLine, r.lastLine, device, link(r), config(r), driver,
                    vendor, r.missing()));
        }
        return out;
    }

    /**
     * A device whose parent the tree did not give hangs from the bridge with the tightest bus range containing its bus.
     * A bus no bridge's range covers is a root bus when it is bus 00 (a bridge's secondary bus is always above its
     * primary, so bus 00 is nobody's), or when every PCI bridge of the text printed its "Bus:" line (a whole -vvv
     * listing). Otherwise (a plain listing, a grep'd or snipped excerpt) nothing says what lies above the function,
     * and its parent stays unknown: a listing is no tree.
     */
    private void inferParentsFromBusRanges() {
        List<LspciRaw> bridges = raw.values().stream().filter(b -> b.busRange != null).toList();
        boolean everyBridge = !bridges.isEmpty() && raw.values().stream().filter(LspciText::pciBridge).allMatch(b -> b.busRange != null);
        for (LspciRaw r : raw.values()) {
            if (r.parent != null || r.inTree) {
                continue;
            }
            String domainBus = domainBus(r.address);
            String domain = domainBus.substring(0, domainBus.indexOf(':'));
            int bus = Integer.parseInt(domainBus.substring(domain.length() + 1), 16);
            LspciRaw best = null;
            for (LspciRaw b : bridges) {
                if (b.address.startsWith(domain + ":") && bus >= b.busRange[0] && bus <= b.busRange[1] && b != r
                        && (best == null || b.busRange[1] - b.busRange[0] < best.busRange[1] - best.busRange[0])) {
                    best = b;
                }
            }
            r.parent = best != null ? best.address : bus == 0 || everyBridge ? "pci" + domainBus : null;
        }
    }

    /** A PCI-to-PCI bridge by its class code or class name (a host or ISA bridge has no secondary bus). */
    private static boolean pciBridge(LspciRaw r) {
        String cls = r.cls != null ? r.cls : r.className != null ? PciIds.classOfName(r.className).orElse("") : "";
        return cls.startsWith("0604");
    }

    private PciDevice toDevice(LspciRaw r, boolean hasChildren) {
        String vendor = r.vendor != null ? r.vendor : PciIds.vendorOfName(r.name);
        String device = r.device != null ? r.device : unnamedDeviceId(r, vendor);
        String cls = r.cls != null ? r.cls : LspciClasses.guess(r, vendor, device, hasChildren);
        String noTree = "not in the lspci text";
        Fact<PciDevice.PciNames> names = r.name != null
                ? Fact.of(new PciDevice.PciNames("", r.name, r.className != null ? r.className : ""))
                : Fact.absent(r.headerless ? "no header line in the lspci text" : r.bridgeOfPath
                        ? "only its address, as a bridge in the `lspci -PP` path of another function" : noTree);
        return new PciDevice(r.address, vendor, device, cls, DeviceKind.classify(vendor, device, cls),
                names, fact(r.driver, "no 'Kernel driver in use' line"),
                numa(r), path(r),
                link(r), config(r), Fact.absent("lspci does not print AER counters"), Fact.absent(noTree),
                fact(r.subsystem, "no Subsystem ids (lspci without -nn)"));
    }

    /**
     * lspci prints "NUMA node" (-vv) or ", NUMA node N" (-v) only when the kernel's numa_node is not -1 (pciutils
     * lspci.c@0f5b941a L904, L936), so a block that shows that section without it is the kernel's -1, as sysfs gives
     * it; a function known only from a tree (-t prints no NUMA node) or a plain listing has none in the text.
     */
    private static Fact<Integer> numa(LspciRaw r) {
        if (r.numa != null) {
            return Fact.of(r.numa);
        }
        return Fact.absent(r.numaSection ? "no NUMA node line: lspci prints none when the kernel's numa_node is -1"
                : PciTree.NUMA_NOT_IN_TEXT);
    }

    /** "NVIDIA Corporation Device 2335": lspci prints the device id itself where pci.ids has no name. */
    private static String unnamedDeviceId(LspciRaw r, String vendor) {
        if (r.name == null || vendor.equals(PciIds.UNKNOWN_VENDOR)) {
            return PciIds.UNKNOWN_DEVICE;
        }
        Matcher m = LspciVerbose.UNNAMED_DEVICE.matcher(r.name);
        return m.find() ? m.group(1).toLowerCase(Locale.ROOT) : PciIds.UNKNOWN_DEVICE;
    }

    /**
     * Why the capability lines of a function are missing when lspci ran without root: it prints "Capabilities: &lt;access
     * denied&gt;" instead of the capability list (pciutils ls-caps.c@0f5b941a L1823), so LnkCap/LnkSta, DevCtl and
     * ACSCtl are not in the text, whatever the device has.
     */
    public static final String UNPRIVILEGED = "lspci ran unprivileged: 'Capabilities: <access denied>' (run it as root)";

    private static PciLink link(LspciRaw r) {
        String sta = r.accessDenied ? UNPRIVILEGED : "no LnkSta line";
        String cap = r.accessDenied ? UNPRIVILEGED : "no LnkCap line";
        return new PciLink(fact(r.speed, sta), fact(r.width, sta), fact(r.maxSpeed, cap), fact(r.maxWidth, cap));
    }

    private static PcieConfig config(LspciRaw r) {
        if (r.accessDenied) {
            String why = UNPRIVILEGED;
            return new PcieConfig(Fact.absent(why), Fact.absent(why), Fact.absent(why), Fact.absent(why), Fact.absent(why), Fact.absent(why));
        }
        return new PcieConfig(fact(r.portType, "no 'Capabilities: [..] Express' line with a known type (lspci without -v, or cut)"),
                fact(r.mpsCap, "no DevCap line"), fact(r.mps, "no DevCtl MaxPayload line"),
                fact(r.mrrs, "no DevCtl MaxReadReq line"),
                r.acs != null ? Fact.of(r.acs) : Fact.absent("no ACSCtl line (no ACS capability, or lspci run without -vv)"),
                fact(r.ats, "no ATSCtl line (no ATS capability, or lspci run without -vv)"));
    }

    /**
     * The sysfs-shaped path from the root complex down to the function, or absent when the text does not show what
     * lies above it (a listing without a tree, a tree fragment cut above a bus).
     */
    private Fact<String> path(LspciRaw r) {
        List<String> chain = new ArrayList<>();
        String p = r.address;
        for (int guard = 0; guard < 256; guard++) {
            chain.add(0, p);
            LspciRaw node = raw.get(p);
            String parent = node == null ? null : node.parent;
            if (parent == null) {
                return Fact.absent(node != null && node.inTree ? "the lspci tree is a fragment: what lies above " + p + " is not in the text"
                        : "the lspci text has no tree (a listing, or no bridge above " + p + "): the PCIe path is unknown; give `lspci -tvnn`");
            }
            if (parent.startsWith("pci")) {
                return Fact.of(SyntheticPaths.path(parent, chain));
            }
            p = parent;
        }
        problems.add(r.address + ": the parent chain loops; its PCIe path is unknown");
        return Fact.absent("the parent chain of " + r.address + " loops in the lspci text");
    }

    private static <T> Fact<T> fact(T v, String why) {
        return v == null ? Fact.absent(why) : Fact.of(v);
    }
}
