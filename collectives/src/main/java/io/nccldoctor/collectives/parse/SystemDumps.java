package io.nccldoctor.collectives.parse;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
 *
 * <p>A dump is a fifth of an initialisation's lines, so a link line is reduced to numbers (its link and node types as
 * codes, its bandwidth and node id as 64-bit FNV-1a hashes of their text) that the block scanner computes from bytes
 * ({@link DumpLinkBytes}) and {@link #link(String)} from a string, alike.
 */
final class SystemDumps {

    enum Type { START, END, NODE, LINK }

    /**
     * One dump line: START (max, total), END, NODE (type, id), LINK (link type, GB/s, target type, target id), with the
     * link and node types as codes and the node id and bandwidth hashed.
     */
    record Line(Type type, String a, String b, String c, String d, int link, int node, long id, long bw) {

        Line(Type type, String a, String b, String c, String d) {
            this(type, a, b, c, d, type == Type.LINK ? LINKS.indexOf(a) : -1, NODES.indexOf(type == Type.LINK ? c : a),
                    type == Type.LINK ? fnv(d) : type == Type.NODE ? fnv(b) : 0, type == Type.LINK ? fnv(b) : 0);
        }
    }

    /** Link types counted, and node types counted (topoLinkTypeStr, topoNodeTypeStr in src/graph/topo.cc). */
    static final List<String> LINKS = List.of("PCI", "NVL", "C2C", "NET");
    static final List<String> NODES = List.of("CPU", "GPU", "NIC", "NET", "NVS");
    static final long FNV_BASIS = 0xcbf29ce484222325L;
    static final long FNV_PRIME = 0x100000001b3L;

    /** 64-bit FNV-1a of a text's chars (bytes, for the ASCII NCCL prints). */
    static long fnv(String s) {
        long h = FNV_BASIS;
        for (int i = 0; i < s.length(); i++) {
            h = (h ^ s.charAt(i)) * FNV_PRIME;
        }
        return h;
    }

    private static final Pattern START = Pattern.compile("^=== System : max(?:Bw|Width) ([\\d.]+) total(?:Bw|Width) ([\\d.]+) ===");
    private static final Pattern NODE = Pattern.compile("^(\\w+)/(\\S+)");

    /** A dump line read from its message text; empty when it is none of the four shapes. */
    static Optional<Line> read(String message) {
        Line link = link(message);
        if (link != null) {
            return Optional.of(link);
        }
        Matcher m;
        if ((m = START.matcher(message)).find()) {
            return Optional.of(new Line(Type.START, m.group(1), m.group(2), "", ""));
        }
        if (message.startsWith("=====")) {
            return Optional.of(new Line(Type.END, "", "", "", ""));
        }
        if ((m = NODE.matcher(message)).find()) {
            return Optional.of(new Line(Type.NODE, m.group(1), m.group(2), "", ""));
        }
        return Optional.empty();
    }

    /**
     * {@code \s*\+ (\w+)\[([\d.]+)\] - (\w+)/(\S+)}, the bulk of a dump, read by hand (SystemDumpsTest holds it to the
     * expression, and DumpLinkBytes to this); null when the line is not one.
     */
    static Line link(String m) {
        int n = m.length();
        int p = 0;
        while (p < n && ByteWords.space(m.charAt(p))) {
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
        while (idEnd < n && !ByteWords.space(m.charAt(idEnd))) {
            idEnd++;
        }
        if (idEnd == id) {
            return null;
        }
        return new Line(Type.LINK, m.substring(type, typeEnd), m.substring(bw, bwEnd), m.substring(target, targetEnd), m.substring(id, idEnd));
    }

    static boolean wordChar(int c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || MessageKinds.digit(c) || c == '_';
    }

    private static int word(String m, int from) {
        int k = from;
        while (k < m.length() && wordChar(m.charAt(k))) {
            k++;
        }
        return k;
    }

    /** A dump being read, for one process: per node type the distinct nodes, per bandwidth the PCI links, as hashes. */
    private static final class Open {
        final String maxBw;
        final String totalBw;
        final int[] nodes = new int[NODES.size()];
        /** The (type, id) hashes seen, open addressing (0: free); grown when half full. */
        long[] seen = new long[32];
        int seenCount;
        long[] pciBw = new long[4];
        int[] pciCount = new int[4];
        int pciKinds;
        long[] netBw = new long[4];
        int netKinds;
        int nvlinks;
        int c2c;

        Open(String maxBw, String totalBw) {
            this.maxBw = maxBw;
            this.totalBw = totalBw;
        }

        void add(int link, long bw, int node, long id) {
            // the node type in the top bits: "NIC/0" and "NET/0" (one id, types 2 and 3) are two nodes; 0 marks a free slot
            long key = id ^ (long) (node + 1) << 58;
            if (node >= 0 && firstSight(key == 0 ? 1 : key)) {
                nodes[node]++;
            }
            switch (link) {
                case 0 -> pci(bw);
                case 1 -> nvlinks++;
                case 2 -> c2c++;
                case 3 -> net(bw);
                default -> {
                }
            }
        }

        private void pci(long bw) {
            for (int i = 0; i < pciKinds; i++) {
                if (pciBw[i] == bw) {
                    pciCount[i]++;
                    return;
                }
            }
            if (pciKinds == pciBw.length) {
                pciBw = Arrays.copyOf(pciBw, pciKinds * 2);
                pciCount = Arrays.copyOf(pciCount, pciKinds * 2);
            }
            pciBw[pciKinds] = bw;
            pciCount[pciKinds++] = 1;
        }

        private void net(long bw) {
            for (int i = 0; i < netKinds; i++) {
                if (netBw[i] == bw) {
                    return;
                }
            }
            if (netKinds == netBw.length) {
                netBw = Arrays.copyOf(netBw, netKinds * 2);
            }
            netBw[netKinds++] = bw;
        }

        private boolean firstSight(long key) {
            int mask = seen.length - 1;
            int i = (int) (key ^ key >>> 32) * 0x9E3779B9 >>> 16 & mask;
            for (; seen[i] != 0; i = (i + 1) & mask) {
                if (seen[i] == key) {
                    return false;
                }
            }
            seen[i] = key;
            if (++seenCount * 2 > seen.length) {
                long[] old = seen;
                seen = new long[old.length * 2];
                seenCount = 0;
                for (long v : old) {
                    if (v != 0) {
                        firstSight(v);
                    }
                }
            }
            return true;
        }

        NcclLog.SystemDump close(boolean complete, Map<Long, String> names) {
            Map<String, Integer> byBw = new TreeMap<>();
            for (int i = 0; i < pciKinds; i++) {
                byBw.merge(names.getOrDefault(pciBw[i], "?"), pciCount[i], Integer::sum);
            }
            List<String> net = new ArrayList<>();
            for (int i = 0; i < netKinds; i++) {
                net.add(names.getOrDefault(netBw[i], "?"));
            }
            return new NcclLog.SystemDump(maxBw, totalBw, nodes[0], nodes[1], nodes[2], nodes[3], List.copyOf(net), nvlinks, nodes[4],
                    Collections.unmodifiableMap(byBw), c2c, complete);
        }
    }

    /** The text of each bandwidth hash seen. */
    private final Map<Long, String> bandwidths = new HashMap<>();
    /** The last few bandwidth hashes named, to skip the map (a dump has three or four). */
    private final long[] named = new long[8];
    private int namedNext;

    /** Whether the bandwidth hash has its text already (false: call {@link #name}). */
    boolean named(long bw) {
        for (long n : named) {
            if (n == bw) {
                return true;
            }
        }
        if (bandwidths.containsKey(bw)) {
            named[namedNext++ & 7] = bw;
            return true;
        }
        return false;
    }

    void name(long bw, String text) {
        bandwidths.put(bw, text);
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

    /** A link line of a process's dump, as numbers (the bandwidth already {@link #named}). */
    void link(String process, int link, long bw, int node, long id) {
        Open o = process.equals(lastKey) ? lastOpen : open.get(process);
        lastKey = process;
        lastOpen = o;
        if (o != null) {
            o.add(link, bw, node, id);
        } else {
            orphan(process, new Line(Type.LINK, LINKS.get(Math.max(0, link)), "", "", "", link, node, id, bw));
        }
    }

    /** A line of a process's dump read from a string. */
    void add(String process, Line l) {
        if (l.type() == Type.LINK) {
            if (!named(l.bw())) {
                name(l.bw(), l.b());
            }
            link(process, l.link(), l.bw(), l.node(), l.id());
            return;
        }
        lastKey = null;
        if (l.type() == Type.START) {
            started.add(process);
            Open was = open.put(process, new Open(l.a(), l.b()));
            if (was != null) {
                keep(was.close(false, bandwidths));
            }
            return;
        }
        Open o = open.get(process);
        if (o == null) {
            orphan(process, l);
        } else if (l.type() == Type.END) {
            keep(open.remove(process).close(true, bandwidths));
        } else {
            o.add(-1, 0, l.node(), l.id());
        }
    }

    private void orphan(String process, Line l) {
        if (!started.contains(process) && orphanLines < ORPHANS_MAX) {
            List<Line> before = orphans.computeIfAbsent(process, k -> new ArrayList<>());
            if (before.isEmpty() || before.get(before.size() - 1).type() != Type.END) {
                before.add(l);
                orphanLines++;
            }
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
        bandwidths.putAll(o.bandwidths);
        for (Map.Entry<String, Open> e : new ArrayList<>(open.entrySet())) {
            for (Line l : o.orphans.getOrDefault(e.getKey(), List.of())) {
                Open target = open.get(e.getKey());
                if (target == null) {
                    break;
                }
                if (l.type() == Type.END) {
                    keep(open.remove(e.getKey()).close(true, bandwidths));
                } else {
                    target.add(l.link(), l.bw(), l.node(), l.id());
                }
            }
            if (open.containsKey(e.getKey()) && o.started.contains(e.getKey())) {
                keep(open.remove(e.getKey()).close(false, bandwidths));
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
        new ArrayList<>(open.values()).forEach(o -> keep(o.close(false, bandwidths)));
        open.clear();
        List<NcclLog.SystemDump> out = new ArrayList<>(distinct.keySet());
        out.sort(Comparator.comparing(NcclLog.SystemDump::toString));
        return out;
    }
}
