package io.nccldoctor.collectives.parse;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * NCCL's INFO messages told apart by their first words (the text after "NCCL INFO "), the one table both halves of the
 * parser use: the kinds it reads (version, network, GDR, environment, communicators, topology dump, channels) and
 * those that carry nothing it reads (rings, trees, affinity, timings, proxy chatter), which are counted and passed
 * over without becoming strings. Read from NCCL's own format strings (src/init.cc, graph/*.cc, transport/*.cc,
 * plugin/*.cc of 2.12 to 2.30). The same table recognises a message pasted without NCCL's prefix at all
 * ("Channel 00/02 : 0 1", "NET/IB : Using [0]mlx5_0:1/RoCE"), by stricter shapes, in {@link #bare}.
 */
final class MessageKinds {

    private MessageKinds() {
    }

    enum Kind {
        /** Nothing the parser reads: counted only. */
        SKIP,
        /** "Channel …" and the older "Ring …": a connection, read by the channel path. */
        CHANNEL,
        VERSION,
        /** "cudaDriverVersion 12080". */
        DRIVER,
        /** "NCCL git version master 3619159": the branch and commit the library was built from. */
        GIT_VERSION,
        /** "NET/…", "Using network …", plugin loading and failures, IB verbs missing. */
        NETWORK,
        /** "GPU Direct RDMA Disabled for GPU …": a decision with its distance. */
        GDR,
        /** "NCCL_… set by environment to …". */
        ENV,
        /** "comm 0x… rank … nRanks … nNodes …" and the older "comm 0x… - Init COMPLETE". */
        COMM,
        /** "ncclCommInitRank… comm 0x… - Init START|COMPLETE". */
        INIT,
        /** A line of the "=== System : maxBw … ===" dump. */
        TOPO,
        /** NCCL 2.3's and 2.4's GPU-to-NIC path types: "CUDA Dev 0[0], IB NIC distance :  PIX". */
        NIC_DISTANCE,
        /** "MNNVL busId 0x… fabric UUID … cliqueId 0x… state 3 healthMask 0x…": a GPU's multi-node NVLink fabric ({@link MnnvlFabric}). */
        MNNVL,
        /** No kind in the table: read by the general path. */
        OTHER
    }

    private record Entry(String prefix, Kind kind) {
    }

    /** The table: a message starting with the prefix is of the kind. Longer prefixes of a shared start come first. */
    private static final List<Entry> ENTRIES = List.of(
            new Entry("Channel ", Kind.CHANNEL), new Entry("Ring ", Kind.CHANNEL),
            new Entry("NCCL version ", Kind.VERSION), new Entry("NCCL git version ", Kind.GIT_VERSION), new Entry("RCCL version ", Kind.VERSION), new Entry("cudaDriverVersion ", Kind.DRIVER),
            new Entry("GPU Direct RDMA ", Kind.GDR), new Entry("GPU/", Kind.SKIP),
            new Entry("NET/", Kind.NETWORK), new Entry("NET : Using interface", Kind.NETWORK), // 2.3: "NET : Using interface ib0:…"
            new Entry("Using network ", Kind.NETWORK), new Entry("Using non-device", Kind.SKIP),
            new Entry("Plugin Path", Kind.NETWORK), new Entry("P2P plugin", Kind.NETWORK), new Entry("P2P Chunksize", Kind.SKIP),
            new Entry("P2P is disabled", Kind.SKIP),
            new Entry("Initialized NET plugin", Kind.NETWORK), new Entry("Failed to initialize NET plugin", Kind.NETWORK),
            new Entry("Failed to open libibverbs", Kind.NETWORK), new Entry("Failed to find nccl", Kind.NETWORK),
            new Entry("Assigned NET plugin", Kind.NETWORK), new Entry("Disabling external plugins", Kind.NETWORK),
            new Entry("Successfully loaded external plugin", Kind.NETWORK), new Entry("Loaded net plugin", Kind.NETWORK),
            // 2.28 and later name the kind (src/plugin/net.cc, gin.cc, tuner.cc, profiler.cc, env.cc): "%s" is the library
            new Entry("Successfully loaded external network plugin", Kind.NETWORK),
            new Entry("Successfully loaded external gin plugin", Kind.NETWORK),
            new Entry("Successfully loaded external tuner plugin", Kind.SKIP), new Entry("Successfully loaded external profiler plugin", Kind.SKIP),
            new Entry("Successfully loaded external env plugin", Kind.SKIP),
            // the GPU-initiated (GIN) and RMA plugins a communicator was given, 2.29 (net.cc, then gin.cc: "Assigned %s plugin %s to comm")
            new Entry("Assigned GIN plugin", Kind.NETWORK), new Entry("Assigned RMA plugin", Kind.NETWORK),
            new Entry("Loaded collnet plugin", Kind.NETWORK), new Entry("Loaded coll plugin", Kind.NETWORK),
            new Entry("NCCL_", Kind.ENV), new Entry("comm 0x", Kind.COMM), new Entry("ncclComm", Kind.INIT),
            new Entry("[Rank ", Kind.INIT), // 2.29: "[Rank 0] ncclCommInitRankConfig comm 0x… - Init START"
            new Entry("CUDA Dev ", Kind.NIC_DISTANCE),
            new Entry("=== System", Kind.TOPO), new Entry("=====", Kind.TOPO), new Entry("CPU/", Kind.TOPO), new Entry("+ ", Kind.TOPO),
            new Entry("Trees", Kind.SKIP), new Entry("Tree ", Kind.SKIP), new Entry("Connected ", Kind.SKIP),
            new Entry("threadThresholds", Kind.SKIP), new Entry("CC ", Kind.SKIP), new Entry("TUNER/Plugin", Kind.SKIP),
            new Entry("PROFILER/Plugin", Kind.SKIP), new Entry("ENV/Plugin", Kind.SKIP), new Entry("GIN/Plugin", Kind.SKIP),
            new Entry("RMA/Plugin", Kind.SKIP),
            new Entry("Init timings", Kind.SKIP), new Entry("Bootstrap", Kind.SKIP), new Entry("RAS ", Kind.SKIP),
            new Entry("NVLS", Kind.SKIP), new Entry("Setting affinity", Kind.SKIP), new Entry("Pattern ", Kind.SKIP),
            new Entry("DMA-BUF is available", Kind.SKIP), new Entry("Comm config", Kind.SKIP),
            new Entry("MNNVL busId ", Kind.MNNVL), new Entry("MNNVL", Kind.SKIP),
            new Entry("Allocated ", Kind.SKIP), new Entry("New proxy", Kind.SKIP), new Entry("Enabled NCCL Func", Kind.SKIP),
            new Entry("Paths from", Kind.SKIP), new Entry("Could not find a path", Kind.SKIP), new Entry("Mem Realloc", Kind.SKIP),
            new Entry("proxyProgressAsync", Kind.SKIP), new Entry("ncclPollProxyResponse", Kind.SKIP), new Entry("resp.opId", Kind.SKIP),
            new Entry("Received and initiated", Kind.SKIP), new Entry("sendConnect", Kind.SKIP), new Entry("recvConnect", Kind.SKIP),
            new Entry("Queuing opId", Kind.SKIP), new Entry("ProxyCall", Kind.SKIP), new Entry("Proxy rank", Kind.SKIP),
            new Entry("Launch mode", Kind.SKIP), new Entry("Search ", Kind.SKIP), new Entry("Loading ", Kind.SKIP),
            new Entry("Disabling LL128", Kind.SKIP), new Entry("PXN Disabled", Kind.SKIP));

    /** The entries' prefixes as bytes, and per first byte the indices of the entries that start with it. */
    static final byte[][] PREFIX;
    static final Kind[] KIND;
    static final int[][] BY_FIRST = new int[256][];

    /*
     * The same entries for the block scanner, grouped by a hash of their first two bytes (every prefix has at least two)
     * and kept in table order within a group: BUCKET_START[h] to BUCKET_START[h + 1] index the flat arrays, which hold each
     * entry's first word and the mask of its bytes in that word, its further words and masks (null when it has none), and
     * its kind. A message is compared with the few entries of its group, a word at a time.
     */
    static final int BUCKETS = 256;
    static final int[] BUCKET_START = new int[BUCKETS + 1];
    static final long[] FIRST_WORD;
    static final long[] FIRST_MASK;
    static final long[][] MORE_WORDS;
    static final long[][] MORE_MASKS;
    static final Kind[] BUCKET_KIND;

    /** The group of a message whose first eight bytes are {@code w} (little-endian): a hash of its first two bytes. */
    static int bucket(long w) {
        return (int) (((w & 0xFFFF) * 0x9E3779B97F4A7C15L) >>> 56);
    }

    static {
        int n = ENTRIES.size();
        PREFIX = new byte[n][];
        KIND = new Kind[n];
        List<List<Integer>> first = new ArrayList<>();
        for (int b = 0; b < 256; b++) {
            first.add(new ArrayList<>());
        }
        List<List<Integer>> groups = new ArrayList<>();
        for (int b = 0; b < BUCKETS; b++) {
            groups.add(new ArrayList<>());
        }
        long[][] words = new long[n][];
        long[][] masks = new long[n][];
        for (int i = 0; i < n; i++) {
            PREFIX[i] = ENTRIES.get(i).prefix().getBytes(StandardCharsets.ISO_8859_1);
            KIND[i] = ENTRIES.get(i).kind();
            first.get(PREFIX[i][0] & 0xFF).add(i);
            words[i] = new long[(PREFIX[i].length + 7) >>> 3];
            masks[i] = new long[words[i].length];
            for (int k = 0; k < PREFIX[i].length; k++) {
                words[i][k >>> 3] |= (PREFIX[i][k] & 0xFFL) << ((k & 7) << 3);
                masks[i][k >>> 3] |= 0xFFL << ((k & 7) << 3);
            }
            if (PREFIX[i].length < 2) {
                throw new IllegalStateException("a message prefix needs two bytes: " + ENTRIES.get(i).prefix());
            }
            groups.get(bucket(words[i][0])).add(i);
        }
        for (int b = 0; b < 256; b++) {
            List<Integer> of = first.get(b);
            BY_FIRST[b] = new int[of.size()];
            for (int k = 0; k < of.size(); k++) {
                BY_FIRST[b][k] = of.get(k);
            }
        }
        FIRST_WORD = new long[n];
        FIRST_MASK = new long[n];
        MORE_WORDS = new long[n][];
        MORE_MASKS = new long[n][];
        BUCKET_KIND = new Kind[n];
        int at = 0;
        for (int b = 0; b < BUCKETS; b++) {
            BUCKET_START[b] = at;
            for (int i : groups.get(b)) {
                FIRST_WORD[at] = words[i][0];
                FIRST_MASK[at] = masks[i][0];
                if (words[i].length > 1) {
                    MORE_WORDS[at] = Arrays.copyOfRange(words[i], 1, words[i].length);
                    MORE_MASKS[at] = Arrays.copyOfRange(masks[i], 1, masks[i].length);
                }
                BUCKET_KIND[at++] = KIND[i];
            }
        }
        BUCKET_START[BUCKETS] = at;
    }

    /**
     * The kind of the message that starts at {@code msg}, in this order: a table entry; after leading spaces a dump line
     * ("+ PCI[24.0] - GPU/…"); a per-operation line ("AllReduce: opCount …": its first ':' within 48 characters starts
     * ": opCount"), counted only; after leading spaces a search line ("  0 : NET/0 GPU/…"); a line that starts with
     * digits, a search line ("1 : NET/…") or the channel count ("32 coll channels, …"); a source location
     * ("misc/socket.cc:567 -> 2", "channel.cc:55 Cuda Alloc …"). {@link BlockScanner} decides the same from bytes.
     */
    static Kind of(String line, int msg) {
        int n = line.length();
        if (msg >= n) {
            return Kind.OTHER;
        }
        int c = line.charAt(msg);
        if (c < 256) {
            for (int i : BY_FIRST[c]) {
                if (startsWith(line, msg, PREFIX[i])) {
                    return KIND[i];
                }
            }
        }
        int p = msg;
        while (c == ' ' && p < n && line.charAt(p) == ' ') {
            p++;
        }
        if (c == ' ' && p + 1 < n && line.charAt(p) == '+' && line.charAt(p + 1) == ' ') {
            return Kind.TOPO;
        }
        if (perOperation(line, msg)) {
            return Kind.SKIP;
        }
        if (c == ' ') {
            return p < n && digit(line.charAt(p)) && searchLine(line, p) ? Kind.SKIP : Kind.OTHER;
        }
        if (digit(c)) {
            return searchLine(line, msg) || startsWith(line, digitsEnd(line, msg), COLL_CHANNELS) ? Kind.SKIP : Kind.OTHER;
        }
        return sourceLocation(line, msg) ? Kind.SKIP : Kind.OTHER;
    }

    /** "AllReduce: opCount 1f sendbuff …" (enqueue.cc): the message's first ':' within 48 characters starts ": opCount". */
    static boolean perOperation(String line, int msg) {
        int colon = line.indexOf(':', msg);
        return colon >= 0 && colon < msg + 48 && line.startsWith(": opCount", colon);
    }

    static final byte[] COLL_CHANNELS = " coll channels".getBytes(StandardCharsets.ISO_8859_1);
    static final byte[] SPACE_COLON_SPACE = " : ".getBytes(StandardCharsets.ISO_8859_1);

    /** "12 : NET/0 GPU/…": the digits at {@code p} followed by " : ". */
    private static boolean searchLine(String line, int p) {
        return startsWith(line, digitsEnd(line, p), SPACE_COLON_SPACE);
    }

    private static int digitsEnd(String line, int p) {
        while (p < line.length() && digit(line.charAt(p))) {
            p++;
        }
        return p;
    }

    /**
     * "transport/net.cc:1134 -> 6" or "channel.cc:41 Cuda Alloc Size …": a first word that holds a '.' and ends in ':'
     * and a digit, the ':' the first within 48 characters (the block scanner finds it with the per-operation check).
     */
    static boolean sourceLocation(String line, int msg) {
        int colon = line.indexOf(':', msg);
        if (colon <= msg || colon >= msg + 48 || colon + 1 >= line.length() || !digit(line.charAt(colon + 1))) {
            return false;
        }
        boolean dot = false;
        for (int p = msg; p < colon; p++) {
            char c = line.charAt(p);
            if (c <= ' ') {
                return false;
            }
            dot |= c == '.';
        }
        return dot;
    }

    static boolean digit(int c) {
        return c >= '0' && c <= '9';
    }

    private static boolean startsWith(String line, int at, byte[] prefix) {
        if (at + prefix.length > line.length()) {
            return false;
        }
        for (int k = 0; k < prefix.length; k++) {
            if (line.charAt(at + k) != prefix[k]) {
                return false;
            }
        }
        return true;
    }

    /**
     * The patterns of a log pasted without NCCL's prefix, compiled on first use: a log with the prefix (nearly every
     * log) never needs them, and compiling them took 10 to 20 ms of every parse's start.
     */
    private static final class Bare {

        /**
         * Messages recognised without NCCL's prefix (pasted from a blog post or a report with "host:pid:tid [dev] NCCL INFO"
         * cut off): NCCL's own wording, strict enough that prose does not pass for it. Lines of the topology dump are
         * recognised only after its "=== System" line, by the caller.
         */
        static final Pattern BARE = Pattern.compile(String.join("|",
                "Channel \\d\\d(?:/\\d+)? : ", "Ring \\d\\d : ", "NCCL version \\d+\\.\\d+", "RCCL version (?:: )?\\d+\\.\\d+", "cudaDriverVersion \\d",
                "CUDA Dev \\d+(?:\\[\\d+\\])?, [\\w ]+ (?:NIC distance|Ports) : ",
                "GPU Direct RDMA (?:Enabled|Disabled) for ", "NET/\\w+(?: \\w+)* ?: ?\\S", "NET/OFI ", "NET : Using interface \\S", "Using network \\S",
                "Using non-device net plugin", "Plugin Path : ", "P2P plugin \\S", "(?:Initialized|Failed to initialize) NET plugin ", "Assigned (?:NET|GIN|RMA) plugin ",
                "Failed to open libibverbs", "Failed to find nccl(?:Coll)?NetPlugin", "Loaded (?:net|collnet|coll) plugin ",
                "Successfully loaded external (?:network |gin )?plugin", "Disabling external plugins", "NCCL_\\w+ set (?:by environment )?to ",
                "comm 0x\\p{XDigit}+ rank \\d+ n[Rr]anks \\d+", "(?:\\[Rank \\d+\\] )?ncclComm\\w* comm 0x\\p{XDigit}+ rank \\d+", "=== System : max",
                "Trees \\[\\d+\\] ", "Tree \\d+ : ", "Connected all (?:rings|trees)", "P2P Chunksize set to \\d", "threadThresholds \\d",
                "Setting affinity for GPU \\d", "Pattern \\d+, crossNic \\d", "Bootstrap ?: Using ", "Init timings - ", "TUNER/Plugin: ",
                "CC O(?:ff|n), workFifoBytes", "\\d+ coll channels, ", "Comm config ", "DMA-BUF is available on GPU device"));

        /** A line of the topology dump pasted without NCCL's prefix, once its "=== System" line was seen: -1 if not one. */
        static final Pattern BARE_DUMP = Pattern.compile("\\s*(?:\\+ \\w+\\[[\\d.]+\\] - \\w+/|CPU/\\S+ \\(|==========)");
    }

    /** Where the NCCL message starts in a line pasted without NCCL's prefix (after leading blanks), or -1. */
    static int bare(String line) {
        int p = 0;
        while (p < line.length() && (line.charAt(p) == ' ' || line.charAt(p) == '\t')) {
            p++;
        }
        return Bare.BARE.matcher(line).region(p, line.length()).lookingAt() ? p : -1;
    }

    static int bareDumpLine(String line) {
        return Bare.BARE_DUMP.matcher(line).lookingAt() ? 0 : -1;
    }
}
