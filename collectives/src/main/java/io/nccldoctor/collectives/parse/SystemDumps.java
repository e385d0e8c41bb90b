package io.nccldoctor.collectives.parse;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * NCCL's view of the node, as ncclTopoPrint writes it at every init (src/graph/topo.cc; NCCL_DEBUG_SUBSYS includes
 * GRAPH): "=== System : maxBw 48.0 totalBw 370.8 ===", then from each CPU its links, indented by depth ("+ PCI[48.0] -
 * GPU/0-68000 (8)", "+ NVL[370.8] - NVS/0-0", "+ NET[50.0] - NET/0-c (0/d4f9…/1/50.000000)"), closed by a line of '='.
 * Older releases print "maxWidth … totalWidth" and ids without the system part ("GPU/1000"). Each thread's dump is
 * assembled from its own lines (processes, and the threads of a process that initialises several GPUs, interleave in
 * a job's output) and summarised: the GPUs, NICs and NET
 * devices with their bandwidth, the NVLink links, and the PCI links by bandwidth. A PCI link of 0.2 GB/s is what
 * NCCL computes for a x1 link at 2.5 GT/s (width × 15 / 80, topo.cc@v2.27.5-1 L408-477), which a hypervisor's emulated
 * PCIe bridge reports: NCCL then routes and sizes channels for a slow virtual topology.
 *
 * <p>A dump is a fifth of an initialisation's lines, so a link line is reduced to numbers (its link and node types as
 * codes, its bandwidth and node id as 64-bit keys of their text, {@link #key}) that the block scanner computes from bytes
 * ({@link DumpLinkBytes}) and {@link #link(String)} from a string, alike.
 */
final class SystemDumps {

    enum Type { START, END, NODE, LINK }

    /**
     * One dump line: START (max, total), END, NODE (type, id), LINK (link type, GB/s, target type, target id), with the
     * link and node types as codes and the node id and bandwidth hashed.
     */
    record Line(Type type, String a, String b, String c, String d, int link, long typeKey, int node, long id, long bw) {

        Line(Type type, String a, String b, String c, String d) {
            this(type, a, b, c, d, type == Type.LINK ? linkCode(a) : -1, type == Type.LINK && linkCode(a) == OTHER_LINK ? key(a) : 0,
                    NODES.indexOf(type == Type.LINK ? c : a), type == Type.LINK ? key(d) : type == Type.NODE ? key(b) : 0,
                    type == Type.LINK ? key(b) : 0);
        }
    }

    /**
     * NCCL's link types (topoLinkTypeStr in src/graph/topo.cc): the first four counted, SYS (between CPUs) and LOC known
     * and left out of the summary; and its node types counted (topoNodeTypeStr).
     */
    static final List<String> LINKS = List.of("PCI", "NVL", "C2C", "NET", "SYS", "LOC");
    /**
     * The code of a link of any other type ("XGMI" between AMD GPUs in RCCL's dump, a type a later release adds): counted
     * by its name, never dropped.
     */
    static final int OTHER_LINK = LINKS.size();

    static int linkCode(String type) {
        int i = LINKS.indexOf(type);
        return i >= 0 ? i : OTHER_LINK;
    }
    static final List<String> NODES = List.of("CPU", "GPU", "NIC", "NET", "NVS");
    static final long KEY_MIX = 0x9E3779B97F4A7C15L;

    /**
     * A text's key: its length, then its bytes eight at a time (little-endian, the last word zero-padded), each mixed in
     * by a multiply and a shift. The chars of a line read from a file are its bytes (a Latin-1 view); a line decoded as
     * UTF-8 with a char above 0xFF is keyed by its UTF-8 bytes. {@link DumpLinkBytes#key} computes the same from bytes.
     */
    static long key(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) > 0xFF) {
                return key(s.getBytes(StandardCharsets.UTF_8));
            }
        }
        byte[] bytes = new byte[s.length()];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) s.charAt(i);
        }
        return key(bytes);
    }

    private static long key(byte[] bytes) {
        long h = bytes.length;
        for (int k = 0; k < bytes.length; k += 8) {
            long w = 0;
            for (int i = Math.min(bytes.length, k + 8) - 1; i >= k; i--) {
                w = w << 8 | (bytes[i] & 0xFF);
            }
            h = (h ^ w) * KEY_MIX;
            h ^= h >>> 29;
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


    /** The text of each bandwidth hash seen, and of each other link type's ({@link #OTHER_LINK}). */
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

    /**
     * The dump each thread is writing, by its key ("host:pid:tid", "" for lines without NCCL's prefix): a process that
     * initialises several GPUs prints one dump per thread, and their lines interleave.
     */
    private final Map<String, OpenDump> open = new LinkedHashMap<>();
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
    private OpenDump lastOpen;

    /**
     * A link line of a process's dump, as numbers (the bandwidth already {@link #named}, and for a link of another type,
     * {@link #OTHER_LINK}, its type's key too).
     */
    void link(String process, int link, long typeKey, long bw, int node, long id) {
        OpenDump o = process.equals(lastKey) ? lastOpen : open.get(process);
        lastKey = process;
        lastOpen = o;
        if (o != null) {
            o.add(link, typeKey, bw, node, id);
        } else {
            orphan(process, new Line(Type.LINK, "", "", "", "", link, typeKey, node, id, bw));
        }
    }

    /** A line of a process's dump read from a string. */
    void add(String process, Line l) {
        if (l.type() == Type.LINK) {
            if (!named(l.bw())) {
                name(l.bw(), l.b());
            }
            if (l.link() == OTHER_LINK && !named(l.typeKey())) {
                name(l.typeKey(), l.a());
            }
            link(process, l.link(), l.typeKey(), l.bw(), l.node(), l.id());
            return;
        }
        if (l.type() == Type.START) {
            lastKey = null;
            started.add(process);
            OpenDump was = open.put(process, spare.isEmpty() ? new OpenDump(l.a(), l.b()) : spare.pop().reset(l.a(), l.b()));
            if (was != null) {
                close(was, false);
            }
            return;
        }
        OpenDump o = process.equals(lastKey) ? lastOpen : open.get(process);
        lastKey = process;
        lastOpen = o;
        if (o == null) {
            orphan(process, l);
        } else if (l.type() == Type.END) {
            lastKey = null;
            close(open.remove(process), true);
        } else {
            o.add(-1, 0, 0, l.node(), l.id());
        }
    }

    /** Opens closed, to be used again (a job's processes each write a dump per communicator). */
    private final ArrayDeque<OpenDump> spare = new ArrayDeque<>();

    /**
     * Counts a dump as it closes: a dump with the numbers of one seen before counts where that one did, without building
     * its summary again ({@link DumpShapes}).
     */
    private void close(OpenDump o, boolean complete) {
        long[] counter = shapes.counter(o, complete);
        if (counter == null) {
            NcclLog.SystemDump d = o.close(complete, bandwidths);
            counter = distinct.get(d);
            if (counter == null && distinct.size() < DISTINCT) {
                counter = new long[1];
                distinct.put(d, counter);
            }
            shapes.remember(o, complete, counter == null ? DumpShapes.NOT_KEPT : counter, named(o));
        }
        count++;
        if (counter != DumpShapes.NOT_KEPT && counter != null) {
            counter[0]++;
        }
        if (spare.size() < 64) {
            spare.push(o);
        }
    }

    /** Whether every bandwidth of the dump has its text (then its summary depends on its numbers alone). */
    private boolean named(OpenDump o) {
        if (!o.pci.named(bandwidths) || !o.others.named(bandwidths)) {
            return false;
        }
        for (int i = 0; i < o.netKinds; i++) {
            if (!bandwidths.containsKey(o.netBw[i])) {
                return false;
            }
        }
        return true;
    }

    private final DumpShapes shapes = new DumpShapes();

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
        for (Map.Entry<String, OpenDump> e : new ArrayList<>(open.entrySet())) {
            for (Line l : o.orphans.getOrDefault(e.getKey(), List.of())) {
                OpenDump target = open.get(e.getKey());
                if (target == null) {
                    break;
                }
                if (l.type() == Type.END) {
                    keep(open.remove(e.getKey()).close(true, bandwidths));
                } else {
                    target.add(l.link(), l.typeKey(), l.bw(), l.node(), l.id());
                }
            }
            if (open.containsKey(e.getKey()) && o.started.contains(e.getKey())) {
                keep(open.remove(e.getKey()).close(false, bandwidths));
            }
        }
        // loops, not forEach with lambdas: this runs once per parse, before the JIT, and a lambda is linked at its first use
        for (Map.Entry<String, List<Line>> e : o.orphans.entrySet()) { // as one pass would have gone on noting them: up to the dump's END
            if (!started.contains(e.getKey())) {
                List<Line> lines = e.getValue();
                List<Line> before = orphans.get(e.getKey());
                if (before == null) {
                    before = new ArrayList<>();
                    orphans.put(e.getKey(), before);
                }
                for (int i = 0; i < lines.size() && (before.isEmpty() || before.get(before.size() - 1).type() != Type.END); i++) {
                    before.add(lines.get(i));
                }
            }
        }
        started.addAll(o.started);
        open.putAll(o.open);
        count += o.count;
        for (Map.Entry<NcclLog.SystemDump, long[]> e : o.distinct.entrySet()) {
            long[] seen = distinct.get(e.getKey());
            if (seen != null) {
                seen[0] += e.getValue()[0];
            } else if (distinct.size() < DISTINCT) {
                distinct.put(e.getKey(), new long[] {e.getValue()[0]});
            }
        }
    }

    /**
     * The dumps, the unfinished ones (an excerpt, a process that died) closed as incomplete, in a fixed order; the lines
     * of a dump whose "=== System" line the log does not hold (an excerpt that starts inside one) as a headerless dump of
     * their own, complete only when its closing line is there.
     */
    List<NcclLog.SystemDump> finish() {
        lastKey = null;
        for (OpenDump o : new ArrayList<>(open.values())) {
            keep(o.close(false, bandwidths));
        }
        open.clear();
        for (List<Line> lines : orphans.values()) {
            OpenDump part = new OpenDump("", "");
            boolean end = false;
            for (Line l : lines) {
                end |= l.type() == Type.END;
                if (!end) {
                    part.add(l.link(), l.typeKey(), l.bw(), l.node(), l.id());
                }
            }
            if (lines.size() > (end ? 1 : 0)) {
                keep(part.close(end, bandwidths, true));
            }
        }
        orphans.clear();
        List<NcclLog.SystemDump> out = new ArrayList<>(distinct.keySet());
        if (out.size() > 1) { // by their text (Comparator.comparing would generate a lambda at every start: TuningCounts#order)
            out.sort((a, b) -> a.toString().compareTo(b.toString()));
        }
        return out;
    }
}
