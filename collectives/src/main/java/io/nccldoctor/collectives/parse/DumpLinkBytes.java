package io.nccldoctor.collectives.parse;

/**
 * A dump link line ("+ PCI[48.0] - GPU/0-68000 (8)") read from a block's bytes into the numbers {@link SystemDumps}
 * counts: the link and node types as codes, the bandwidth and node id as keys of their bytes ({@link SystemDumps#key}).
 * Accepts exactly the lines {@link SystemDumps#link(String)} accepts (past the indentation, which the caller skipped),
 * and gives the same numbers. NCCL's own lines are read from a few words: a three-letter link type before '[', a
 * bandwidth of at most seven characters before ']', a three-letter node type before '/', an id of at most seven
 * characters before a blank; any other line byte by byte.
 */
final class DumpLinkBytes {

    int link;
    /** For a link of another type ({@link SystemDumps#OTHER_LINK}): its type's key and where its text is. */
    long typeKey;
    int typeFrom;
    int typeTo;
    long bw;
    int bwFrom;
    int bwTo;
    int node;
    long id;

    private static final int PCI = code("PCI");
    private static final int NVL = code("NVL");
    private static final int C2C = code("C2C");
    private static final int NET = code("NET");
    private static final int SYS = code("SYS");
    private static final int LOC = code("LOC");
    private static final int CPU = code("CPU");
    private static final int GPU = code("GPU");
    private static final int NIC = code("NIC");
    private static final int NVS = code("NVS");

    private static int code(String three) {
        return three.charAt(0) | three.charAt(1) << 8 | three.charAt(2) << 16;
    }

    /** ']' and '/' in every byte. */
    private static final long CLOSES = 0x5D5D5D5D5D5D5D5DL;
    private static final long BLANKS = 0x2121212121212121L;

    /**
     * The texts read last, by their words, and what they gave (positions from the text's start): a process prints the
     * same dump as the other processes of its node, and the nodes of a job are mostly alike, so most link lines are a
     * text read before, and comparing its words costs half of reading it (19 against 38 ns a line at 2.1 GHz, first JIT
     * tier, five of NCCL's link lines in turn). Direct-mapped, {@link #SEEN} slots; a text of more than 64 bytes is always
     * read. Each slot's arrays are made once and written over, so that texts that never come again (a GPU's rank, a
     * NIC's GUID) allocate nothing: with two arrays per text read, a gigabyte's `init` parse peaked at 115 to 117 MB
     * resident instead of 96 to 103 MB.
     */
    private static final int SEEN = 256;
    /** Per slot: the text's length (0: free), then its words. */
    private final long[][] seenWords = new long[SEEN][9];
    /** Per slot: link, typeKey, typeFrom, typeTo, bw, bwFrom, bwTo (positions from the text's start), node, id. */
    private final long[][] seenNumbers = new long[SEEN][9];
    private final long[] scratch = new long[8];

    /** {@code \+ (\w+)\[([\d.]+)\] - (\w+)/(\S+)} at {@code p}, within [p, end); false when the line is not one. */
    boolean read(ByteWords b, int p, int end) {
        int n = end - p;
        if (n <= 0 || n > 64) {
            return parse(b, p, end);
        }
        int count = (n + 7) >>> 3;
        long[] words = scratch;
        long h = n;
        for (int i = 0; i < count; i++) {
            long w = b.textWord(p + (i << 3), end);
            words[i] = w;
            h = (h ^ w) * SystemDumps.KEY_MIX;
            h ^= h >>> 29;
        }
        int slot = (int) h & (SEEN - 1);
        long[] seen = seenWords[slot];
        if (seen[0] == n && same(seen, words, count)) {
            long[] v = seenNumbers[slot];
            link = (int) v[0];
            typeKey = v[1];
            typeFrom = p + (int) v[2];
            typeTo = p + (int) v[3];
            bw = v[4];
            bwFrom = p + (int) v[5];
            bwTo = p + (int) v[6];
            node = (int) v[7];
            id = v[8];
            return true;
        }
        if (!parse(b, p, end)) {
            return false;
        }
        seen[0] = n;
        System.arraycopy(words, 0, seen, 1, count);
        long[] v = seenNumbers[slot];
        v[0] = link;
        v[1] = typeKey;
        v[2] = typeFrom - p;
        v[3] = typeTo - p;
        v[4] = bw;
        v[5] = bwFrom - p;
        v[6] = bwTo - p;
        v[7] = node;
        v[8] = id;
        return true;
    }

    /** The key's words (from index 1) against {@code words}. */
    private static boolean same(long[] key, long[] words, int count) {
        for (int i = 0; i < count; i++) {
            if (key[i + 1] != words[i]) {
                return false;
            }
        }
        return true;
    }

    private boolean parse(ByteWords b, int p, int end) {
        if (p + 2 > end || b.byteAt(p) != '+' || b.byteAt(p + 1) != ' ') {
            return false;
        }
        int type = p + 2;
        long w = b.bytesAt(type);
        int typeEnd = (byte) (w >>> 24) == '[' && linkCode((int) w & 0xFFFFFF) < SystemDumps.OTHER_LINK ? type + 3 : wordEnd(b, type, end);
        if (typeEnd == type || typeEnd >= end || b.byteAt(typeEnd) != '[') {
            return false;
        }
        bwFrom = typeEnd + 1;
        bwTo = bandwidthEnd(b, bwFrom, end);
        if (bwTo == bwFrom || bwTo + 4 > end || (b.bytesAt(bwTo) & 0xFFFF_FFFFL) != CLOSE_DASH) {
            return false;
        }
        bw = key(b, bwFrom, bwTo);
        int target = bwTo + 4;
        w = b.bytesAt(target);
        int targetEnd = (byte) (w >>> 24) == '/' && nodeCode((int) w & 0xFFFFFF) >= 0 ? target + 3 : wordEnd(b, target, end);
        if (targetEnd == target || targetEnd >= end || b.byteAt(targetEnd) != '/') {
            return false;
        }
        int q = idEnd(b, targetEnd + 1, end);
        if (q == targetEnd + 1) {
            return false;
        }
        id = key(b, targetEnd + 1, q);
        link = typeEnd - type != 3 ? SystemDumps.OTHER_LINK : linkCode(three(b, type));
        if (link == SystemDumps.OTHER_LINK) {
            typeKey = key(b, type, typeEnd); // "XGMI": rare, counted by its name
            typeFrom = type;
            typeTo = typeEnd;
        } else {
            typeKey = 0;
            typeFrom = type;
            typeTo = typeEnd;
        }
        node = targetEnd - target != 3 ? -1 : nodeCode(three(b, target));
        return true;
    }

    /**
     * The end of the digits and '.' at {@code from}: where a ']' comes within the next eight bytes and only digits and
     * '.' are before it, from that word; otherwise byte by byte.
     */
    private static int bandwidthEnd(ByteWords b, int from, int end) {
        long w = b.bytesAt(from);
        long close = ByteWords.zeroBytes(w ^ CLOSES);
        if (close != 0) {
            int k = ByteWords.lowestByte(close);
            int i = 0;
            for (int c = (int) w & 0xFF; i < k && (MessageKinds.digit(c) || c == '.'); c = (int) (w >>> (++i << 3)) & 0xFF) {
                // the bytes before the ']'
            }
            if (i == k) {
                return Math.min(from + k, end);
            }
        }
        int q = from;
        for (int c; q < end && (MessageKinds.digit(c = b.byteAt(q)) || c == '.'); q++) {
            // byte by byte
        }
        return q;
    }

    /**
     * The end of the non-blank bytes at {@code from} (Java's \S): where a byte up to ' ' comes within the next eight
     * bytes (Hacker's Delight 6-1, "has less than": exact for the first such byte) and is a blank, from that word;
     * otherwise byte by byte.
     */
    private static int idEnd(ByteWords b, int from, int end) {
        long w = b.bytesAt(from);
        long low = (w - BLANKS) & ~w & ByteWords.HIGHS;
        if (low != 0) {
            int k = ByteWords.lowestByte(low);
            if (ByteWords.space((int) (w >>> (k << 3)) & 0xFF) && from + k <= end) {
                return from + k;
            }
        }
        int q = from;
        while (q < end && !ByteWords.space(b.byteAt(q))) {
            q++;
        }
        return q;
    }

    /** {@link SystemDumps#key} of the bytes [from, to). */
    static long key(ByteWords b, int from, int to) {
        long h = to - from;
        for (int k = from; k < to; k += 8) {
            h = (h ^ b.textWord(k, to)) * SystemDumps.KEY_MIX;
            h ^= h >>> 29;
        }
        return h;
    }

    /** "] - " as a little-endian int. */
    private static final long CLOSE_DASH = ']' | ' ' << 8 | '-' << 16 | (long) ' ' << 24;

    private static int three(ByteWords b, int at) {
        return (int) (b.bytesAt(at) & 0xFFFFFF);
    }

    private static int linkCode(int t) {
        return t == PCI ? 0 : t == NVL ? 1 : t == C2C ? 2 : t == NET ? 3 : t == SYS ? 4 : t == LOC ? 5 : SystemDumps.OTHER_LINK;
    }

    private static int nodeCode(int t) {
        return t == CPU ? 0 : t == GPU ? 1 : t == NIC ? 2 : t == NET ? 3 : t == NVS ? 4 : -1;
    }

    private static int wordEnd(ByteWords b, int from, int end) {
        int k = from;
        while (k < end && SystemDumps.wordChar(b.byteAt(k))) {
            k++;
        }
        return k;
    }
}
