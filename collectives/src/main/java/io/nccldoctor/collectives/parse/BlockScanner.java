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
    /** PyTorch's words for its watchdog thread stuck ({@link TorchWatchdog}): "ProcessGroupNCCL's watchdog got stuck for". */
    private static final byte[] WATCHDOG_STUCK = TorchWatchdog.STUCK.getBytes(StandardCharsets.ISO_8859_1);
    private static final byte[] HEARTBEAT = TorchWatchdog.HEARTBEAT.getBytes(StandardCharsets.ISO_8859_1);

    /**
     * Where "NCCL INFO " stood in the last line that had it, from the line's start: the lines of a job's log carry
     * prefixes of one length ("node0012:40204:40297 [3] "), so the next line is first looked at there.
     */
    private int prefixGuess = -1;
    /** The start of the last line searched for a watchdog timeout in vain: its other "NCCL" words are not searched again. */
    private int noWatchdog = -1;

    /**
     * The lines of the block that start before this index are looked at for RCCL's version banner ({@link #banner}):
     * those within the log's first {@link LogReader#SNIFF} bytes, set by the reader for each block (0: none).
     */
    int bannerBefore;

    /**
     * Whole lines of a file: buf[0, len), which ends at a line end or the file's end, with the same bytes in
     * {@code words}: (len + 7) / 8 little-endian words, the last one padded with zero bytes.
     */
    void acceptBlock(ByteBuffer buf, long[] words, int len) {
        this.buf = buf;
        this.words = words;
        this.len = len;
        noWatchdog = -1;
        if (bareLines) {
            for (int start = 0; start < len; ) {
                int end = lineEnd(start);
                if (end < len) {
                    lines++;
                }
                String line = line(buf, start, end);
                if (follow) {
                    follow(line);
                }
                acceptBare(line);
                start = end + 1;
            }
        } else {
            // Short calls, so that the JIT compiles the scan as a method soon: a long-running loop gets only an
            // on-stack-replacement compile, which runs this scan at half the speed.
            for (int start = 0; start < len; ) {
                start = scan(start, Math.min(len, start + CHUNK));
            }
        }
        if (len > 0 && buf.get(len - 1) != '\n') {
            lines++; // the file's last line has no newline
        }
    }

    private static final int CHUNK = 16 << 10;

    /**
     * The lines that start in [from, to): each line's end is found first, then the line is read where the last line had
     * "NCCL INFO " ({@link #prefixGuess}), or else by its 'N' bytes; returns where the next line starts. The words before
     * the expected "NCCL INFO " are searched for the newline and for 'N' at once (an 'N' there could start an earlier
     * "NCCL"), the rest for the newline alone, two words at a time with the cheaper test of Hacker's Delight 6-1 (exact
     * for whether a word holds a newline), then the word that does. The loop is written out here: the first JIT tier
     * does not inline methods this long, and a call per line costs as much as a word.
     */
    private int scan(int from, int to) {
        long[] w = words;
        int count = (len + 7) >>> 3;
        int start = from;
        while (start < to) {
            int guess = prefixGuess;
            int at = start + guess;
            int j = start >>> 3;
            int prefixEnd = guess > 0 ? (at - 1) >>> 3 : j - 1; // the last word that holds bytes before at
            long below = (at & 7) == 0 ? -1L : (1L << (at << 3)) - 1; // the bytes of that word before at (shifts are mod 64)
            long low = -1L << (start << 3);
            long x = w[j];
            long m = zeroBytes(x ^ NEWLINES) & low;
            long ns = j > prefixEnd ? 0 : zeroBytes(x ^ NS) & low & (j < prefixEnd ? -1L : below);
            while (m == 0 && j < prefixEnd) {
                x = w[++j];
                m = zeroBytes(x ^ NEWLINES);
                ns |= zeroBytes(x ^ NS) & (j < prefixEnd ? -1L : below);
            }
            if (m == 0) {
                for (j++; j + 1 < count; j += 2) {
                    long a = w[j] ^ NEWLINES;
                    long b = w[j + 1] ^ NEWLINES;
                    if (((a - ONES & ~a | b - ONES & ~b) & HIGHS) != 0) {
                        break;
                    }
                }
                while (j < count && (m = zeroBytes(w[j] ^ NEWLINES)) == 0) {
                    j++;
                }
            }
            int end = m == 0 ? len : Math.min(len, (j << 3) + lowestByte(m));
            if (end < len) {
                lines++;
            }
            if (follow) {
                follow(line(buf, start, end));
            }
            if (start < bannerBefore) {
                banner(start, end);
            }
            if (guess >= 0 && ns == 0 && at + 10 <= end && bytesAt(at) == NCCL_INF && (short) bytesAt(at + 8) == O_SPACE) {
                info(start, at, end);
            } else {
                scanLine(start, end);
            }
            start = end + 1;
        }
        return start;
    }

    /**
     * The line [start, end) read by its 'N' bytes, in order: each that starts "NCCL" is a candidate until one reads the
     * line. A line none reads that has a '<' byte in its words is handed to {@link #libfabricLine} (libfabric's
     * "&lt;warn&gt; " lines hold no "NCCL"; the '<' bytes are found with the 'N' bytes, in the same words).
     */
    private void scanLine(int start, int end) {
        long lts = 0;
        for (int j = start >>> 3, last = (end - 1) >>> 3; j <= last && start < end; j++) { // the line's words
            long x = words[j];
            lts |= zeroBytes(x ^ LTS);
            long ns = zeroBytes(x ^ NS);
            if (j == start >>> 3) {
                ns &= -1L << ((start & 7) << 3);
            }
            for (; ns != 0; ns &= ns - 1) {
                int n = (j << 3) + lowestByte(ns);
                if (n >= end) {
                    break; // in the line's last word
                }
                if (n + 4 < len && (bytesAt(n) >>> 8 & 0xFFFFFF) == CCL && candidate(start, n, end)) {
                    return;
                }
            }
        }
        if (lts != 0) {
            libfabricLine(start, end);
        }
    }

    /** "RCCL ver" and "sion" as little-endian words. */
    private static final long RCCL_VER = word("RCCL ver");
    private static final long SION = word("sion\0\0\0\0");

    /**
     * The line [start, end) when it is RCCL's version banner: after blanks, "RCCL version" (RCCL prints it with printf, so
     * it holds no "NCCL" for the scan to find; {@link LogBuilder} keeps the ones in RCCL's wording).
     */
    private void banner(int start, int end) {
        int p = start;
        while (p < end && (byteAt(p) == ' ' || byteAt(p) == '\t')) {
            p++;
        }
        if (p + 12 <= end && bytesAt(p) == RCCL_VER && (bytesAt(p + 8) & 0xFFFF_FFFFL) == SION) {
            rcclBanner(start, end);
        }
    }

    /** '<' in every byte. */
    private static final long LTS = 0x3C3C3C3C3C3C3C3CL;

    /**
     * "NCCL" at {@code at} (followed by at least one byte) in the line [start, end): reads the line if it holds "NCCL "
     * or one of PyTorch's hang messages ({@link TorchWatchdog}: a watchdog timeout, "WorkNCCL(…", or the watchdog stuck,
     * "ProcessGroupNCCL's watchdog got stuck for …", "[E ProcessGroupNCCL.cpp:1316] … Heartbeat monitor timed out!").
     * Returns whether the line was read (counted or accepted), so that later hits in it are skipped.
     */
    private boolean candidate(int start, int at, int end) {
        long head = bytesAt(at);
        if ((byte) (head >>> 32) != ' ') {
            if (start == noWatchdog) {
                return false; // a 10 MB line of "ProcessGroupNCCL" words is searched once, not once per word
            }
            if (indexOf(buf, start, end, WATCHDOG) < 0 && indexOf(buf, start, end, WATCHDOG_STUCK) < 0
                    && indexOf(buf, start, end, HEARTBEAT) < 0) {
                noWatchdog = start;
                return false;
            }
            accept(line(buf, start, end));
            return true;
        }
        if (head == NCCL_INF && (short) bytesAt(at + 8) == O_SPACE && at + 10 <= end) {
            prefixGuess = at - start;
            info(start, at, end);
            return true;
        }
        accept(line(buf, start, end));
        return true;
    }

    /**
     * An INFO message: "NCCL INFO " at {@code at} in the line [start, end), told by its first words ({@link #kindAt}).
     */
    private void info(int start, int at, int end) {
        int msg = at + 10;
        MessageKinds.Kind kind = kindAt(msg, end);
        switch (kind) {
            case SKIP -> ncclLines++;
            case CHANNEL -> channelLine(start, at, msg, end);
            case OTHER -> {
                if (kindColon < 0 || !tuning(start, at, kindColon)) {
                    accept(line(buf, start, end));
                }
            }
            default -> message(kind, start, at, kindStart, end);
        }
    }

    /** The first ':' in [from, to), or -1: the aligned words, their ':' bytes found with the exact zero-byte mask. */
    private int colon(int from, int to) {
        if (from >= to) {
            return -1;
        }
        int j = from >>> 3;
        long hit = zeroBytes(words[j] ^ COLONS) & -1L << ((from & 7) << 3);
        for (int last = (to - 1) >>> 3; hit == 0 && j < last; ) {
            hit = zeroBytes(words[++j] ^ COLONS);
        }
        if (hit == 0) {
            return -1;
        }
        int c = (j << 3) + lowestByte(hit);
        return c < to ? c : -1;
    }

    /**
     * A channel line ("Channel …" or "Ring …") read from bytes: its transport, after the line's last " via " (searched
     * back from the line's end: it is near the end), counted ({@link #transportEnd}).
     */
    private void channelLine(int start, int at, int msg, int end) {
        int k = recentTransport;
        if (k < 0 || !channelTransports.endsLine(this, k, msg + 8, end)) {
            k = otherTransport;
            if (k < 0 || !channelTransports.endsLine(this, k, msg + 8, end)) {
                k = -1;
                int via = lastVia(msg + 8, end);
                if (via >= 0) {
                    int from = via + VIA.length;
                    k = channelTransports.count(this, from, transportEnd(from, end));
                }
            } else {
                channelTransports.countAgain(k);
            }
            if (k >= 0) {
                otherTransport = recentTransport;
                recentTransport = k;
            }
        } else {
            channelTransports.countAgain(k);
        }
        if (k >= 0 && channelTransports.isNet(k)) {
            netChannel(k, start, at);
        }
        ncclLines++;
    }

    /** Forgets the transports counted (once folded into the message half's map). */
    void clearTransports() {
        channelTransports.clear();
        recentTransport = -1;
        otherTransport = -1;
    }

    /** The transports of the last two channel lines that had one: a node's lines alternate between a few. */
    private int recentTransport = -1;
    private int otherTransport = -1;

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
     * {@link MessageKinds#of} from bytes, in its order: the table's entries of the message's group (a hash of its first
     * two bytes), compared a word at a time; a dump line after leading spaces; a per-operation line, whose first ':'
     * within 48 bytes ({@link #kindColon}) starts ": opCount"; the other shapes. A prefix holds no newline, so no
     * comparison runs past the line (the words past the block are zero).
     */
    MessageKinds.Kind kindAt(int msg, int end) {
        kindStart = msg;
        long w = bytesAt(msg);
        int b = MessageKinds.bucket(w);
        for (int i = MessageKinds.BUCKET_START[b], stop = MessageKinds.BUCKET_START[b + 1]; i < stop; i++) {
            if ((w & MessageKinds.FIRST_MASK[i]) == MessageKinds.FIRST_WORD[i] && (MessageKinds.MORE_WORDS[i] == null || more(msg, i))) {
                return MessageKinds.BUCKET_KIND[i];
            }
        }
        int n = locationLength;
        if (n > 0 && end - msg > n && MessageKinds.digit(byteAt(msg + n)) && sameWords(location, msg, msg + n)) {
            kindColon = msg + n - 1; // the source location told last, and a line number after it: only the arrow is left
            return ErrorChains.arrow(this, msg + n, end) ? MessageKinds.Kind.OTHER : MessageKinds.Kind.SKIP;
        }
        int c = (int) w & 0xFF;
        int p = c == ' ' ? spacesEnd(msg) : msg;
        if (c == ' ' && byteAt(p) == '+' && byteAt(p + 1) == ' ' && p + 1 < len) {
            kindStart = p; // a dump line is read from past its indentation
            return MessageKinds.Kind.TOPO;
        }
        int colon = colon(msg, Math.min(end, msg + 48));
        kindColon = colon;
        if (colon >= 0 && bytesAt(colon) == COLON_OPCOUN && (byte) bytesAt(colon + 8) == 't') {
            return MessageKinds.Kind.SKIP; // a per-operation line: nothing in it for this parser
        }
        if (c == ' ') {
            return MessageKinds.digit(byteAt(p)) && startsWith(digitsEnd(p), MessageKinds.SPACE_COLON_SPACE)
                    ? MessageKinds.Kind.SKIP : MessageKinds.Kind.OTHER;
        }
        if (MessageKinds.digit(c)) {
            int d = digitsEnd(msg);
            return startsWith(d, MessageKinds.SPACE_COLON_SPACE) || startsWith(d, MessageKinds.COLL_CHANNELS)
                    ? MessageKinds.Kind.SKIP : MessageKinds.Kind.OTHER;
        }
        // an error chain's line ("init.cc:1089 -> 3") is read as a string (ErrorChains); other locations are skipped
        if (!sourceLocation(msg, colon)) {
            return MessageKinds.Kind.OTHER;
        }
        remember(msg, colon);
        return ErrorChains.arrow(this, colon + 1, end) ? MessageKinds.Kind.OTHER : MessageKinds.Kind.SKIP;
    }

    /**
     * The bytes of the last source location {@link #kindAt} told, up to and with its ':' ("transport/p2p.cc:"), as
     * {@link #textWord}s, and their count (0: none). NCCL_DEBUG_SUBSYS=ALL prints many lines after one location in a row
     * (a fifth of an initialisation's lines are "transport/p2p.cc:275 Cuda Alloc Size …"), and a line whose message starts
     * with the same bytes and then a digit is told by them: its first ':' within 48 bytes is the same one, the bytes
     * before it are the ones {@link #sourceLocation} passed, a digit after it is no per-operation line's ": opCount",
     * and such bytes start neither with a blank nor with a digit (the other shapes). Only the arrow of an error chain is
     * looked for again. About half the cost of finding the colon and reading the location again.
     */
    private final long[] location = new long[6];
    private int locationLength;

    private void remember(int msg, int colon) {
        int n = colon + 1 - msg; // at most 48: the colon is within 48 bytes of the message
        for (int k = 0; k << 3 < n; k++) {
            location[k] = textWord(msg + (k << 3), msg + n);
        }
        locationLength = n;
    }

    /** The first ':' within 48 bytes of the message {@link #kindAt} read last (-1: none, or a table kind). */
    private int kindColon;

    /** The words past the first of the group entry {@code i}'s prefix at {@code at}. */
    private boolean more(int at, int i) {
        long[] w = MessageKinds.MORE_WORDS[i];
        long[] m = MessageKinds.MORE_MASKS[i];
        for (int k = 0; k < w.length; k++) {
            if ((bytesAt(at + 8 + (k << 3)) & m[k]) != w[k]) {
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
     * Past the spaces at {@code p}, a word at a time (the first byte that is not ' ', from the exact zero-byte mask of the
     * word XOR spaces): a dump line's indentation, its depth in the tree, is not part of what it says.
     */
    private int spacesEnd(int p) {
        int j = p >>> 3;
        long other = ~zeroBytes(words[j] ^ SPACES) & HIGHS & -1L << (p << 3); // the bytes that are not ' ', from p on
        while (other == 0) {
            other = ~zeroBytes(words[++j] ^ SPACES) & HIGHS; // the zero words past the block end this
        }
        return Math.min(len, (j << 3) + lowestByte(other));
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

    /**
     * Each line is handed to {@link #follow} as well, whatever it holds: set while the message half wants the lines after
     * one it read (PyTorch's error block, whose "Last error:" lines hold no "NCCL") and for a source's first lines.
     */
    boolean follow = true;

    /** A line while {@link #follow} is set (without its newline), before it is read as usual. */
    abstract void follow(String line);

    /** A line [start, end) that holds no "NCCL " and a '<' byte (or one near it, in the same word): maybe libfabric's. */
    abstract void libfabricLine(int start, int end);

    /** The line [start, end) starts with RCCL's version banner. */
    abstract void rcclBanner(int start, int end);

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
