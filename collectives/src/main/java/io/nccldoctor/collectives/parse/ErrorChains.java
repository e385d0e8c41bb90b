package io.nccldoctor.collectives.parse;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * NCCL's error chains and WARN lines, read as they come. A failed call prints one INFO line per function the error
 * leaves, "misc/socket.cc:397 -> 3" ({@code "%s:%d -> %d"}, NCCLCHECK in src/include/checks.h; "-> 2 (Connection
 * refused)" with strerror from 2.18; "init.cc:1089 (ncclCommInitRankFunc) -> 3" with the function from 2.30.7,
 * INFO_LOC in src/include/debug.h), and the thread that ran the call ends the chain with a line of its own:
 * "group.cc:64 -> 3 [Async thread]" (ncclAsyncJobMain, the communicator's initialisation job), "proxy.cc:878 -> 6
 * [Progress Thread]" ("[Proxy Thread]" up to 2.20: the proxy's progress thread, whose error becomes the communicator's).
 * The lines of one thread ("host:pid:tid") are one chain until such a line ends it, the code changes, a location
 * repeats (the same call failing again) or a WARN of the thread reports another error. WARN lines are judged here too: those NCCL itself calls harmless, and those
 * another rule reads, are counted apart from the rest.
 */
final class ErrorChains {

    private static final int KEEP = NcclLog.KEEP;
    /** Lines kept per chain; a chain of NCCL's is rarely deeper than a dozen calls. */
    private static final int LINES = 16;
    /** Locations remembered per chain, to see one repeat: more than any chain seen holds. */
    private static final int LOCATIONS = 64;
    /** A prefix longer than this is no NCCL prefix: the thread is then unknown (""). */
    private static final int PREFIX_MAX = 256;

    /** A chain being read. */
    private static final class Chain {
        final String thread;
        final int code;
        final boolean keep;
        final List<String> lines = new ArrayList<>();
        final Set<String> locations = new HashSet<>();
        long count;
        boolean failed;
        boolean closed;
        String top = "";
        String firstLocation;
        String cause;
        /** No warning of its thread, nor an ended chain, came before it in its range: its cause may be in the range before. */
        boolean inherits;

        Chain(String thread, int code, boolean keep, String cause, boolean inherits) {
            this.thread = thread;
            this.code = code;
            this.keep = keep;
            this.cause = cause;
            this.inherits = inherits;
        }

        void add(String location, String kept, boolean top, boolean closes) {
            if (count == 0) {
                firstLocation = location;
            }
            count++;
            if (keep && lines.size() < LINES) {
                lines.add(kept);
            }
            if (locations.size() < LOCATIONS) {
                locations.add(location);
            }
            this.top = kept;
            failed |= top;
            closed = closes;
        }

        /** The same chain's lines read in the next range of the file. */
        void join(Chain o) {
            lines.addAll(o.lines.subList(0, Math.min(o.lines.size(), keep ? Math.max(0, LINES - lines.size()) : 0)));
            if (locations.size() < LOCATIONS) {
                locations.addAll(o.locations);
            }
            count += o.count;
            top = o.top;
            failed |= o.failed;
            closed = o.closed;
        }

        /** Whether a line of this thread with this code at this location goes on with this chain. */
        boolean continuedBy(int code, String location) {
            return !closed && this.code == code && !locations.contains(location);
        }

        NcclLog.ErrorChain build() {
            return new NcclLog.ErrorChain(thread, List.copyOf(lines), count, code, failed, top, cause == null ? "" : cause);
        }
    }

    private final List<Chain> kept = new ArrayList<>();
    /** Per thread, its chain that no line of its own has ended yet. */
    private final Map<String, Chain> open = new HashMap<>();
    /** Per thread, its first chain in this range of the file: a chain open at the end of the range before may go on in it. */
    private final Map<String, Chain> first = new LinkedHashMap<>();
    /** Per thread, its last judged WARN line since its last chain ended: the cause of the next. */
    private final Map<String, String> lastWarning = new HashMap<>();
    /** The threads whose last warning this range set or cleared. */
    private final Set<String> touched = new HashSet<>();
    private long chains;
    private long failed;
    private long chainLines;
    private final List<String> warnings = new ArrayList<>();
    private long warningCount;
    private final List<String> harmless = new ArrayList<>();
    private long harmlessCount;
    private long elsewhere;

    /**
     * The INFO message at {@code msg} of a line whose first "NCCL " is at {@code first}: read when it is a chain's line,
     * a first word "file:line" (a '.' in the file: "init.cc:1089", RCCL's absolute "/…/src/init.cpp:1234") followed by
     * " -> " and a code that is not 0.
     *
     * @return whether it was one
     */
    boolean info(LogBuilder b, String line, int first, int msg) {
        int colon = locationEnd(line, msg);
        int at = colon < 0 ? -1 : arrow(line, colon + 1);
        int code = codeAt(line, at);
        if (code <= 0) {
            return false;
        }
        int codeEnd = digitsEnd(line, at);
        String file = line.substring(msg, colon);
        String location = file + line.substring(colon, digitsEnd(line, colon + 1));
        String base = file.substring(file.lastIndexOf('/') + 1);
        boolean threadLine = line.indexOf(" [", codeEnd) >= 0; // "[Async thread]", "[Progress Thread]", or such a line cut
        boolean top = threadLine || TOP_FILES.contains(base);
        add(b.text(thread(line, first)), code, location, b.kept(line), top, threadLine);
        return true;
    }

    /**
     * Where an error leaves NCCL for its caller: ncclCommInitRank and its kin (init.cc) and ncclGroupEnd, which every
     * call goes through (group.cc); RCCL's hipified copies end in .cpp.
     */
    private static final Set<String> TOP_FILES = Set.of("init.cc", "group.cc", "init.cpp", "group.cpp");

    /** The ':' that ends the message's first word as "file:line" (a '.' before it, a digit after it), or -1. */
    private static int locationEnd(String line, int msg) {
        boolean dot = false;
        for (int k = msg, n = Math.min(line.length(), msg + 512); k < n; k++) {
            char c = line.charAt(k);
            if (c == ':') {
                return dot && k > msg && k + 1 < line.length() && MessageKinds.digit(line.charAt(k + 1)) ? k : -1;
            }
            if (c <= ' ') {
                return -1;
            }
            dot |= c == '.';
        }
        return -1;
    }

    private void add(String thread, int code, String location, String kept, boolean top, boolean closes) {
        chainLines++;
        Chain c = open.get(thread);
        if (c == null || !c.continuedBy(code, location)) {
            c = new Chain(thread, code, this.kept.size() < KEEP, lastWarning.get(thread), !touched.contains(thread));
            chains++;
            if (c.keep) {
                this.kept.add(c);
            }
            open.put(thread, c);
            first.putIfAbsent(thread, c);
        }
        boolean wasFailed = c.failed;
        c.add(location, kept, top, closes);
        if (c.failed && !wasFailed) {
            failed++;
        }
        if (closes) {
            open.remove(thread);
            lastWarning.remove(thread);
            touched.add(thread);
        }
    }

    /**
     * Where the code starts after a location's line number at {@code p}: past " -> ", or 2.30.7's " (function) -> "; -1
     * when neither follows.
     */
    static int arrow(String line, int p) {
        int q = digitsEnd(line, p);
        if (q == p) {
            return -1;
        }
        if (line.startsWith(" -> ", q)) {
            return q + 4;
        }
        if (!line.startsWith(" (", q)) {
            return -1;
        }
        int close = line.indexOf(')', q + 2);
        if (close < 0 || close - q > 80 || line.indexOf(' ', q + 2) < close) {
            return -1;
        }
        return line.startsWith(" -> ", close + 1) ? close + 5 : -1;
    }

    private static final long ARROW = ByteWords.word(" -> \0\0\0\0") & 0xFFFF_FFFFL;
    private static final int SPACE_PAREN = ' ' | '(' << 8;

    /**
     * {@link #arrow} from a block's bytes, for the block scanner: after the line number at {@code p}, " -> ", or " (", a
     * function's name and ") -> ". A few byte compares on a source location's line; only 2.30.7's form reads the name.
     */
    static boolean arrow(ByteWords b, int p, int end) {
        int q = ByteWords.digitsEnd(b, p, end);
        long w = b.bytesAt(q);
        if ((w & 0xFFFF_FFFFL) == ARROW) {
            return true;
        }
        if ((w & 0xFFFF) != SPACE_PAREN) {
            return false;
        }
        for (int k = q + 2; k < end && k < q + 80; k++) {
            int c = b.byteAt(k);
            if (c == ')') {
                return (b.bytesAt(k + 1) & 0xFFFF_FFFFL) == ARROW;
            }
            if (c == ' ') {
                return false;
            }
        }
        return false;
    }

    /** The code at {@code p} (up to six digits), or -1. */
    private static int codeAt(String line, int p) {
        if (p < 0) {
            return -1;
        }
        int end = digitsEnd(line, p);
        return end == p || end - p > 6 ? -1 : Integer.parseInt(line.substring(p, end));
    }

    private static int digitsEnd(String line, int p) {
        while (p >= 0 && p < line.length() && MessageKinds.digit(line.charAt(p))) {
            p++;
        }
        return p;
    }

    /**
     * The thread of a line whose prefix ends at {@code cut}: "host:pid:tid" from NCCL's prefix, else the prefix itself
     * ("[0]" where only the device was kept), "" when it is longer than a prefix can be.
     */
    private static String thread(String line, int cut) {
        return LogMessages.thread(line, cut).orElseGet(() -> cut <= PREFIX_MAX ? line.substring(0, cut).strip() : "");
    }

    /** A WARN line ("NCCL WARN" at {@code first}), judged: harmless, read by another rule, or kept as a warning. */
    void warning(LogBuilder b, String line, int first) {
        String message = line.substring(Math.min(line.length(), first + "NCCL WARN ".length()));
        if (WarnLines.harmless(message) != null) {
            harmlessCount++;
            if (harmless.size() < KEEP) {
                harmless.add(b.kept(line));
            }
            return;
        }
        if (WarnLines.judgedElsewhere(message)) {
            elsewhere++;
            return;
        }
        warningCount++;
        String kept = b.kept(line);
        if (warnings.size() < KEEP) {
            warnings.add(kept);
        }
        String thread = b.text(thread(line, WarnLines.prefixEnd(line, first)));
        lastWarning.put(thread, kept);
        touched.add(thread);
        open.remove(thread); // a WARN reports another error: the -> lines after it are its chain, not the last one's
    }

    /**
     * Adds what a later range of the same file read, as one pass would have: a thread's first chain there goes on with
     * its chain left open here when its first line would have (same code, a new location, no WARN of the thread before
     * it in its range), and a chain there whose
     * thread had no warning or ended chain before it in its range takes the warning this range left for that thread.
     */
    void absorb(ErrorChains o) {
        Set<Chain> joined = new HashSet<>();
        for (Map.Entry<String, Chain> e : o.first.entrySet()) {
            Chain mine = open.get(e.getKey());
            Chain theirs = e.getValue();
            if (mine != null && theirs.inherits && mine.continuedBy(theirs.code, theirs.firstLocation)) {
                chains--;
                failed -= mine.failed && theirs.failed ? 1 : 0;
                mine.join(theirs);
                joined.add(theirs);
            }
        }
        for (Chain c : o.kept) { // after the joins, which read whether a chain came first in its thread
            if (c.inherits && touched.contains(c.thread)) {
                c.cause = lastWarning.get(c.thread);
                c.inherits = false;
            }
        }
        for (Chain c : o.kept) {
            if (!joined.contains(c) && kept.size() < KEEP) {
                kept.add(c);
            }
        }
        chains += o.chains;
        failed += o.failed;
        chainLines += o.chainLines;
        for (Map.Entry<String, Chain> e : o.first.entrySet()) { // the threads whose chain the later range replaced or went on with
            String t = e.getKey();
            Chain now = o.open.get(t);
            Chain mine = open.remove(t);
            if (joined.contains(now)) {
                now = mine;
            }
            if (now != null) {
                open.put(t, now);
            }
            first.putIfAbsent(t, e.getValue());
        }
        for (String t : o.touched) {
            String w = o.lastWarning.get(t);
            if (w == null) {
                lastWarning.remove(t);
            } else {
                lastWarning.put(t, w);
            }
        }
        touched.addAll(o.touched);
        warningCount += o.warningCount;
        addKept(warnings, o.warnings); // loops, not streams: this runs once per parse, before the JIT (a lambda is linked at first use)
        harmlessCount += o.harmlessCount;
        addKept(harmless, o.harmless);
        elsewhere += o.elsewhere;
    }

    /** The first of {@code from} while {@code into} holds fewer than {@link #KEEP}. */
    private static void addKept(List<String> into, List<String> from) {
        for (int i = 0; i < from.size() && into.size() < KEEP; i++) {
            into.add(from.get(i));
        }
    }

    NcclLog.Errors build() {
        List<NcclLog.ErrorChain> built = new ArrayList<>();
        for (Chain c : kept) {
            built.add(c.build());
        }
        return new NcclLog.Errors(List.copyOf(built), chains, failed, chainLines, List.copyOf(warnings), warningCount,
                List.copyOf(harmless), harmlessCount, elsewhere);
    }
}
