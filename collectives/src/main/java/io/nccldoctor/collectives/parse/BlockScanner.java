package io.nccldoctor.collectives.parse;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The byte-level half of the NCCL log parser. A block of whole lines is scanned eight bytes at a time from a copy of
 * its words (SWAR: the newlines counted and the 'N' bytes found with the exact zero-byte mask of Hacker's Delight 6-1,
 * taken in order); only lines that hold "NCCL" are looked at. An INFO message is told by its first words
 * ({@link MessageKinds}, the table the line half shares): per-operation lines (the bulk of a COLL log) and the kinds
 * that carry nothing the parser reads are counted and passed over by their newlines, channel lines give their transport
 * from bytes, a dump's link lines their numbers ({@link DumpLinkBytes}), the other kinds it reads go to
 * {@link #message} (which remembers what a repeated text said), and only unknown messages and warnings become strings,
 * handed to {@link #accept}. A log pasted without NCCL's prefix is read line by line ({@link #acceptBare}). Written for
 * the first JIT tier: plain array arithmetic, no call left in the inner loops.
 */
abstract class BlockScanner extends ByteWords {

    /** Lines counted, and those NCCL wrote (the per-operation and channel lines counted here, the rest by the subclass). */
    long lines;
    long ncclLines;

    private static final long COLONS = 0x3A3A3A3A3A3A3A3AL;
    /** "NCCL INF", "O " and ": opCoun" as little-endian words. */
    private static final long NCCL_INF = word("NCCL INF");
    private static final short O_SPACE = (short) ('O' | ' ' << 8);
    private static final long COLON_OPCOUN = word(": opCoun");

    /** "CCL" after the 'N', little-endian. */
    private static final int CCL = 'C' | 'C' << 8 | 'L' << 16;
    private static final long NS = 0x4E4E4E4E4E4E4E4EL;
    private static final byte[] INFO_OPCOUNT = ": opCount".getBytes(StandardCharsets.ISO_8859_1);
    private static final byte[] NCCL_INFO = "NCCL INFO ".getBytes(StandardCharsets.ISO_8859_1);
    private static final byte[] VIA = " via ".getBytes(StandardCharsets.ISO_8859_1);
    /** 'v' in every byte, and " via " in the low five bytes of a little-endian word. */
    private static final long VS = 0x7676767676767676L;
    private static final long SPACE_VIA = word(" via \0\0\0") & 0xFF_FFFF_FFFFL;
    static final byte[] WATCHDOG = "Watchdog caught".getBytes(StandardCharsets.ISO_8859_1);

    /** The last newline before the current word, and the start of the last line already read, in acceptBlock. */
    private int lastNewline;
    private int handled;
    /** The end of the line the last candidate read, when it found it (-1: not looked for). */
    private int knownEnd;
    /** The start of the last line searched for a watchdog timeout in vain: its other "NCCL" words are not searched again. */
    private int noWatchdog;

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
        noWatchdog = -1;
        if (bareLines) {
            for (int start = 0; start < len; ) {
                int end = lineEnd(start);
                if (end < len) {
                    lines++;
                }
                acceptBare(line(buf, start, end));
                start = end + 1;
            }
        } else {
            int count = (len + 7) >>> 3;
            // Short calls, so that the JIT compiles the scan as a method soon: a long-running loop gets only an
            // on-stack-replacement compile, which runs this scan at half the speed.
            for (int from = 0; from < count; from += CHUNK) {
                scan(from, Math.min(count, from + CHUNK));
            }
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
                        int end = knownEnd;
                        j = (end >= 0 ? Math.min(to, end >>> 3) : nextNewlineWord(j + 1, to)) - 1;
                        break;
                    }
                }
            }
        }
        lastNewline = last;
    }

    /**
     * "NCCL" at {@code at} (followed by at least one byte) in the line that starts at {@code start}: reads the line if it holds "NCCL " or a watchdog
     * timeout ("WorkNCCL(…"). Returns whether the line was read (counted or accepted), so that later hits in it are
     * skipped. The common lines are told apart from the block's words; the rest is read from its bytes.
     */
    private boolean candidate(ByteBuffer buf, int len, int start, int at) {
        knownEnd = -1;
        long head = bytesAt(at);
        if ((byte) (head >>> 32) != ' ') {
            if (start == noWatchdog) {
                return false; // a 10 MB line of "ProcessGroupNCCL" words is searched once, not once per word
            }
            int end = lineEnd(at);
            if (indexOf(buf, start, end, WATCHDOG) < 0) {
                noWatchdog = start;
                return false;
            }
            accept(line(buf, start, end));
            return true;
        }
        if (at + 64 <= len && head == NCCL_INF && (short) bytesAt(at + 8) == O_SPACE) {
            int colon = -1;
            for (int k = at + 10; k < at + 58; k += 8) { // the first ':' or newline in the next 48 bytes, a word at a time
                long w = bytesAt(k);
                long hit = zeroBytes(w ^ COLONS) | zeroBytes(w ^ NEWLINES);
                if (hit != 0) {
                    int c = k + lowestByte(hit);
                    if (bytesAt(c) == COLON_OPCOUN && (byte) bytesAt(c + 8) == 't') {
                        ncclLines++; // a per-operation line: nothing in it for this parser
                        return true;
                    }
                    colon = byteAt(c) == ':' ? c : -1;
                    break;
                }
            }
            int msg = at + 10;
            MessageKinds.Kind kind = kindAt(msg, colon);
            switch (kind) {
                case SKIP -> ncclLines++;
                case CHANNEL -> channelLine(start, at, msg);
                case OTHER -> {
                    if (colon < 0 || !tuning(start, at, colon)) {
                        int end = lineEnd(msg);
                        knownEnd = end;
                        accept(line(buf, start, end));
                    }
                }
                default -> {
                    int end = lineEnd(msg);
                    knownEnd = end;
                    message(kind, start, at, kindStart, end);
                }
            }
            return true;
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

    /**
     * A channel line ("Channel …" or "Ring …") read from bytes: its transport, after the line's last " via " (searched
     * back from the line's end: it is near the end), counted ({@link #transportEnd}).
     */
    private void channelLine(int start, int at, int msg) {
        int end = lineEnd(msg);
        knownEnd = end;
        int via = lastVia(msg + 8, end);
        if (via >= 0) {
            int from = via + VIA.length;
            int to = transportEnd(from, end);
            int k = channelTransports.count(this, from, to);
            if (k >= 0 && channelTransports.isNet(k)) {
                netChannel(k, start, at);
            }
        }
        ncclLines++;
    }

    /**
     * The last " via " in [from, to), or -1: the block's aligned words from the end, each word's 'v' bytes (exact
     * zero-byte mask) taken in order and the last one that starts " via " kept.
     */
    private int lastVia(int from, int to) {
        for (int k = (to - 1) & ~7; k >= ((from + 1) & ~7) && k >= 0; k -= 8) {
            int found = -1;
            for (long v = zeroBytes(words[k >>> 3] ^ VS); v != 0; v &= v - 1) {
                int p = k + lowestByte(v) - 1;
                if (p >= from && p + 5 <= to && (bytesAt(p) & 0xFF_FFFF_FFFFL) == SPACE_VIA) {
                    found = p;
                }
            }
            if (found >= 0) {
                return found;
            }
        }
        return -1;
    }

    /**
     * Where the transport that starts at {@code from} ends: at the first blank, except that a network's name may hold
     * spaces ("NET/AWS Libfabric/0/GDRDMA", aws-ofi-nccl's name): after "NET/" the name runs to the next '/' when one
     * comes within 48 bytes, and the transport to the first blank after it. {@link LogBuilder} reads strings the same way.
     */
    private int transportEnd(int from, int end) {
        int p = from;
        if (end - from > 4 && (bytesAt(from) & 0xFFFF_FFFFL) == NET_SLASH) {
            for (int q = from + 4; q < end && q < from + 52; q++) {
                if (byteAt(q) == '/') {
                    p = q;
                    break;
                }
            }
        }
        for (long w = bytesAt(p); p + 8 <= end && ((w - BLANKS) & ~w & HIGHS) == 0; w = bytesAt(p)) {
            p += 8; // no byte up to ' ' in these eight (Hacker's Delight 6-1, "has less than"): no \\s, no newline
        }
        while (p < end && !space(byteAt(p))) {
            p++;
        }
        return p;
    }

    /** 0x21 in every byte: a byte below it is a blank, a control character or the newline. */
    private static final long BLANKS = 0x2121212121212121L;

    private static final long NET_SLASH = word("NET/\0\0\0\0") & 0xFFFF_FFFFL;

    /**
     * {@link MessageKinds#of} from bytes: the table's entries for the first byte, then the shapes that are not plain
     * prefixes. A prefix holds no newline, so no comparison runs past the line.
     */
    MessageKinds.Kind kindAt(int msg, int colon) {
        kindStart = msg;
        int c = byteAt(msg) & 0xFF;
        for (int i : MessageKinds.BY_FIRST[c]) {
            if (prefixAt(msg, i)) {
                return MessageKinds.KIND[i];
            }
        }
        if (c == ' ') {
            int p = spacesEnd(msg);
            if (byteAt(p) == '+' && byteAt(p + 1) == ' ' && p + 1 < len) {
                kindStart = p; // a dump line is read from past its indentation
                return MessageKinds.Kind.TOPO;
            }
            return MessageKinds.digit(byteAt(p)) && startsWith(digitsEnd(p), MessageKinds.SPACE_COLON_SPACE)
                    ? MessageKinds.Kind.SKIP : MessageKinds.Kind.OTHER;
        }
        if (MessageKinds.digit(c)) {
            int d = digitsEnd(msg);
            return startsWith(d, MessageKinds.SPACE_COLON_SPACE) || startsWith(d, MessageKinds.COLL_CHANNELS)
                    ? MessageKinds.Kind.SKIP : MessageKinds.Kind.OTHER;
        }
        return sourceLocation(msg, colon) ? MessageKinds.Kind.SKIP : MessageKinds.Kind.OTHER;
    }

    /** Entry {@code i}'s prefix at {@code at}, compared a word at a time. */
    private boolean prefixAt(int at, int i) {
        long[] w = MessageKinds.PREFIX_WORDS[i];
        if (at + MessageKinds.PREFIX[i].length > len) {
            return false;
        }
        long[] m = MessageKinds.PREFIX_MASKS[i];
        for (int k = 0; k < w.length; k++) {
            if ((bytesAt(at + (k << 3)) & m[k]) != w[k]) {
                return false;
            }
        }
        return true;
    }

    private boolean startsWith(int at, byte[] prefix) {
        if (at + prefix.length > len) {
            return false;
        }
        for (int k = 0; k < prefix.length; k++) {
            if (byteAt(at + k) != prefix[k]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Past the spaces at {@code p}, eight at a time: a dump line's indentation, its depth in the tree, is not part of
     * what it says.
     */
    private int spacesEnd(int p) {
        while (p + 8 <= len && bytesAt(p) == SPACES) {
            p += 8;
        }
        while (p < len && byteAt(p) == ' ') {
            p++;
        }
        return p;
    }

    private static final long SPACES = 0x2020202020202020L;

    /** Where the text of the kind {@link #kindAt} found starts: the message, or a dump line past its indentation. */
    private int kindStart;

    private int digitsEnd(int p) {
        while (p < len && MessageKinds.digit(byteAt(p))) {
            p++;
        }
        return p;
    }

    /**
     * {@link MessageKinds#sourceLocation} from bytes: {@code colon} is the first ':' within 48 bytes of the message (-1:
     * none before the line's end); the bytes before it are taken eight at a time (no blank, a '.').
     */
    private boolean sourceLocation(int msg, int colon) {
        if (colon <= msg || !MessageKinds.digit(byteAt(colon + 1)) || colon + 1 >= len) {
            return false;
        }
        boolean dot = false;
        for (int k = msg; k < colon; k += 8) {
            long w = textWord(k, colon);
            long live = colon - k >= 8 ? -1L : (1L << ((colon - k) << 3)) - 1;
            if ((((w | ~live) - BLANKS) & ~(w | ~live) & HIGHS) != 0) {
                return false; // a byte up to ' ' before the colon
            }
            dot |= (zeroBytes(w ^ DOTS) & live) != 0;
        }
        return dot;
    }

    private static final long DOTS = 0x2E2E2E2E2E2E2E2EL;

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

    /** Transports counted from bytes, without a string per channel line: most of an initialisation is these. */
    final TransportCounts channelTransports = new TransportCounts();

    /** What messages said, by their bytes. */
    final MessageMemo memo = new MessageMemo();

    /** Every line is read whole by its wording: a log pasted without NCCL's prefix ({@link LogReader#bare}). */
    boolean bareLines;

    /** A line of a log without NCCL's prefix (without its newline). */
    abstract void acceptBare(String line);

    /** A line the bytes did not settle (without its newline): a Latin-1 view of its bytes, or the line as read. */
    abstract void accept(String line);

    /**
     * An INFO message of a kind the parser reads, in the line that starts at {@code start} ("NCCL" at {@code nccl}, the
     * message's text in [msg, end)).
     */
    abstract void message(MessageKinds.Kind kind, int start, int nccl, int msg, int end);

    /**
     * The channel line that starts at {@code start} ("NCCL" at {@code nccl}) goes over the network transport
     * {@code key} of {@link #channelTransports}.
     */
    abstract void netChannel(int key, int start, int nccl);

    /**
     * Takes the line that starts at {@code start} ("NCCL" at {@code nccl}, its first ':' after "NCCL INFO " at
     * {@code colon}) when it is a tuning line and nothing else; false leaves it to {@link #accept}.
     */
    abstract boolean tuning(int start, int nccl, int colon);
}
