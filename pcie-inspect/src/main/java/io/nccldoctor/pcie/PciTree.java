package io.nccldoctor.pcie;

import io.nccldoctor.core.Fact;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The PCI hierarchy from the devices' sysfs paths ({@code /sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/…}):
 * the first component is the root complex (host bridge bus), every later one a bridge or the device itself.
 *
 * <p>Switches are found the way NCCL finds them (src/graph/xml.cc, "Rewind two '/' and follow the upper PCI switch,
 * or stop if we reach a CPU root complex"): from a device, go up two levels; if both are PCI functions, the upper
 * one is the upstream port of the switch the device sits behind; otherwise the device hangs off the CPU. A root
 * port and a switch's downstream ports are therefore never nodes of their own.
 */
public final class PciTree {

    /** Domains are 16 bits on most hosts; Intel VMD adds domains from 10000. */
    private static final Pattern BDF = Pattern.compile("[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]");

    private final Map<String, PciDevice> byAddress = new LinkedHashMap<>();
    private final Map<String, List<String>> components = new HashMap<>();
    /** Per device, computed once: the walks below run for every pair of a topology. */
    private final Map<String, List<String>> bridgeCache = new HashMap<>();
    private final Map<String, List<String>> switchCache = new HashMap<>();

    private PciTree(List<PciDevice> devices) {
        for (PciDevice d : devices) {
            byAddress.put(d.address(), d);
            components.put(d.address(), parse(d.sysfsPath().orElse(null), d.address()));
        }
    }

    public static PciTree of(List<PciDevice> devices) {
        return new PciTree(devices);
    }

    /** Components after /sys/devices: ["pci0000:00", "0000:00:01.0", …, address]; just [address] when unknown. */
    private static List<String> parse(String sysfsPath, String address) {
        if (sysfsPath == null || !sysfsPath.startsWith("/sys/devices/")) {
            return List.of(address);
        }
        List<String> parts = new ArrayList<>();
        for (String p : sysfsPath.substring("/sys/devices/".length()).split("/")) {
            if (p.startsWith("pci") || BDF.matcher(p).matches()) {
                parts.add(p);
            }
        }
        return parts;
    }

    public Optional<PciDevice> device(String address) {
        return Optional.ofNullable(byAddress.get(address));
    }

    public List<PciDevice> devices() {
        return List.copyOf(byAddress.values());
    }

    /** "pci0000:00" for a device below that host bridge; absent when sysfs gave no path. */
    public Fact<String> rootComplex(String address) {
        List<String> c = components.getOrDefault(address, List.of());
        return !c.isEmpty() && c.get(0).startsWith("pci") ? Fact.of(c.get(0))
                : Fact.absent("no sysfs path for " + address);
    }

    /** The bridges between the root complex and the device, top first (root port first). */
    public List<String> bridges(String address) {
        return bridgeCache.computeIfAbsent(address, a -> {
            List<String> c = components.getOrDefault(a, List.of(a));
            int from = !c.isEmpty() && c.get(0).startsWith("pci") ? 1 : 0;
            return c.size() - 1 > from ? List.copyOf(c.subList(from, c.size() - 1)) : List.of();
        });
    }

    /** The port a device is attached to (root port or switch downstream port), when known. */
    public Optional<PciDevice> parent(String address) {
        List<String> b = bridges(address);
        return b.isEmpty() ? Optional.empty() : device(b.get(b.size() - 1));
    }

    /**
     * The bridges on the way from a to b that are not shared by both: the ports a peer-to-peer transfer passes below
     * their common ancestor (all bridges of both when they share none).
     */
    public List<String> bridgesBetween(String a, String b) {
        List<String> ba = bridges(a);
        List<String> bb = bridges(b);
        List<String> out = new ArrayList<>();
        ba.stream().filter(x -> !bb.contains(x)).forEach(out::add);
        bb.stream().filter(x -> !ba.contains(x)).forEach(out::add);
        return out;
    }

    /**
     * The switch upstream ports above a device, nearest first, as NCCL walks them: two levels at a time until a
     * level is no PCI function (the root complex).
     */
    public List<String> switches(String address) {
        return switchCache.computeIfAbsent(address, a -> {
            List<String> c = components.getOrDefault(a, List.of(a));
            List<String> chain = new ArrayList<>();
            int i = c.size() - 1;
            while (i - 2 >= 0 && isBdf(c.get(i - 1)) && isBdf(c.get(i - 2))) {
                chain.add(c.get(i - 2));
                i -= 2;
            }
            return Collections.unmodifiableList(chain);
        });
    }

    /** The device's NUMA node, else that of the topmost bridge above it (NCCL reads it where the path meets the CPU). */
    public Fact<Integer> numaNode(String address) {
        PciDevice d = byAddress.get(address);
        if (d != null && d.numaNode().isValue()) {
            return d.numaNode();
        }
        for (String b : bridges(address)) {
            PciDevice bridge = byAddress.get(b);
            if (bridge != null && bridge.numaNode().isValue()) {
                return bridge.numaNode();
            }
        }
        return d == null ? Fact.absent("unknown device " + address) : d.numaNode();
    }

    /**
     * The nvidia-smi path type between two devices. Two functions on the same port (the ports of a dual-port NIC)
     * share a single bridge: PIX, although NCCL, which skips root ports, sees them meet at the CPU.
     */
    public SmiPath path(String a, String b) {
        if (a.equals(b)) {
            return SmiPath.X;
        }
        List<String> ba = bridges(a);
        List<String> bb = bridges(b);
        if (!ba.isEmpty() && !bb.isEmpty() && ba.get(ba.size() - 1).equals(bb.get(bb.size() - 1))) {
            return SmiPath.PIX;
        }
        return beyondPort(a, b);
    }

    /** NCCL's path type: PIX/PXB below a shared switch, else PHB within a NUMA node (numa_node -1 is a node of its own), else SYS. */
    public String ncclPath(String a, String b) {
        if (a.equals(b)) {
            return "LOC";
        }
        return NcclPathTypes.ofSmi(beyondPort(a, b));
    }

    private SmiPath beyondPort(String a, String b) {
        int hops = hops(a, b);
        if (hops > 0) {
            return hops <= 1 ? SmiPath.PIX : SmiPath.PXB;
        }
        String ra = root(a);
        if (ra != null && ra.equals(root(b))) {
            return SmiPath.PHB;
        }
        // Where the text gives no NUMA node (numaUnknown), NODE is a placeholder that shown() says is not in the text.
        if (numaUnknown(a) || numaUnknown(b)) {
            return SmiPath.NODE;
        }
        return numaKey(a) == numaKey(b) ? SmiPath.NODE : SmiPath.SYS;
    }

    /**
     * The reason of a NUMA node that the input does not carry at all (lspci -t and a plain listing print none), as
     * opposed to one the kernel reports as -1: across root complexes such a device may be on either NUMA node.
     */
    public static final String NUMA_NOT_IN_TEXT = "not in the text: `lspci -t` and a plain `lspci` listing print no NUMA node";

    /** True when the NUMA node is not in the input at all (never for sysfs, whose -1 is an answer). */
    public boolean numaUnknown(String address) {
        Fact<Integer> n = numaNode(address);
        return !n.isValue() && n.reason().equals(NUMA_NOT_IN_TEXT);
    }

    /**
     * The NUMA node as NCCL groups devices: each numa_node value gets one CPU node, -1 included
     * (src/graph/xml.cc@v2.30.7-1 L754-770: the {@code <cpu>} is looked up by the numaid string read from sysfs), so
     * devices the kernel gives no NUMA node share one CPU with each other and none with a numbered node.
     */
    int numaKey(String address) {
        return numaNode(address).orElse(-1);
    }

    /**
     * Whether the input shows where a and b meet: absent, with the reason, when the path leaves every switch and port
     * they share and either hangs from {@link SyntheticPaths#UNSEEN_ROOT} (a snippet's top elements, whose parents are
     * not in the text: they may meet at a switch, at one CPU or across two). Below a shared switch or port the path
     * is the text's own.
     */
    public Fact<Boolean> shown(String a, String b) {
        if (a.equals(b) || hops(a, b) > 0) {
            return SHOWN;
        }
        List<String> ba = bridges(a);
        List<String> bb = bridges(b);
        if (!ba.isEmpty() && !bb.isEmpty() && ba.get(ba.size() - 1).equals(bb.get(bb.size() - 1))) {
            return SHOWN;
        }
        String unseen = SyntheticPaths.UNSEEN_ROOT.equals(root(a)) ? a : SyntheticPaths.UNSEEN_ROOT.equals(root(b)) ? b : null;
        if (unseen != null) {
            return Fact.absent("the text is a snippet: what lies above " + unseen
                    + " is not in it, so where " + a + " and " + b + " meet (a switch, one CPU, two) is unknown");
        }
        String ra = root(a);
        if (ra != null && ra.equals(root(b)) || !numaUnknown(a) && !numaUnknown(b)) {
            return SHOWN;
        }
        return Fact.absent("the text gives no NUMA node (lspci -t prints none): " + a + " and " + b + " are below different "
                + "root buses, on one NUMA node (NODE) or two (SYS)");
    }

    private static final Fact<Boolean> SHOWN = Fact.of(true);

    /**
     * The nearest path a pair that {@link #shown} leaves unknown can still have, when the text bounds it: below two
     * different root buses of a tree that prints no NUMA node, the two meet at one CPU (NODE, NCCL's PHB) or across
     * two (SYS), never below a switch or port, so NODE is the bound; NCCL types any path through a CPU as PATH_PHB at
     * least (src/graph/paths.cc@v2.30.7-1 L89-90, "Consider a path going through the CPU as PATH_PHB", a path's type
     * being the largest of its links'). Empty for a shown pair and for a snippet's unseen top (they may share a switch).
     */
    public Optional<SmiPath> atLeast(String a, String b) {
        if (shown(a, b).isValue() || SyntheticPaths.UNSEEN_ROOT.equals(root(a)) || SyntheticPaths.UNSEEN_ROOT.equals(root(b))) {
            return Optional.empty();
        }
        String ra = root(a);
        return ra != null && root(b) != null && !ra.equals(root(b)) ? Optional.of(SmiPath.NODE) : Optional.empty();
    }

    /**
     * True when an NVIDIA function (vendor 10de) is a bridge above the device: a GPU attached to a Grace CPU hangs from
     * ports that may be NVIDIA's, and NCCL gives its path to a NIC behind that CPU P2C (PHB over C2C,
     * src/graph/paths.cc@v2.30.7-1 L206), nearer than PHB, which a PCI tree cannot show.
     */
    public boolean belowNvidiaBridge(String address) {
        return bridges(address).stream().map(byAddress::get).anyMatch(d -> d != null && d.vendorId().equals("10de"));
    }

    /** How many switches the path from a to b crosses when they share one; empty when it goes through the CPU. */
    public Optional<Integer> switchHops(String a, String b) {
        int hops = hops(a, b);
        return hops > 0 ? Optional.of(hops) : Optional.empty();
    }

    /** Switches crossed, or 0 when the path goes through the CPU (runs for every pair a rule looks at: no allocation). */
    private int hops(String a, String b) {
        List<String> sa = switches(a);
        List<String> sb = switches(b);
        for (int i = 0; i < sa.size(); i++) {
            int j = sb.indexOf(sa.get(i));
            if (j >= 0) {
                return i + j + 1;
            }
        }
        return 0;
    }

    /** The root complex component, or null when the device has no sysfs path. */
    private String root(String address) {
        List<String> c = components.get(address);
        return c != null && !c.isEmpty() && c.get(0).startsWith("pci") ? c.get(0) : null;
    }

    /**
     * The devices grouped so that any two whose path is PIX or PXB are in one group: by their topmost switch, else by
     * the port they hang from; a device with neither is alone. A rule about paths inside switches then compares the
     * members of each group, not every pair of the node.
     */
    public List<List<String>> switchGroups(List<String> addresses) {
        Map<String, List<String>> groups = new LinkedHashMap<>();
        for (String a : addresses) {
            List<String> s = switches(a);
            List<String> b = bridges(a);
            String key = !s.isEmpty() ? s.get(s.size() - 1) : !b.isEmpty() ? "port " + b.get(b.size() - 1) : "alone " + a;
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(a);
        }
        return List.copyOf(groups.values());
    }

    /**
     * The links a transfer from a to b crosses: each device's own upstream link, and the upstream link of every
     * switch below the shared one (or of every switch, when the path goes through the CPU).
     */
    public List<String> linkOwners(String a, String b) {
        List<String> owners = new ArrayList<>();
        List<String> sa = switches(a);
        List<String> sb = switches(b);
        String common = sa.stream().filter(sb::contains).findFirst().orElse(null);
        for (String end : List.of(a, b)) {
            owners.add(end);
            for (String s : switches(end)) {
                if (s.equals(common)) {
                    break;
                }
                if (!owners.contains(s)) {
                    owners.add(s);
                }
            }
        }
        return owners;
    }

    /** Components are "pci…" root complexes or addresses (parse keeps nothing else). */
    private static boolean isBdf(String s) {
        return !s.startsWith("pci");
    }
}
