package io.nccldoctor.collectives.parse;

/**
 * A communicator's lines read from a block's bytes, in the shapes NCCL prints them (src/init.cc): "ncclCommInitRankConfig
 * comm 0x55cc rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 1c000 commId 0x65e0 - Init START" (with or without 2.29's "[Rank
 * 0] " before it, and the older "comm 0x… rank 0 nranks 16 cudaDev 0 busId 1c000 - Init COMPLETE"), and "comm 0x55cc rank
 * 0 nRanks 16 nNodes 2 localRanks 8 localRank 0 MNNVL 0". Each process prints them once per communicator, and each
 * differs (the communicator's address, the rank), so none is remembered: a job of 4,096 processes prints three for
 * every communicator it creates. The message must be exactly such a line: an optional "[Rank N] " and function name,
 * "comm 0x" and hex digits, then " key value" pairs (a key of letters; a value of decimal digits, or of hex digits after
 * "busId", or "0x" and hex digits after "commId"), ended by " - Init START" or " - Init COMPLETE" or by the line's end.
 * Any other line is left to the string readers ({@link InitMessages#init}, {@link InitMessages#nodes},
 * {@link LogMessages#communicatorSize}), whose results these are on the lines accepted (a test holds them alike).
 */
final class CommunicatorBytes {

    /** The line ends with " - Init START" or " - Init COMPLETE". */
    boolean init;
    boolean complete;
    /** The first "nranks" value (-1: none), the first "busId" after it ([busFrom, busTo), empty: none), the node count (-1: none). */
    int nranks;
    int busFrom;
    int busTo;
    int nodes;
    /** The first "commId" value ({@link InitLog#NO_COMM_ID}: none), which every rank of a communicator prints alike. */
    long commId;

    private static final long COMM_0X = ByteWords.word("comm 0x\0") & 0xFF_FFFF_FFFF_FFFFL;
    private static final long NCCL_COMM = ByteWords.word("ncclComm");
    private static final long RANK = ByteWords.word("[Rank \0\0") & 0xFFFF_FFFF_FFFFL;
    private static final long INIT = ByteWords.word("- Init \0") & 0xFF_FFFF_FFFF_FFFFL;
    private static final long START = ByteWords.word("START\0\0\0") & 0xFF_FFFF_FFFFL;
    private static final long COMPLETE = ByteWords.word("COMPLETE");
    private static final long NRANKS = ByteWords.word("nranks \0") & 0xFF_FFFF_FFFF_FFFFL;
    /** Keys as little-endian words of their bytes. */
    private static final long SIX = 0xFFFF_FFFF_FFFFL;
    private static final long FIVE = 0xFF_FFFF_FFFFL;
    private static final long BUS_ID = ByteWords.word("busId\0\0\0");
    private static final long COMM_ID = ByteWords.word("commId\0\0");
    private static final long NRANKS_KEY = ByteWords.word("nranks\0\0");
    private static final long N_RANKS = ByteWords.word("nRanks\0\0");
    private static final long N_NODES = ByteWords.word("nNodes\0\0");
    private static final long ZERO_X = '0' | 'x' << 8;

    /**
     * Reads the message [msg, end) of the line that starts at {@code start} ("NCCL" at {@code nccl}); false when it is not
     * in one of the shapes, or when the text before it says "nranks " (which the string reader of the size would find).
     */
    boolean read(ByteWords b, int start, int nccl, int msg, int end) {
        init = false;
        complete = false;
        nranks = -1;
        busFrom = -1;
        busTo = -1;
        nodes = -1;
        commId = InitLog.NO_COMM_ID;
        int p = msg;
        if ((b.bytesAt(p) & 0xFFFF_FFFF_FFFFL) == RANK) {
            p = ByteWords.digitsEnd(b, p + 6, end);
            if (p == msg + 6 || b.byteAt(p) != ']' || b.byteAt(p + 1) != ' ') {
                return false;
            }
            p += 2;
        }
        if (b.bytesAt(p) == NCCL_COMM) {
            p = lettersEnd(b, p + 8, end);
            if (b.byteAt(p) != ' ') {
                return false;
            }
            p++;
        }
        if ((b.bytesAt(p) & 0xFF_FFFF_FFFF_FFFFL) != COMM_0X) {
            return false;
        }
        int q = hexEnd(b, p + 7, end);
        if (q == p + 7) {
            return false;
        }
        return pairs(b, q, end) && !saysRanks(b, start, nccl);
    }

    /** The " key value" pairs from {@code p} to the line's end or its " - Init START|COMPLETE". */
    private boolean pairs(ByteWords b, int p, int end) {
        int ranksKey = -1; // "nRanks" just read: "nNodes" must follow, as the string reader expects
        while (p < end) {
            if (b.byteAt(p) != ' ') {
                return false;
            }
            if ((b.bytesAt(p + 1) & 0xFF_FFFF_FFFF_FFFFL) == INIT) {
                return initEnd(b, p + 8, end);
            }
            int key = p + 1;
            int keyEnd = lettersEnd(b, key, end);
            if (keyEnd == key || keyEnd > key + 16 || b.byteAt(keyEnd) != ' ') {
                return false;
            }
            int value = keyEnd + 1;
            int n = keyEnd - key;
            long six = b.bytesAt(keyEnd - Math.min(n, 6)) & SIX; // the key's last six bytes (its first n when shorter)
            boolean bus = n == 5 && (b.bytesAt(key) & FIVE) == BUS_ID;
            boolean idKey = n == 6 && six == COMM_ID;
            if (idKey && (b.bytesAt(value) & 0xFFFF) != ZERO_X) {
                return false;
            }
            int from = idKey ? value + 2 : value;
            p = bus || idKey ? hexEnd(b, from, end) : ByteWords.digitsEnd(b, from, end);
            if (p == from || p - from > (bus || idKey ? 16 : 9)) {
                return false;
            }
            if (idKey && commId == InitLog.NO_COMM_ID) {
                commId = hex(b, from, p);
            }
            if (six == NRANKS_KEY || six == N_RANKS) {
                if (n != 6) {
                    return false; // a longer key ending so: the string readers would take it for the field
                }
                if (six == NRANKS_KEY && nranks < 0) {
                    nranks = ByteWords.number(b, from, p);
                }
            }
            if (ranksKey >= 0 && nodes < 0) {
                if (!(n == 6 && six == N_NODES)) {
                    return false;
                }
                nodes = ByteWords.number(b, from, p);
            }
            ranksKey = n == 6 && six == N_RANKS && nodes < 0 ? key : -1;
            if (bus && busFrom < 0) {
                busFrom = from;
                busTo = p;
                if (nranks < 0) {
                    return false; // a busId before nranks: not a shape the string reader takes
                }
            }
        }
        return ranksKey < 0;
    }

    /** " - Init " read: "START" or "COMPLETE" must end the line, after an nranks value. */
    private boolean initEnd(ByteWords b, int p, int end) {
        init = true;
        if ((b.bytesAt(p) & 0xFF_FFFF_FFFFL) == START && p + 5 == end) {
            complete = false;
        } else if (b.bytesAt(p) == COMPLETE && p + 8 == end) {
            complete = true;
        } else {
            return false;
        }
        return nranks >= 0 && nodes < 0;
    }

    /** Whether [start, nccl) holds "nranks ": its 'n' bytes, a word at a time, each followed by "ranks "? */
    private static boolean saysRanks(ByteWords b, int start, int nccl) {
        for (int k = start; k < nccl; k += 8) {
            long w = b.bytesAt(k);
            for (long n = ByteWords.zeroBytes(w ^ NS); n != 0; n &= n - 1) {
                int at = k + ByteWords.lowestByte(n);
                if (at + 7 <= nccl && (b.bytesAt(at) & 0xFF_FFFF_FFFF_FFFFL) == NRANKS) {
                    return true;
                }
            }
        }
        return false;
    }

    /** 'n' in every byte. */
    private static final long NS = 0x6E6E6E6E6E6E6E6EL;



    /** The hex digits [from, to) (at most 16) as a number. */
    private static long hex(ByteWords b, int from, int to) {
        long v = 0;
        for (int k = from; k < to; k++) {
            v = v << 4 | Character.digit(b.byteAt(k), 16);
        }
        return v;
    }

    private static int hexEnd(ByteWords b, int from, int end) {
        int k = from;
        for (int c; k < end && (MessageKinds.digit(c = b.byteAt(k)) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'); k++) {
            // hex digits
        }
        return k;
    }

    private static int lettersEnd(ByteWords b, int from, int end) {
        int k = from;
        for (int c; k < end && ((c = b.byteAt(k)) >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'); k++) {
            // letters
        }
        return k;
    }
}
