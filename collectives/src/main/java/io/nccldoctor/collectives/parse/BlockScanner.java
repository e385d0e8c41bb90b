package io.nccldoctor.collectives.parse;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The byte-level half of the NCCL log parser. A block of whole lines is scanned eight bytes at a time from a copy of
 * its words (SWAR: the newlines counted and the 'N' bytes found with the exact zero-byte mask of Hacker's Delight 6-1,
 * taken in order); only lines that hold "NCCL" are looked at, per-operation lines (the bulk of a COLL log) are counted
 * from their first bytes and passed over by their newlines, channel lines give their transport from bytes, and only the
 * other lines become strings, handed to {@link #accept}. Written for the first JIT tier: plain array arithmetic, no
 * call left in the loops.
 */
abstract class BlockScanner {

    /** Lines counted, and those NCCL wrote (the per-operation and channel lines counted here, the rest by the subclass). */
    long lines;
    long ncclLines;

    private static final long COLONS = 0x3A3A3A3A3A3A3A3AL;
    /** "NCCL INF", "O " and ": opCoun" as little-endian words. */
    private static final long NCCL_INF = word("NCCL INF");
    private static final short O_SPACE = (short) ('O' | ' ' << 8);
    private static final long COLON_OPCOUN = word(": opCoun");

    private static long word(String eight) {
        return ByteBuffer.wrap(eight.getBytes(StandardCharsets.ISO_8859_1)).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    /** "CCL" after the 'N', little-endian. */
    private static final int CCL = 'C' | 'C' << 8 | 'L' << 16;
    private static final long LOW7 = 0x7F7F7F7F7F7F7F7FL;
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;
    private static final long NS = 0x4E4E4E4E4E4E4E4EL;
    private static final byte[] INFO_OPCOUNT = ": opCount".getBytes(StandardCharsets.ISO_8859_1);
    private static final byte[] NCCL_INFO = "NCCL INFO ".getBytes(StandardCharsets.ISO_8859_1);
    private static final byte[] VIA = " via ".getBytes(StandardCharsets.ISO_8859_1);
    private static final long CHANNEL_ = word("Channel ");
    /** 'v' in every byte, and " via " in the low five bytes of a little-endian word. */
    private static final long VS = 0x7676767676767676L;
    private static final long SPACE_VIA = word(" via \0\0\0") & 0xFF_FFFF_FFFFL;
    static final byte[] WATCHDOG = "Watchdog caught".getBytes(StandardCharsets.ISO_8859_1);

    /** 0x80 in each byte of x that is zero, 0 elsewhere (exact: no false positives from borrows). */
    private static long zeroBytes(long x) {
        return ~(((x & LOW7) + LOW7) | x | LOW7);
    }

    /**
     * The index of the byte that holds the lowest 0x80 bit of a {@link #zeroBytes} mask: a multiply instead of
     * Long.numberOfTrailingZeros, which the first JIT tier calls as a method.
     */
    private static int lowestByte(long mask) {
        return (int) ((((mask & -mask) >>> 7) * 0x0001020304050607L) >>> 56);
    }

    /** The block being read: its bytes, the same bytes as little-endian words (zero past len), and its length. */
    ByteBuffer buf;
    private long[] words;
    int len;
    /** The last newline before the current word, and the start of the last line already read, in acceptBlock. */
    private int lastNewline;
    private int handled;

    /**
     * Whole lines of a file: buf[0, len), which ends at a line end or the file's end, with the same bytes in
     * {@code words}: (len + 7) / 8 little-endian words, the last one padded with zero bytes.
     */
    void acceptBlock(ByteBuffer buf, long[] words, int len) {
        this.buf = buf;
        this.words = words;
        this.len = len;
        lastNewline = -1;
        handled = -1;
        int count = (len + 7) >>> 3;
        // Short calls, so that the JIT compiles the scan as a method soon: a long-running loop gets only an
        // on-stack-replacement compile, which runs this scan at half the speed.
        for (int from = 0; from < count; from += CHUNK) {
            scan(from, Math.min(count, from + CHUNK));
        }
        if (len > 0 && buf.get(len - 1) != '\n') {
            lines++; // the file's last line has no newline
        }
    }

    private static final int CHUNK = 2 << 10;

    /**
     * The words [from, to): each one's newlines and 'N' bytes are taken in order (a newline counts a line and
     * starts the next; an 'N' that starts "NCCL" in a line not yet read is a candidate). Once a line is read, the
     * words up to its end are passed over by their newlines alone.
     */
    private void scan(int from, int to) {
        int last = lastNewline;
        for (int j = from; j < to; j++) {
            long w = words[j];
            long nl = zeroBytes(w ^ NEWLINES);
            for (long events = nl | zeroBytes(w ^ NS); events != 0; events &= events - 1) {
                int at = (j << 3) + lowestByte(events);
                if ((nl & events & -events) != 0) {
                    lines++;
                    last = at;
                } else if (last + 1 != handled && at + 4 < len && (bytesAt(at) >>> 8 & 0xFFFFFF) == CCL
                        && candidate(buf, len, last + 1, at)) {
                    handled = last + 1;
                    if ((nl & (events & events - 1)) == 0) { // the line goes on past this word
                        j = nextNewlineWord(j + 1, to) - 1;
                        break;
                    }
                }
            }
        }
        lastNewline = last;
    }

    /**
     * The first of the words [j, to) that holds a newline, or {@code to}: four words at a time with the cheaper test
     * of Hacker's Delight 6-1 (exact for whether a word holds a zero byte, not for where), then word by word.
     */
    private int nextNewlineWord(int j, int to) {
        long[] w = words;
        for (; j + 4 <= to; j += 4) {
            long a = w[j] ^ NEWLINES;
            long b = w[j + 1] ^ NEWLINES;
            long c = w[j + 2] ^ NEWLINES;
            long d = w[j + 3] ^ NEWLINES;
            if (((a - ONES & ~a | b - ONES & ~b | c - ONES & ~c | d - ONES & ~d) & HIGHS) != 0) {
                break;
            }
        }
        while (j < to && zeroBytes(w[j] ^ NEWLINES) == 0) {
            j++;
        }
        return j;
    }

    /**
     * The eight bytes from {@code at} as a little-endian word, zero past the block (its words are followed by two
     * zero words). Short enough for the first JIT tier to inline: the high part is shifted in two steps so that at
     * a word boundary it is all shifted out (a shift by 64 is a shift by 0 in Java).
     */
    long bytesAt(int at) {
        int shift = (at & 7) << 3;
        return words[at >>> 3] >>> shift | words[(at >>> 3) + 1] << 1 << ~shift; // ~shift: 63 - shift, mod 64
    }

    /**
     * "NCCL" at {@code at} (followed by at least one byte) in the line that starts at {@code start}: reads the line if it holds "NCCL " or a watchdog
     * timeout ("WorkNCCL(…"). Returns whether the line was read (counted or accepted), so that later hits in it are
     * skipped. The common lines are told apart from the block's words; the rest is read from its bytes.
     */
    private boolean candidate(ByteBuffer buf, int len, int start, int at) {
        long head = bytesAt(at);
        if ((byte) (head >>> 32) != ' ') {
            int end = lineEnd(at);
            if (indexOf(buf, start, end, WATCHDOG) < 0) {
                return false;
            }
            accept(line(buf, start, end));
            return true;
        }
        if (at + 64 <= len && head == NCCL_INF && (short) bytesAt(at + 8) == O_SPACE) {
            for (int k = at + 10; k < at + 58; k += 8) { // the first ':' or newline in the next 48 bytes, a word at a time
                long w = bytesAt(k);
                long hit = zeroBytes(w ^ COLONS) | zeroBytes(w ^ NEWLINES);
                if (hit != 0) {
                    int c = k + lowestByte(hit);
                    if (bytesAt(c) == COLON_OPCOUN && (byte) bytesAt(c + 8) == 't') {
                        ncclLines++; // a per-operation line: nothing in it for this parser
                        return true;
                    }
                    if (byteAt(c) == ':' && tuning(start, at, c)) {
                        return true;
                    }
                    break;
                }
            }
            if (bytesAt(at + 10) == CHANNEL_) {
                int end = lineEnd(at);
                int via = indexOfVia(at + 18, end);
                if (via >= 0) {
                    int from = via + VIA.length;
                    int to = from;
                    while (to < end && !space(byteAt(to))) {
                        to++;
                    }
                    int k = transport(buf, from, to);
                    if (k >= 0 && isNet(transportKeys.get(k))) {
                        netChannel(k, start, at);
                    }
                }
                ncclLines++;
                return true;
            }
        } else if (regionMatches(buf, len, at, NCCL_INFO)) {
            for (int c = at + NCCL_INFO.length, stop = Math.min(len, c + 48); c < stop && buf.get(c) != '\n'; c++) {
                if (buf.get(c) == ':') {
                    if (regionMatches(buf, len, c, INFO_OPCOUNT)) {
                        ncclLines++; // a per-operation line: nothing in it for this parser
                        return true;
                    }
                    break;
                }
            }
        }
        accept(line(buf, start, lineEnd(at)));
        return true;
    }

    /** The byte at {@code at}, from the block's words (the first JIT tier inlines this; ByteBuffer.get it calls). */
    byte byteAt(int at) {
        return (byte) (words[at >>> 3] >>> ((at & 7) << 3));
    }

    /** The first newline at or after {@code from}, or the block's end: a word at a time. */
    private int lineEnd(int from) {
        for (int k = from; k < len; k += 8) {
            long nl = zeroBytes(bytesAt(k) ^ NEWLINES);
            if (nl != 0) {
                return Math.min(len, k + lowestByte(nl));
            }
        }
        return len;
    }

    /** The first " via " in [from, to), or -1: its 'v' bytes found a word at a time. */
    private int indexOfVia(int from, int to) {
        for (int k = from; k < to; k += 8) {
            for (long v = zeroBytes(bytesAt(k) ^ VS); v != 0; v &= v - 1) {
                int at = k + lowestByte(v) - 1;
                if (at >= from && at + 5 <= to && (bytesAt(at) & 0xFF_FFFF_FFFFL) == SPACE_VIA) {
                    return at;
                }
            }
        }
        return -1;
    }

    private static String line(ByteBuffer buf, int start, int end) {
        byte[] bytes = new byte[end - start];
        buf.get(start, bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /** Java's \\s: space, tab, newline, vertical tab, form feed, carriage return. */
    static boolean space(int c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
    }

    /** Transports counted from bytes, without a string per channel line: most of an initialisation is these. */
    final List<byte[]> transportKeys = new ArrayList<>();
    long[] transportCounts = new long[8];

    /** Counts the transport in buf[from, to); returns its index in transportKeys, -1 for an empty one. */
    private int transport(ByteBuffer buf, int from, int to) {
        if (to <= from) {
            return -1;
        }
        int n = to - from;
        for (int k = 0; k < transportKeys.size(); k++) {
            byte[] key = transportKeys.get(k);
            if (key.length == n && wordsMatch(from, key)) {
                transportCounts[k]++;
                return k;
            }
        }
        byte[] key = new byte[n];
        buf.get(from, key);
        if (transportKeys.size() == transportCounts.length) {
            transportCounts = java.util.Arrays.copyOf(transportCounts, transportCounts.length * 2);
        }
        transportCounts[transportKeys.size()] = 1;
        transportKeys.add(key);
        return transportKeys.size() - 1;
    }

    private static boolean isNet(byte[] transport) {
        return transport.length > 4 && transport[0] == 'N' && transport[1] == 'E' && transport[2] == 'T' && transport[3] == '/';
    }

    private boolean wordsMatch(int at, byte[] key) {
        for (int k = 0; k < key.length; k++) {
            if (byteAt(at + k) != key[k]) {
                return false;
            }
        }
        return true;
    }

    static boolean regionMatches(ByteBuffer buf, int len, int at, byte[] what) {
        if (at + what.length > len) {
            return false;
        }
        for (int k = 0; k < what.length; k++) {
            if (buf.get(at + k) != what[k]) {
                return false;
            }
        }
        return true;
    }

    static int indexOf(ByteBuffer buf, int from, int to, byte[] what) {
        for (int k = from; k + what.length <= to; k++) {
            if (buf.get(k) == what[0] && regionMatches(buf, to, k, what)) {
                return k;
            }
        }
        return -1;
    }

    private static final byte[] ACS = "ACS is enabled".getBytes(StandardCharsets.ISO_8859_1);
    private static final byte[] BYTES_ALGO = " Bytes -> Algo ".getBytes(StandardCharsets.ISO_8859_1);
    private static final byte[] PROTO = " proto ".getBytes(StandardCharsets.ISO_8859_1);
    private static final byte[] CHANNELS = " channel{Lo..Hi}={".getBytes(StandardCharsets.ISO_8859_1);
    private static final byte[] COMM = " comm 0x".getBytes(StandardCharsets.ISO_8859_1);

    /**
     * Where the text of a tuning line ends (after its protocol), for the whole canonical line only: "NCCL INFO AllReduce:
     * 1048576 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..3}" with an optional " comm 0x…", and a prefix without a
     * watchdog or ACS text, so that the line path would find exactly this tuning choice and nothing else; -1 otherwise.
     */
    int tuningSpanEnd(int start, int nccl, int colon) {
        int name = nccl + "NCCL INFO ".length();
        int p = colon + 2;
        if (colon == name || !allWord(name, colon) || byteAt(colon + 1) != ' ') {
            return -1;
        }
        int digits = p;
        while (p < len && Character.isDigit(byteAt(p))) {
            p++;
        }
        if (p == digits || p - digits > 18 || !regionMatches(buf, len, p, BYTES_ALGO)) {
            return -1;
        }
        int algo = p + BYTES_ALGO.length;
        p = wordEnd(algo);
        if (p == algo || !regionMatches(buf, len, p, PROTO)) {
            return -1;
        }
        int proto = p + PROTO.length;
        int spanEnd = wordEnd(proto);
        if (spanEnd == proto || !regionMatches(buf, len, spanEnd, CHANNELS)) {
            return -1;
        }
        p = numberEnd(spanEnd + CHANNELS.length);
        if (p < 0 || byteAt(p) != '.' || byteAt(p + 1) != '.' || (p = numberEnd(p + 2)) < 0 || byteAt(p) != '}') {
            return -1;
        }
        p++;
        if (regionMatches(buf, len, p, COMM)) {
            int hex = p + COMM.length;
            p = hex;
            while (p < len && Character.digit(byteAt(p), 16) >= 0) {
                p++;
            }
            if (p == hex) {
                return -1;
            }
        }
        if (p < len && byteAt(p) != '\n' || indexOf(buf, start, nccl, WATCHDOG) >= 0 || indexOf(buf, start, nccl, ACS) >= 0) {
            return -1;
        }
        return spanEnd;
    }

    private boolean allWord(int from, int to) {
        for (int k = from; k < to; k++) {
            if (!word(byteAt(k))) {
                return false;
            }
        }
        return true;
    }

    private int wordEnd(int from) {
        int k = from;
        while (k < len && word(byteAt(k))) {
            k++;
        }
        return k;
    }

    /** The end of the digits at {@code from}, or -1 when there are none. */
    private int numberEnd(int from) {
        int k = from;
        while (k < len && Character.isDigit(byteAt(k))) {
            k++;
        }
        return k == from ? -1 : k;
    }

    private static boolean word(byte c) {
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_';
    }

    /** A line the bytes did not settle (without its newline): a Latin-1 view of its bytes, or the line as read. */
    abstract void accept(String line);

    /**
     * The channel line that starts at {@code start} ("NCCL" at {@code nccl}) goes over the network transport
     * {@code transportKeys.get(key)}.
     */
    abstract void netChannel(int key, int start, int nccl);

    /**
     * Takes the line that starts at {@code start} ("NCCL" at {@code nccl}, its first ':' after "NCCL INFO " at
     * {@code colon}) when it is a tuning line and nothing else; false leaves it to {@link #accept}.
     */
    abstract boolean tuning(int start, int nccl, int colon);
}
