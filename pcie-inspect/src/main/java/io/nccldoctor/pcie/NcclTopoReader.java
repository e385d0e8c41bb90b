package io.nccldoctor.pcie;

import io.nccldoctor.core.Fact;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One pass over the tags of a topology file with an explicit stack of open elements (no recursion, so any nesting
 * is safe). A {@code <pci>} becomes a device when its start tag is read, so a file cut inside an element keeps
 * every device before the cut. Nesting deeper than {@link #MAX_DEPTH} is not a PCI hierarchy and is not read.
 */
final class NcclTopoReader {

    /** PCI bus numbers are 8 bits and every bridge level below a root port takes one: no real tree is deeper. */
    static final int MAX_DEPTH = 256;
    private static final Pattern BUSID = Pattern.compile("[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]");
    /** Elements NCCL and RCCL write that describe links PCIe cannot show (NVLink, xGMI, C2C): counted, not analysed. */
    private static final Set<String> NOT_PCI = Set.of("nvlink", "xgmi", "c2c", "pcilink");

    private record Cpu(int index, Fact<Integer> numa, String root) {
    }

    /** A {@code <net>} as read; its role is decided once every device is known. */
    private record PendingNet(String name, String busId, Map<String, String> attributes, Cpu cpu, int line) {
    }

    /** An open element; {@code pci} is set for a pci element that became a device, {@code skipped} for one that did not. */
    private record Open(String tag, int line, NcclPciElement pci, Cpu cpu, boolean skipped, boolean deep) {
        Open(String tag, int line, NcclPciElement pci, Cpu cpu, boolean skipped) {
            this(tag, line, pci, cpu, skipped, false);
        }
    }

    private final String source;
    private final Deque<Open> stack = new ArrayDeque<>();
    private final List<NcclPciElement> elements = new ArrayList<>();
    private final Set<String> busIds = new HashSet<>();
    private final Map<String, String> rdmaNames = new LinkedHashMap<>();
    private final Map<String, List<String>> nets = new LinkedHashMap<>();
    private final List<PendingNet> pendingNets = new ArrayList<>();
    private final List<NcclTopoNets.Net> netList = new ArrayList<>();
    private final List<NcclTopoNets.Gpu> gpus = new ArrayList<>();
    private final List<String> notRead = new ArrayList<>();
    private final Map<String, Integer> uncounted = new LinkedHashMap<>();
    private final SyntheticPaths ports = new SyntheticPaths();
    private final List<PciDevice> devices = new ArrayList<>();
    private int cpus;
    private int tooDeep;
    private int insideSkipped;
    private Cpu snippet;

    NcclTopoReader(String source) {
        this.source = source;
    }

    void read(XmlTags tags) {
        for (XmlTags.Tag t = tags.next(); t != null; t = tags.next()) {
            if (t.kind() == XmlTags.Kind.START) {
                start(t);
                if (t.empty()) {
                    end(t.name(), t.line());
                }
            } else {
                end(t.name(), t.line());
            }
        }
        notRead.addAll(0, tags.problems());
        if (!stack.isEmpty()) {
            notRead.add("line " + tags.lastContentLine() + ": the text ends inside " + openPath()
                    + "; whatever followed in the file was not in the text (cut, or a snippet)");
        }
        Map<String, PciDevice> byBusId = new LinkedHashMap<>();
        for (NcclPciElement e : elements) {
            PciDevice d = e.toDevice();
            devices.add(d);
            byBusId.put(d.address(), d);
            String doubt = e.doubt(d);
            if (doubt != null) {
                notRead.add(doubt);
            }
        }
        pendingNets.forEach(n -> net(n, n.busId() == null ? null : byBusId.get(n.busId())));
        summarise();
    }

    /**
     * A net's role: not a NET node with {@code net="0"}; an RDMA device when its name is an RDMA driver's or its function
     * an RDMA NIC; else a socket or plugin net device. Only RDMA devices name their function (the matrix's NICs).
     */
    private void net(PendingNet n, PciDevice d) {
        NcclTopoNets.Role role = "0".equals(n.attributes().getOrDefault("net", "").strip()) ? NcclTopoNets.Role.NOT_NET
                : PciIds.rdmaDriverOfName(n.name()).isPresent() || d != null && PciIds.rdmaCapable(d) ? NcclTopoNets.Role.RDMA
                : NcclTopoNets.Role.OTHER;
        if (role == NcclTopoNets.Role.RDMA && n.busId() != null) {
            // every net of the nic is kept; the first names the function (one RDMA device per PCI function)
            rdmaNames.putIfAbsent(n.busId(), n.name());
            nets.computeIfAbsent(n.busId(), k -> new ArrayList<>()).add(n.name());
        }
        Fact<String> address = n.busId() != null ? Fact.of(n.busId()) : n.cpu() != null && n.cpu().index() >= 0
                ? Fact.absent("its <nic> is directly under <cpu>: no PCI function; NCCL attaches it to that CPU")
                : Fact.absent("its <nic> is outside any <pci> and <cpu>: where it attaches is not in the text");
        netList.add(new NcclTopoNets.Net(n.name(), address, gdr(n.attributes(), n.line(), "<net " + n.name() + ">"), role,
                n.cpu() == null ? Fact.absent("no <cpu> above it in the text") : n.cpu().numa(), n.line()));
    }

    /** The gdr attribute as NCCL reads it (xmlGetAttrInt: strtol); absent when the element has none. */
    private Fact<Integer> gdr(Map<String, String> attributes, int line, String element) {
        String raw = attributes.get("gdr");
        if (raw == null) {
            return Fact.absent("no gdr attribute on " + element + ": NCCL detects GPUDirect RDMA support at run time");
        }
        try {
            return Fact.of(Integer.parseInt(raw.strip()));
        } catch (NumberFormatException e) {
            notRead.add("line " + line + ": " + element + " gdr='" + raw + "' is not a number: not read");
            return Fact.absent("gdr='" + raw + "' on " + element + " is not a number");
        }
    }

    List<PciDevice> devices() {
        return List.copyOf(devices);
    }

    /** Every net and every GPU's gdr attribute, as the file gives them. */
    NcclTopoNets ncclNets() {
        return new NcclTopoNets(netList, gpus);
    }

    Map<String, String> rdmaNames() {
        return Map.copyOf(rdmaNames);
    }

    /** busid → every net name of its nic, in order. */
    Map<String, List<String>> nets() {
        Map<String, List<String>> out = new LinkedHashMap<>();
        nets.forEach((k, v) -> out.put(k, List.copyOf(v)));
        return Collections.unmodifiableMap(out);
    }

    List<String> notRead() {
        return List.copyOf(notRead);
    }

    private void start(XmlTags.Tag t) {
        Open parent = stack.peek();
        if (parent != null && parent.skipped()) {
            if (parent.deep() && t.name().equals("pci")) {
                tooDeep++;
            } else {
                insideSkipped++;
            }
            stack.push(new Open(t.name(), t.line(), null, parent.cpu(), true, parent.deep()));
            return;
        }
        Cpu cpu = parent == null ? null : parent.cpu();
        switch (t.name()) {
            case "system" -> stack.push(new Open("system", t.line(), null, cpu, false));
            case "cpu" -> stack.push(new Open("cpu", t.line(), null, cpu(t), false));
            case "pci" -> pci(t, parent, cpu);
            case "gpu", "nic" -> child(t, parent, cpu);
            case "net" -> {
                NcclPciElement holder = nearestPci();
                if (t.attributes().containsKey("name")) {
                    pendingNets.add(new PendingNet(t.attributes().get("name"), holder == null ? null : holder.busId,
                            t.attributes(), cpu, t.line()));
                }
                stack.push(new Open("net", t.line(), null, cpu, false));
            }
            default -> {
                uncounted.merge(NOT_PCI.contains(t.name()) ? "<" + t.name() + "> (not a PCIe link: not analysed)"
                        : "<" + t.name() + "> (not an element of NCCL's topology format)", 1, Integer::sum);
                stack.push(new Open(t.name(), t.line(), null, cpu, false));
            }
        }
    }

    private Cpu cpu(XmlTags.Tag t) {
        int index = cpus++;
        String raw = t.attributes().getOrDefault("numaid", "");
        Fact<Integer> numa;
        try {
            int n = Integer.parseInt(raw.strip());
            numa = n < 0 ? Fact.absent("numaid " + n + " in the XML") : Fact.of(n);
        } catch (NumberFormatException e) {
            numa = Fact.of(index);
            notRead.add("line " + t.line() + ": <cpu> numaid '" + raw + "' is not a number; taken as its position, " + index);
        }
        return new Cpu(index, numa, String.format(Locale.ROOT, "pciffff:%02x", index % 256));
    }

    private void pci(XmlTags.Tag t, Open parent, Cpu cpu) {
        String busId = t.attributes().getOrDefault("busid", "").strip().toLowerCase(Locale.ROOT);
        NcclPciElement above = parent == null ? null : parent.pci();
        int depth = above == null ? 1 : above.depth + 1;
        String why = busId.isEmpty() ? "has no busid" : !BUSID.matcher(busId).matches() ? "has busid '" + busId + "', not a PCI address"
                : busIds.contains(busId) ? "repeats busid " + busId : depth > MAX_DEPTH ? null : "";
        if (why == null) {
            tooDeep++;
        } else if (!why.isEmpty()) {
            notRead.add("line " + t.line() + ": a <pci> that " + why + " was not read, nor anything inside it");
        }
        if (why == null || !why.isEmpty()) {
            stack.push(new Open("pci", t.line(), null, cpu, true, why == null));
            return;
        }
        if (cpu == null) {
            cpu = snippetRoot(t.line());
        }
        busIds.add(busId);
        String path = above != null ? above.path : "/sys/devices/" + cpu.root();
        NcclPciElement e = new NcclPciElement(busId, t.attributes(), path + "/" + ports.port() + "/" + busId, depth, cpu.numa());
        elements.add(e);
        stack.push(new Open("pci", t.line(), e, cpu, false));
    }

    private Cpu snippetRoot(int line) {
        if (snippet == null) {
            snippet = new Cpu(-1, Fact.absent("the text holds no <cpu> above this device (a snippet)"), SyntheticPaths.UNSEEN_ROOT);
            notRead.add("line " + line + ": <pci> outside any <cpu>: the text is a snippet; the CPU and NUMA node above it are unknown");
        }
        return snippet;
    }

    /**
     * A {@code <gpu>} or {@code <nic>} marks its {@code <pci>}. A {@code <nic>} directly under a {@code <cpu>} is NCCL's
     * too: ncclTopoAddCpu (src/graph/topo.cc) makes it one NIC node linked to the CPU (a virtual or socket NIC); its
     * nets are read, with no PCI function.
     */
    private void child(XmlTags.Tag t, Open parent, Cpu cpu) {
        NcclPciElement holder = parent == null ? null : parent.pci();
        boolean underCpu = holder == null && parent != null && parent.tag().equals("cpu") && t.name().equals("nic");
        if (holder == null && !underCpu) {
            notRead.add("line " + t.line() + ": <" + t.name() + "> outside a <pci>: not attached to a device");
        } else if (underCpu) {
            stack.push(new Open(t.name(), t.line(), null, cpu, false));
            return;
        } else if (t.name().equals("gpu")) {
            holder.gpu = true;
            holder.rccl |= t.attributes().containsKey("gcn"); // RCCL writes the GFX target ("gfx942") on its <gpu>
            gpus.add(new NcclTopoNets.Gpu(holder.busId, gdr(t.attributes(), t.line(), "<gpu> of " + holder.busId), t.line()));
        } else {
            holder.nic = true;
        }
        stack.push(new Open(t.name(), t.line(), null, cpu, false));
    }

    private NcclPciElement nearestPci() {
        for (Open o : stack) {
            if (o.pci() != null) {
                return o.pci();
            }
        }
        return null;
    }

    private void end(String name, int line) {
        boolean open = stack.stream().anyMatch(o -> o.tag().equals(name));
        if (!open) {
            notRead.add("line " + line + ": </" + name + "> closes nothing that is open (the text starts inside an element)");
            return;
        }
        for (Open o = stack.pop(); !o.tag().equals(name); o = stack.pop()) {
            notRead.add("line " + o.line() + ": <" + o.tag() + "> is never closed (closed by </" + name + "> at line " + line + ")");
        }
    }

    /** "system > cpu numaid 1 > pci 0000:5c:00.0 > nic", outermost first. */
    private String openPath() {
        List<String> names = new ArrayList<>();
        for (Iterator<Open> it = stack.descendingIterator(); it.hasNext(); ) {
            Open o = it.next();
            names.add(o.pci() != null ? "<pci " + o.pci().busId + ">" : "<" + o.tag() + "> (line " + o.line() + ")");
        }
        return String.join(" > ", names);
    }

    private void summarise() {
        if (tooDeep > 0) {
            notRead.add(tooDeep + " <pci> elements nested deeper than " + MAX_DEPTH
                    + " levels were not read: a PCI hierarchy has at most 256 buses, one per bridge level at least");
        }
        if (insideSkipped > 0) {
            notRead.add(insideSkipped + " other elements inside unread <pci> elements were not read");
        }
        uncounted.forEach((what, n) -> notRead.add(n + " × " + what));
    }
}
