package io.nccldoctor.collectives.parse;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * NCCL's view of the node, as ncclTopoPrint writes it at every init (src/graph/topo.cc; NCCL_DEBUG_SUBSYS includes
 * GRAPH): "=== System : maxBw 48.0 totalBw 370.8 ===", then from each CPU its links, indented by depth ("+ PCI[48.0] -
 * GPU/0-68000 (8)", "+ NVL[370.8] - NVS/0-0", "+ NET[50.0] - NET/0-c (0/d4f9…/1/50.000000)"), closed by a line of '='.
 * Older releases print "maxWidth … totalWidth" and ids without the system part ("GPU/1000"). Each process's dump is
 * assembled from its own lines (processes interleave in a job's output) and summarised: the GPUs, NICs and NET
 * devices with their bandwidth, the NVLink links, and the PCI links by bandwidth. A PCI link of 0.2 GB/s is what
 * NCCL computes for a x1 link at 2.5 GT/s (width × 15 / 80, topo.cc@v2.27.5-1 L408-477), which a hypervisor's emulated
 * PCIe bridge reports: NCCL then routes and sizes channels for a slow virtual topology.
 */
final class SystemDumps {

    enum Type { START, END, NODE, LINK }

    /**
     * One dump line: START (max, total), END, NODE (type, id), LINK (link type, GB/s, target type, target id); the types
     * as codes, and the node and the bandwidth as numbers this builder gave them ({@link #numbered}), so that a line
     * read once is counted with integer work only.
     */
    record Line(Type type, String a, String b, String c, String d, int link, int node, int id, int bw) {

        Line(Type type, String a, String b, String c, String d) {
            this(type, a, b, c, d, type == Type.LINK ? LINKS.indexOf(a) : -1, NODES.indexOf(type == Type.LINK ? c : a), -1, -1);
        }
    }

    /** Link types counted, and node types counted (topoLinkTypeStr, topoNodeTypeStr in src/graph/topo.cc). */
    private static final List<String> LINKS = List.of("PCI", "NVL", "C2C", "NET");
    private static final List<String> NODES = List.of("CPU", "GPU", "NIC", "NET", "NVS");

    /** Nodes ("GPU/0-68000") and bandwidths ("48.0") numbered in the order first seen. */
    private final Map<String, Integer> nodeNumbers = new java.util.HashMap<>();
    private final Map<String, Integer> bwNumbers = new java.util.HashMap<>();
    private final List<String> bandwidths = new ArrayList<>();

    /** The line with its node and bandwidth numbered. */
    Line numbered(Line l) {
        String node = l.type() == Type.LINK ? l.c() + "/" + l.d() : l.type() == Type.NODE ? l.a() + "/" + l.b() : "";
        int id = node.isEmpty() ? -1 : nodeNumbers.computeIfAbsent(node, k -> nodeNumbers.size());
        int bw = l.type() == Type.LINK ? bwNumbers.computeIfAbsent(l.b(), k -> {
            bandwidths.add(k);
            return bandwidths.size() - 1;
        }) : -1;
        return new Line(l.type(), l.a(), l.b(), l.c(), l.d(), l.link(), l.node(), id, bw);
    }

    private static final Pattern START = Pattern.compile("^=== System : max(?:Bw|Width) ([\\d.]+) total(?:Bw|Width) ([\\d.]+) ===");
    private static final Pattern NODE = Pattern.compile("^(\\w+)/(\\S+)");
    private static final Pattern LINK = Pattern.compile("^\\s*\\+ (\\w+)\\[([\\d.]+)\\] - (\\w+)/(\\S+)");

    /** A dump line read from its message text; empty when it is none of the four shapes. */
    static java.util.Optional<Line> read(String message) {
        Line link = link(message);
        if (link != null) {
            return java.util.Optional.of(link);
        }
        Matcher m;
        if ((m = START.matcher(message)).find()) {
            return java.util.Optional.of(new Line(Type.START, m.group(1), m.group(2), "", ""));
        }
        if (message.startsWith("=====")) {
            return java.util.Optional.of(new Line(Type.END, "", "", "", ""));
        }
        if ((m = NODE.matcher(message)).find()) {
            return java.util.Optional.of(new Line(Type.NODE, m.group(1), m.group(2), "", ""));
        }
        return java.util.Optional.empty();
    }

    /**
     * {@code \s*\+ (\w+)\[([\d.]+)\] - (\w+)/(\S+)}, the bulk of a dump, read by hand (SystemDumpsTest holds it to the
     * expression); null when the line is not one.
     */
    static Line link(String m) {
        int n = m.length();
        int p = 0;
        while (p < n && space(m.charAt(p))) {
            p++;
        }
        if (!m.startsWith("+ ", p)) {
            return null;
        }
        int type = p + 2;
        int typeEnd = word(m, type);
        if (typeEnd == type || !m.startsWith("[", typeEnd)) {
            return null;
        }
        int bw = typeEnd + 1;
        int bwEnd = bw;
        while (bwEnd < n && (MessageKinds.digit(m.charAt(bwEnd)) || m.charAt(bwEnd) == '.')) {
            bwEnd++;
        }
        if (bwEnd == bw || !m.startsWith("] - ", bwEnd)) {
            return null;
        }
        int target = bwEnd + 4;
        int targetEnd = word(m, target);
        if (targetEnd == target || !m.startsWith("/", targetEnd)) {
            return null;
        }
        int id = targetEnd + 1;
        int idEnd = id;
        while (idEnd < n && !space(m.charAt(idEnd))) {
            idEnd++;
        }
        if (idEnd == id) {
            return null;
        }
        return new Line(Type.LINK, m.substring(type, typeEnd), m.substring(bw, bwEnd), m.substring(target, targetEnd), m.substring(id, idEnd));
    }

    /** {@code \s}: space, tab, newline, vertical tab, form feed, carriage return. */
    private static boolean space(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
    }

    private static int word(String m, int from) {
        int k = from;
        while (k < m.length() && (m.charAt(k) >= 'a' && m.charAt(k) <= 'z' || m.charAt(k) >= 'A' && m.charAt(k) <= 'Z'
                || MessageKinds.digit(m.charAt(k)) || m.charAt(k) == '_')) {
            k++;
        }
        return k;
    }

    /** A dump being read, for one process: per node type the distinct nodes, per bandwidth the PCI links, in integers. */
    private final class Open {
        final String maxBw;
        final String totalBw;
        final int[] nodes = new int[NODES.size()];
        /** The node numbers seen (+1), open addressing; grown when half full. */
        int[] seen = new int[64];
        int seenCount;
        int[] pci = new int[8];
        long netBw;
        int nvlinks;
        int c2c;

        Open(String maxBw, String totalBw) {
            this.maxBw = maxBw;
            this.totalBw = totalBw;
        }

        void add(Line l) {
            if (l.node() >= 0 && l.id() >= 0 && firstSight(l.id())) {
                nodes[l.node()]++;
            }
            switch (l.link()) {
                case 0 -> {
                    if (l.bw() >= pci.length) {
                        pci = java.util.Arrays.copyOf(pci, Math.max(pci.length * 2, l.bw() + 1));
                    }
                    pci[l.bw()]++;
                }
                case 1 -> nvlinks++;
                case 2 -> c2c++;
                case 3 -> netBw |= l.bw() < 64 ? 1L << l.bw() : 0;
                default -> {
                }
            }
        }

        private boolean firstSight(int id) {
            int mask = seen.length - 1;
            int i = (id * 0x9E3779B9) >>> 16 & mask;
            for (; seen[i] != 0; i = (i + 1) & mask) {
                if (seen[i] == id + 1) {
                    return false;
                }
            }
            seen[i] = id + 1;
            if (++seenCount * 2 > seen.length) {
                int[] old = seen;
                seen = new int[old.length * 2];
                seenCount = 0;
                for (int v : old) {
                    if (v != 0) {
                        firstSight(v - 1);
                    }
                }
            }
            return true;
        }

        /** A line numbered by the builder that opened this dump (a dump goes on across the ranges of a file). */
        Line renumber(Line l) {
            return numbered(l);
        }

        NcclLog.SystemDump close(boolean complete) {
            Map<String, Integer> byBw = new TreeMap<>();
            for (int b = 0; b < pci.length; b++) {
                if (pci[b] > 0) {
                    byBw.put(bandwidths.get(b), pci[b]);
                }
            }
            List<String> net = new ArrayList<>();
            for (int b = 0; b < 64; b++) {
                if ((netBw & 1L << b) != 0) {
                    net.add(bandwidths.get(b));
                }
            }
            return new NcclLog.SystemDump(maxBw, totalBw, nodes[0], nodes[1], nodes[2], nodes[3], List.copyOf(net), nvlinks, nodes[4],
                    Collections.unmodifiableMap(byBw), c2c, complete);
        }
    }

    /** The dump each process is writing, by its key ("host:pid", "" for lines without NCCL's prefix). */
    private final Map<String, Open> open = new LinkedHashMap<>();
    /**
     * Per process, the dump lines read before this range saw a "=== System" line of it: when the file is read in
     * ranges, the rest of a dump the previous range opened (an END among them closes it).
     */
    private final Map<String, List<Line>> orphans = new LinkedHashMap<>();
    private final Set<String> started = new HashSet<>();
    /**
     * At most this many such lines are kept (dump lines with no "=== System" line before them, in a log cut from the
     * middle of one, would otherwise pile up); a dump cut by a range boundary past them closes as incomplete.
     */
    private static final int ORPHANS_MAX = 1 << 16;
    private int orphanLines;
    /** The distinct dumps (at most {@link #DISTINCT}) and how many processes wrote each. */
    private final Map<NcclLog.SystemDump, long[]> distinct = new LinkedHashMap<>();
    private static final int DISTINCT = 16;
    long count;

    /** The last process a line was added for, and its open dump (consecutive lines are mostly one process's). */
    private String lastKey;
    private Open lastOpen;

    void add(String process, Line l) {
        if (l.type() == Type.START) {
            lastKey = null;
            started.add(process);
            Open was = open.put(process, new Open(l.a(), l.b()));
            if (was != null) {
                keep(was.close(false));
            }
            return;
        }
        Open o = process.equals(lastKey) ? lastOpen : open.get(process);
        lastKey = process;
        lastOpen = o;
        if (o == null) {
            if (!started.contains(process) && orphanLines < ORPHANS_MAX) {
                List<Line> before = orphans.computeIfAbsent(process, k -> new ArrayList<>());
                if (before.isEmpty() || before.get(before.size() - 1).type() != Type.END) {
                    before.add(l);
                    orphanLines++;
                }
            }
        } else if (l.type() == Type.END) {
            keep(open.remove(process).close(true));
            lastOpen = null;
        } else {
            o.add(l);
        }
    }

    private void keep(NcclLog.SystemDump d) {
        count++;
        long[] seen = distinct.get(d);
        if (seen != null) {
            seen[0]++;
        } else if (distinct.size() < DISTINCT) {
            distinct.put(d, new long[] {1});
        }
    }

    /**
     * Adds what the next range of the same file found: a dump this range left open goes on with the lines the next
     * range read before it saw that process start another.
     */
    void absorb(SystemDumps o) {
        lastKey = null;
        for (Map.Entry<String, Open> e : new ArrayList<>(open.entrySet())) {
            for (Line l : o.orphans.getOrDefault(e.getKey(), List.of())) {
                Open target = open.get(e.getKey());
                if (target != null) {
                    add(e.getKey(), target.renumber(l));
                }
            }
            if (open.containsKey(e.getKey()) && o.started.contains(e.getKey())) {
                keep(open.remove(e.getKey()).close(false));
            }
        }
        o.orphans.forEach((k, lines) -> {
            if (!started.contains(k) && !orphans.containsKey(k)) {
                orphans.put(k, lines);
            }
        });
        started.addAll(o.started);
        o.open.forEach(open::put);
        count += o.count;
        o.distinct.forEach((d, n) -> {
            long[] seen = distinct.get(d);
            if (seen != null) {
                seen[0] += n[0];
            } else if (distinct.size() < DISTINCT) {
                distinct.put(d, new long[] {n[0]});
            }
        });
    }

    /** The dumps, the unfinished ones (an excerpt, a process that died) closed as incomplete, in a fixed order. */
    List<NcclLog.SystemDump> finish() {
        lastKey = null;
        new ArrayList<>(open.values()).forEach(o -> keep(o.close(false)));
        open.clear();
        List<NcclLog.SystemDump> out = new ArrayList<>(distinct.keySet());
        out.sort(java.util.Comparator.comparing(NcclLog.SystemDump::toString));
        return out;
    }
}
