package io.nccldoctor.collectives.parse;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The processes of a log, by NCCL's line prefix ("node01:4242" from "node01:4242:4300 [0] NCCL INFO …"), each with what
 * the processes of one job should agree on. Consecutive lines mostly share a prefix, so the last one is remembered,
 * as a string and as words.
 */
final class Processes {

    /** What one process logged. */
    static final class Facts {
        final String key;
        final Set<String> versions = new LinkedHashSet<>();
        final Set<String> networks = new LinkedHashSet<>();
        final Set<String> netTransports = new TreeSet<>();
        final Set<String> busIds = new LinkedHashSet<>();
        /** Network transports of channel lines read from bytes: indices into the scanner's channelTransports. */
        final BitSet netKeys = new BitSet();

        Facts(String key) {
            this.key = key;
        }

        void addAll(Facts o) {
            // most sets are empty or hold one value, and this runs for every process of a large log once, mostly before
            // the JIT: no call for an empty one
            if (!o.versions.isEmpty()) {
                versions.addAll(o.versions);
            }
            if (!o.networks.isEmpty()) {
                networks.addAll(o.networks);
            }
            if (!o.netTransports.isEmpty()) {
                netTransports.addAll(o.netTransports);
            }
            if (!o.busIds.isEmpty()) {
                busIds.addAll(o.busIds);
            }
        }

        NcclLog.Process build() {
            return new NcclLog.Process(Collections.unmodifiableSet(versions), Collections.unmodifiableSet(networks),
                    Collections.unmodifiableSet(netTransports), Collections.unmodifiableSet(busIds));
        }
    }

    private final Map<String, Facts> byKey = new LinkedHashMap<>();
    /** Lines arrive as Latin-1 views of UTF-8 from a file. */
    private final boolean latin1;

    Processes(boolean latin1) {
        this.latin1 = latin1;
    }

    private String text(String s) {
        return latin1 ? new String(s.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8) : s;
    }

    /** The text before "NCCL " of the last line looked up, its process and its thread. */
    private String lastLinePrefix = "";
    private Optional<Facts> lastLineProcess = Optional.empty();
    private String lastLineThread = "";

    /** The process of a line whose first "NCCL " is at {@code nccl}; empty without NCCL's host:pid:tid prefix (or nccl -1). */
    Optional<Facts> of(String line, int nccl) {
        if (nccl < 0) {
            return Optional.empty();
        }
        if (nccl != lastLinePrefix.length() || !line.startsWith(lastLinePrefix)) {
            lastLinePrefix = line.substring(0, nccl);
            lastLineProcess = Optional.ofNullable(facts(LogMessages.process(line, nccl)));
            lastLineThread = thread(LogMessages.thread(line, nccl));
        }
        return lastLineProcess;
    }

    /** The thread ("host:pid:tid") of the line {@link #of(String, int)} looked up last; "" without NCCL's prefix. */
    String lineThread() {
        return lastLineThread;
    }

    /** The thread of the line {@link #at} looked up last; "" without NCCL's prefix. */
    String thread() {
        return lastThread;
    }

    /**
     * The prefix of the last line read from bytes (as little-endian words, the last one zero-padded), and its process:
     * comparing a few words costs less than reading it again. Other prefixes seen are found by their words in a table
     * (open addressing, at most {@link #PREFIXES_MAX}), so that interleaved processes are read once each. The table
     * starts small and doubles as it fills: at its full size its arrays are 0.8 MB, which a log of a few processes would
     * allocate, and touch, for nothing (3 to 4 ms of every range's start).
     */
    private long[] lastPrefix = new long[0];
    private int lastPrefixLength = -1;
    private Facts lastProcess;
    private String lastThread = "";
    private static final int PREFIX_SLOTS = 1 << 15;
    private static final int PREFIXES_MAX = PREFIX_SLOTS / 4 * 3;
    private static final int FIRST_SLOTS = 1 << 8;
    private long[][] prefixWords = new long[FIRST_SLOTS][];
    private long[] prefixHash = new long[FIRST_SLOTS];
    private int[] prefixLength = new int[FIRST_SLOTS];
    private Facts[] prefixProcess = new Facts[FIRST_SLOTS];
    private String[] prefixThread = new String[FIRST_SLOTS];
    private int prefixes;
    /** The words of the prefix being looked up (a copy is kept only for a new one). */
    private long[] scratch = new long[8];

    Optional<Facts> of(ByteBuffer buf, int start, int nccl, LogBuilder scanner) {
        return Optional.ofNullable(at(buf, start, nccl, scanner));
    }

    /**
     * The same, null without the prefix: no Optional for the lines read from bytes. The prefix's words are read here with
     * {@link ByteWords#bytesAt}, which the first JIT tier inlines into this method (not into a helper it has inlined):
     * compared with the last line's first, then looked up by their hash, compared in place.
     */
    Facts at(ByteBuffer buf, int start, int nccl, LogBuilder scanner) {
        int n = nccl - start;
        int count = (n + 7) >>> 3;
        long tail = (n & 7) == 0 ? -1L : (1L << ((n & 7) << 3)) - 1; // the bytes of the last word that are the prefix's
        if (n == lastPrefixLength) {
            long[] last = lastPrefix;
            int i = 0;
            while (i < count && (scanner.bytesAt(start + (i << 3)) & (i == count - 1 ? tail : -1L)) == last[i]) {
                i++;
            }
            if (i == count) {
                return lastProcess;
            }
        }
        if (scratch.length < count) {
            scratch = new long[count * 2];
        }
        long[] mine = scratch;
        long h = n;
        for (int i = 0; i < count; i++) {
            long w = scanner.bytesAt(start + (i << 3)) & (i == count - 1 ? tail : -1L);
            mine[i] = w;
            h = (h ^ w) * 0x9E3779B97F4A7C15L;
            h ^= h >>> 29;
        }
        long[] words = null;
        int mask = prefixWords.length - 1;
        int i = (int) h & mask;
        for (; prefixWords[i] != null; i = (i + 1) & mask) {
            if (prefixHash[i] == h && prefixLength[i] == n && same(prefixWords[i], mine, count)) {
                words = prefixWords[i];
                break;
            }
        }
        if (words != null) {
            lastPrefix = words;
            lastPrefixLength = n;
            lastProcess = prefixProcess[i];
            lastThread = prefixThread[i];
            return lastProcess;
        }
        words = Arrays.copyOf(scratch, count);
        lastPrefix = words;
        lastPrefixLength = n;
        byte[] bytes = new byte[n];
        buf.get(start, bytes);
        String prefix = new String(bytes, StandardCharsets.ISO_8859_1);
        lastProcess = facts(LogMessages.process(prefix, n));
        lastThread = thread(LogMessages.thread(prefix, n));
        if (prefixes < PREFIXES_MAX) {
            if (prefixes >= prefixWords.length / 4 * 3) {
                grow();
                for (i = (int) h & (prefixWords.length - 1); prefixWords[i] != null; i = (i + 1) & (prefixWords.length - 1)) {
                    // the first free slot of the larger table
                }
            }
            prefixWords[i] = words;
            prefixHash[i] = h;
            prefixLength[i] = n;
            prefixProcess[i] = lastProcess;
            prefixThread[i] = lastThread;
            prefixes++;
        }
        return lastProcess;
    }

    // The two below without a lambda: both range threads meet their first line at once, and a lambda linked by two
    // threads together is taken from the class-data archive by one of them only; the other generates its class.

    /** The facts of the process a line's prefix names, or null when it names none. */
    private Facts facts(Optional<String> process) {
        if (process.isEmpty()) {
            return null;
        }
        String key = text(process.get());
        Facts facts = byKey.get(key);
        if (facts == null) {
            facts = new Facts(key);
            byKey.put(key, facts);
        }
        return facts;
    }

    private String thread(Optional<String> thread) {
        return thread.isEmpty() ? "" : text(thread.get());
    }

    /** The prefix table at twice its size, each entry placed again by its hash. */
    private void grow() {
        long[][] words = prefixWords;
        long[] hash = prefixHash;
        int[] length = prefixLength;
        Facts[] process = prefixProcess;
        String[] thread = prefixThread;
        int slots = words.length * 2;
        prefixWords = new long[slots][];
        prefixHash = new long[slots];
        prefixLength = new int[slots];
        prefixProcess = new Facts[slots];
        prefixThread = new String[slots];
        for (int k = 0; k < words.length; k++) {
            if (words[k] != null) {
                int i = (int) hash[k] & (slots - 1);
                while (prefixWords[i] != null) {
                    i = (i + 1) & (slots - 1);
                }
                prefixWords[i] = words[k];
                prefixHash[i] = hash[k];
                prefixLength[i] = length[k];
                prefixProcess[i] = process[k];
                prefixThread[i] = thread[k];
            }
        }
    }

    private static boolean same(long[] a, long[] b, int count) {
        for (int i = 0; i < count; i++) {
            if (a[i] != b[i]) {
                return false;
            }
        }
        return true;
    }

    /** Moves the network transports counted from bytes into each process's set. */
    void foldNetKeys(TransportCounts transports) {
        String[] names = new String[transports.size()]; // each name made once, not once per process that used it
        for (Facts p : byKey.values()) {
            for (int k = p.netKeys.nextSetBit(0); k >= 0; k = p.netKeys.nextSetBit(k + 1)) {
                if (names[k] == null) {
                    names[k] = transports.name(k);
                }
                p.netTransports.add(names[k]);
            }
            p.netKeys.clear();
        }
    }

    // The three below run once per process of the log after its scan (thousands in a job's log), mostly before the JIT
    // has compiled them: plain loops, no lambda per process.

    void absorb(Processes o) {
        for (Facts p : o.byKey.values()) {
            Facts mine = byKey.get(p.key);
            if (mine == null) {
                mine = new Facts(p.key);
                byKey.put(p.key, mine);
            }
            mine.addAll(p);
        }
    }

    Map<String, NcclLog.Process> build() {
        Map<String, NcclLog.Process> out = new LinkedHashMap<>();
        for (Facts p : byKey.values()) {
            out.put(p.key, p.build());
        }
        return out;
    }

    Map<String, Agreement.Facts> facts() {
        Map<String, Agreement.Facts> out = new LinkedHashMap<>();
        for (Facts p : byKey.values()) {
            out.put(p.key, Agreement.Facts.of(p.versions, p.networks, p.netTransports));
        }
        return out;
    }
}
