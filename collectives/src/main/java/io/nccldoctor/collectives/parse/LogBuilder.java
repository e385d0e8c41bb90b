package io.nccldoctor.collectives.parse;

import io.nccldoctor.collectives.parse.MessageKinds.Kind;
import io.nccldoctor.collectives.parse.NcclLog.GdrLine;
import io.nccldoctor.collectives.parse.NcclLog.IbError;
import io.nccldoctor.collectives.parse.NcclLog.NicGdr;
import io.nccldoctor.core.InputException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The message half of the NCCL log parser: what the lines say (versions, networks, transports, GDR decisions,
 * communicators, the environment, topology dumps, algorithms, warnings and IB completion errors, watchdog timeouts, and
 * per process what a job should agree on), kept with the limits on examples, and joined in file order when a file was
 * read in several ranges. A line is read by the kind of its first NCCL message ({@link MessageKinds}), the same way
 * whether it comes as a string (the reference reader, pasted excerpts) or from the block scanner's bytes.
 */
final class LogBuilder extends BlockScanner {

    private static final int KEEP = NcclLog.KEEP;
    private static final Pattern ALGO = Pattern.compile("(?:[Aa]lgorithm|[Aa]lgo) (\\w+)[ ,]+(?:[Pp]rotocol|proto) (\\w+)");

    /** Lines arrive as Latin-1 views from a file; those kept are re-read as UTF-8. */
    private final boolean latin1;
    /** The lines come without NCCL's prefix: each is recognised by its message alone ({@link MessageKinds#bare}). */
    final boolean bare;
    final Set<String> versions = new LinkedHashSet<>();
    final Map<String, Long> transports = new TreeMap<>();
    final List<GdrLine> gdr = new ArrayList<>();
    final List<NicGdr> nicGdr = new ArrayList<>();
    final Set<String> gdrSeen = new LinkedHashSet<>();
    final GdrCounts gdrCounts = new GdrCounts();
    final IntCounts comms = new IntCounts();
    final Map<String, Long> algorithms = new LinkedHashMap<>();
    final TuningCounts tuning = new TuningCounts();
    long warnings;
    final List<String> firstWarnings = new ArrayList<>();
    final List<IbError> ibErrors = new ArrayList<>();
    boolean acsHint;
    final List<String> watchdog = new ArrayList<>();
    /** PyTorch's heartbeat monitor found the watchdog thread stuck ({@link TorchWatchdog}): the first lines. */
    final List<String> watchdogHangs = new ArrayList<>();
    /**
     * Network channel connections through another rank's NIC (PXN): "NET/IB/0(3)/GDRDMA" is NIC 0 of rank 3, reached
     * through that rank's proxy; counted under "NET/IB/0/GDRDMA" in {@link #transports} ({@link #proxied}).
     */
    long pxnChannels;
    /**
     * A line that starts with "RCCL version" (after blanks), in a log with NCCL's prefix, and where it ends (its newline,
     * or the log's end) from the start of the source: of this builder's range until {@link LogReader#join} places it in
     * the file.
     */
    record Banner(long end, String line) {
    }

    /** Such lines that start within the log's first {@link LogReader#SNIFF} bytes ({@link BlockScanner#bannerBefore}). */
    final List<Banner> banners = new ArrayList<>();
    final NetworkLog network = new NetworkLog();
    final InitLog init = new InitLog();
    final SystemDumps dumps = new SystemDumps();
    final NicDistances nicDistances = new NicDistances();
    final ErrorChains errors = new ErrorChains();
    /** The InfiniBand async events NCCL warned about ({@link IbAsyncEvents}). */
    final IbAsyncEvents asyncEvents = new IbAsyncEvents();
    /** PyTorch's DistBackendError lines for a failed NCCL call ({@link TorchNcclErrors}). */
    final TorchNcclErrors torchErrors = new TorchNcclErrors();
    /** Each GPU's multi-node NVLink fabric line ({@link MnnvlFabric}). */
    final MnnvlFabric mnnvl = new MnnvlFabric();
    /** The last non-blank line read, as written ({@link CutLastLine}); null before one. */
    private String lastLine;
    long unknownMessages;
    /** Per process ("node01:4242"), in the order they first appear. */
    final Processes processes;
    /** In a pasted dump without NCCL's prefix: its lines are recognised once its "=== System" line was seen. */
    private boolean inBareDump;

    LogBuilder(boolean latin1, boolean bare) {
        this.latin1 = latin1;
        this.bare = bare;
        this.bareLines = bare;
        this.processes = new Processes(latin1);
    }

    String kept(String line) {
        return text(line).strip();
    }

    /** Text as written: lines read from bytes are Latin-1 views of UTF-8. */
    String text(String s) {
        return latin1 ? new String(s.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8) : s;
    }

    boolean isNccl() {
        return ncclLines > 0 || !watchdog.isEmpty() || !watchdogHangs.isEmpty() || torchErrors.any();
    }

    NcclLog finish(String source) {
        if (!isNccl()) {
            throw new InputException(source + ": not an NCCL debug log (no 'NCCL INFO' or 'NCCL WARN' line, no PyTorch watchdog or "
                    + "'NCCL error in:' line, "
                    + "no line in NCCL's wording); run with NCCL_DEBUG=INFO (NCCL_DEBUG_FILE=path.%h.%p writes one file per process)");
        }
        return build();
    }

    /*
     * The line that is being read, for the process its effects are noted under: a string with its first "NCCL " at
     * curFirst (-1: none), or the block's bytes [curStart, curNccl).
     */
    private String curLine;
    private int curFirst;
    private int curStart;
    private int curNccl;

    /** The process of the line being read; empty without NCCL's host:pid:tid prefix. */
    Optional<Processes.Facts> process() {
        return Optional.ofNullable(current());
    }

    /** The same, null without the prefix. */
    Processes.Facts current() {
        return curLine != null ? processes.of(curLine, curFirst).orElse(null) : processes.at(buf, curStart, curNccl, this);
    }

    /**
     * The thread ("host:pid:tid") of the line being read, which a topology dump is assembled by: the threads of one
     * process each print one when it initialises several GPUs, and their lines interleave; "" without the prefix.
     */
    String thread() {
        Processes.Facts p = current();
        return p == null ? "" : curLine != null ? processes.lineThread() : processes.thread();
    }

    @Override
    void netChannel(int key, int start, int nccl) {
        Processes.Facts p = processes.at(buf, start, nccl, this);
        if (p != null) {
            p.netKeys.set(key);
        }
    }

    /**
     * One line (without its newline); the caller counts it. A line whose first "NCCL " starts an INFO message of a known
     * kind is read by that kind alone ({@link MessageKinds}), whatever else interleaved output glued onto it: the block
     * scanner decides the same from the line's first bytes. Other lines keep the general reading: warnings, IB
     * completion errors, NCCL's ACS hint, PyTorch's watchdog timeouts and hangs, the bare version banner.
     */
    @Override
    void accept(String line) {
        int first = line.indexOf("NCCL ");
        if (first >= 0 && line.startsWith("NCCL INFO ", first)) {
            int msg = first + 10;
            Kind kind = MessageKinds.of(line, msg); // a per-operation line is SKIP: counted only
            if ((kind == Kind.SKIP || kind == Kind.OTHER) && errors.info(this, line, first, msg)) { // "init.cc:1089 -> 3"
                ncclLines++;
                return;
            }
            if (kind != Kind.OTHER) {
                ncclLines++;
                known(kind, line, first, msg);
                return;
            }
        }
        if (first >= 0 && line.contains("ACS is enabled")) { // NCCL's "HINT: In many cases this error occurs when ACS is enabled …"
            acsHint = true;
        }
        boolean ncclMessage = first >= 0 && (line.startsWith("NCCL INFO", first) || line.startsWith("NCCL WARN", first));
        if (torchWatchdog(line, !ncclMessage)) {
            return;
        }
        if (first < 0) {
            if (line.indexOf('<') >= 0) { // as the block scanner hands such a line over
                libfabricLines.read(text(line));
            }
            return;
        }
        if (InitMessages.symbolFailure(line)) {
            init.symbolFailure(kept(line));
        }
        if (line.startsWith("NCCL WARN", first)) {
            ncclLines++;
            warning(line, first);
        } else if (line.startsWith("NCCL INFO", first)) {
            ncclLines++;
            other(line, first);
        } else if (line.startsWith("NCCL version", first)) { // the banner NCCL prints without INFO
            version(line, first);
        } else if (line.startsWith(TorchNcclErrors.WORDS, first) && line.lastIndexOf('`', first) < 0) {
            torchError(line); // PyTorch's DistBackendError for a failed NCCL call; after a backtick it is Markdown quoting it
        } else if (line.startsWith(TorchNcclErrors.XLA_WORDS, first) && line.indexOf(" failed: ", first) > 0
                && line.lastIndexOf('`', first) < 0) {
            String t = text(line); // XLA's status for a failed NCCL call (JAX, TensorFlow); after a backtick, Markdown quoting it
            torchErrors.readXla(t, t.indexOf(TorchNcclErrors.XLA_WORDS), t.strip());
        }
    }

    /**
     * Keeps a line of PyTorch's watchdog ({@link TorchWatchdog}, its hang messages only when {@code hangs}); false when the
     * line is none of them.
     */
    private boolean torchWatchdog(String line, boolean hangs) {
        TorchWatchdog.Said said = TorchWatchdog.of(line, hangs);
        List<String> kept = said == TorchWatchdog.Said.TIMEOUT ? watchdog : said == TorchWatchdog.Said.HANG ? watchdogHangs : null;
        if (kept != null && kept.size() < KEEP) {
            kept.add(kept(line));
        }
        return kept != null;
    }

    /** Whole lines of a file, as the block scanner reads them; then the block's last non-blank line is noted (once per block). */
    @Override
    void acceptBlock(ByteBuffer buf, long[] words, int len) {
        super.acceptBlock(buf, words, len);
        int end = len;
        while (end > 0) {
            int start = end - 1;
            while (start > 0 && buf.get(start - 1) != '\n') {
                start--;
            }
            String line = line(buf, start, end);
            if (!line.isBlank()) {
                lastLine = text(line);
                return;
            }
            end = start - 1;
        }
    }

    /** A line as the reference reader gives it. */
    void acceptLine(String line) {
        if (follow) {
            follow(line);
        }
        if (!line.isBlank()) {
            lastLine = line;
        }
        if (bare) {
            acceptBare(line);
        } else {
            accept(line);
        }
    }

    /**
     * A line of a pasted excerpt without NCCL's prefix, looked at for every wording the reader knows: PyTorch's watchdog
     * lines; a line that starts with NCCL's own words ("NCCL WARN", the version banner), read as usual; an NCCL message in
     * NCCL's wording, which may name "NCCL " itself ("NET/Plugin: Loaded net plugin NCCL RDMA Plugin v8 (v8)"); a line of
     * the topology dump it is in.
     */
    void acceptBare(String line) {
        if (torchWatchdog(line, true)) {
            return;
        }
        int msg = MessageKinds.bare(line);
        int first = line.indexOf("NCCL ");
        if (first >= 0 && (msg < 0 || first <= msg)) {
            accept(line);
            return;
        }
        if (msg < 0 && inBareDump) {
            msg = MessageKinds.bareDumpLine(line);
        }
        if (msg < 0) {
            if (line.indexOf('<') >= 0) { // no "NCCL " here: libfabric's line, maybe
                libfabricLines.read(text(line));
            }
            return;
        }
        ncclLines++;
        Kind kind = MessageKinds.of(line, msg);
        inBareDump = kind == Kind.TOPO && (inBareDump || line.startsWith("=== System", msg)) && !line.startsWith("=====", msg);
        known(kind == Kind.OTHER ? Kind.SKIP : kind, line, -1, msg);
    }

    /**
     * A message of a known kind at {@code msg}, its line's first "NCCL " at {@code first} (-1: a line without the prefix).
     * A dump line is read from past its indentation, as the block scanner does.
     */
    private void known(Kind kind, String line, int first, int msg) {
        if (kind == Kind.TOPO) {
            while (msg < line.length() && line.charAt(msg) == ' ') {
                msg++;
            }
        }
        switch (kind) {
            case SKIP -> {
            }
            case CHANNEL -> {
                int via = line.lastIndexOf(" via ");
                channel(line, first, via >= msg + 8 ? via : -1);
            }
            default -> {
                curLine = line;
                curFirst = first;
                current(); // its process is counted whatever the message says, as from bytes
                effects.read(kind, line, msg).apply(this);
                curLine = null;
            }
        }
    }

    /** What each message of a known kind does. */
    private final MessageEffects effects = new MessageEffects(this);

    /** A dump's link line read from bytes. */
    private final DumpLinkBytes dumpLink = new DumpLinkBytes();

    /**
     * From bytes: a dump's link line is counted from its bytes; what another message said is remembered by its text, so
     * that a repeated message is read once.
     */
    @Override
    void message(Kind kind, int start, int nccl, int msg, int end) {
        if (kind == Kind.TOPO && dumpLink.read(this, msg, end)) {
            ncclLines++;
            DumpLinkBytes d = dumpLink;
            if (!dumps.named(d.bw)) {
                dumps.name(d.bw, line(buf, d.bwFrom, d.bwTo));
            }
            if (d.link == SystemDumps.OTHER_LINK && !dumps.named(d.typeKey)) {
                dumps.name(d.typeKey, line(buf, d.typeFrom, d.typeTo));
            }
            Processes.Facts p = processes.at(buf, start, nccl, this);
            dumps.link(p == null ? "" : processes.thread(), d.link, d.typeKey, d.bw, d.node, d.id);
            return;
        }
        // every process that printed a message of a kind read here is counted, whether or not the message names something
        // the processes should agree on (an environment line, a device list): the common dump line above has its own
        processes.at(buf, start, nccl, this);
        if (kind == Kind.GDR && gdr.size() >= 64 && gdrBytes.read(this, start, nccl, msg, end)) {
            ncclLines++; // the examples are kept: only the decision is counted
            curStart = start;
            curNccl = nccl;
            gdrCounts.add(gdrDecision());
            return;
        }
        boolean communicatorLine = kind == Kind.COMM || kind == Kind.INIT; // each holds the communicator's address and rank
        if (communicatorLine && communicator.read(this, start, nccl, msg, end)) {
            ncclLines++;
            curStart = start;
            curNccl = nccl;
            communicator();
            return;
        }
        // a GPU Direct RDMA decision is read from the line's start, so a line whose prefix holds a 'G' (and so maybe
        // another decision's text) is read on its own
        boolean repeats = !communicatorLine && !((kind == Kind.GDR || kind == Kind.NETWORK) && GdrBytes.anyG(this, start, nccl));
        MessageEffects.Effect e = repeats ? (MessageEffects.Effect) memo.get(this, msg, end) : null;
        boolean seen = e != null;
        if (e == null) {
            e = effects.read(kind, line(buf, start, end), msg - start);
            if (repeats) {
                memo.put(this, msg, end, e);
            }
        }
        ncclLines++;
        curStart = start;
        curNccl = nccl;
        e.apply(this);
        if (seen && e.once()) {
            memo.replace(MessageEffects.Effect.NONE); // applied: its repeats change nothing
        }
    }

    /** A GPU Direct RDMA decision read from bytes, and the last decision counted (consecutive ones are mostly alike). */
    private final GdrBytes gdrBytes = new GdrBytes();
    private NcclLog.GdrCount lastGdr;

    private NcclLog.GdrCount gdrDecision() {
        GdrBytes g = gdrBytes;
        NcclLog.GdrCount d = lastGdr;
        if (d == null || d.enabled() != g.enabled || d.distance() != g.distance || d.threshold() != g.threshold
                || !d.relation().equals(g.relation)) {
            d = effects.decision(g.enabled, g.distance, g.relation, g.threshold, NcclLog.GdrWording.before229(g.relation));
            lastGdr = d;
        }
        return d;
    }

    /** A communicator's line read from bytes. */
    private final CommunicatorBytes communicator = new CommunicatorBytes();

    /** What {@link #communicator} read does, as {@link MessageEffects} does for the same line read as a string. */
    private void communicator() {
        CommunicatorBytes c = communicator;
        if (c.init) {
            if (c.complete) {
                comms.add(c.nranks);
            }
            if (c.busFrom >= 0) {
                String bus = busId(c.busFrom, c.busTo);
                init.communicator(c.nranks, bus, c.complete, c.commId);
                Processes.Facts p = current();
                if (p != null) {
                    p.busIds.add(bus);
                }
            }
        } else if (c.nodes >= 0) {
            init.nodes(c.nodes);
        }
    }

    /** The bus ids seen, by their bytes (a job's GPUs have a handful), so that a line costs no string. */
    private final long[] busKeys = new long[64];
    private final String[] busTexts = new String[64];

    private String busId(int from, int to) {
        long key = to - from <= 8 ? textWord(from, to) : 0;
        for (int i = 0; key != 0 && i < busKeys.length; i++) {
            if (busKeys[i] == key) {
                return busTexts[i];
            }
            if (busKeys[i] == 0) {
                busKeys[i] = key;
                busTexts[i] = line(buf, from, to);
                return busTexts[i];
            }
        }
        return line(buf, from, to);
    }

    /**
     * A message of no kind in the table, read as every INFO line once was: GDR text anywhere, a transport after " via ",
     * a version, a communicator, a network line, an algorithm.
     */
    private void other(String line, int first) {
        int msg = first + "NCCL INFO ".length();
        if (line.indexOf(": opCount", msg) > 0) {
            return;
        }
        if (!line.contains(" Bytes -> Algo ")) { // a tuning line is counted from bytes, without its process
            processes.of(line, first);
        }
        if (LogMessages.tuningTableRow(line, msg)) {
            return; // a row of NCCL's tuning model table: known, and nothing in it this parser reads
        }
        if (!line.contains(" Bytes -> Algo ") || LogMessages.tuning(line).isEmpty()) { // a tuning line is a kind the bytes count
            unknownMessages++;
        }
        int via = line.indexOf(" via ", msg);
        if (line.indexOf("GPU Direct RDMA", msg) >= 0) { // before " via ": 2.29 says "using PXN via GPU/…"
            curLine = line;
            curFirst = first;
            effects.gdrEffect(line).apply(this);
            curLine = null;
        } else if (via > 0) {
            channel(line, first, via);
        } else if (line.indexOf("NCCL version", msg) >= 0) {
            version(line, first);
        } else if (line.indexOf("Init COMPLETE", msg) >= 0) {
            LogMessages.communicatorSize(line).ifPresent(comms::add);
        } else if (line.indexOf("NET/", msg) >= 0 || line.indexOf("Using network", msg) >= 0) {
            LogMessages.network(line).ifPresent(said -> {
                curLine = line;
                curFirst = first;
                MessageEffects.networkEffect(NetworkLog.read(text(said))).apply(this);
                curLine = null;
            });
        } else if (line.indexOf("lgo", msg) >= 0) {
            algorithm(line);
        }
    }

    /**
     * The transport of a channel line: what follows " via " (at {@code via}, -1 when there is none) to the first blank,
     * a network's name whole even with spaces ("NET/AWS Libfabric/0/GDRDMA", as the block scanner's transportEnd reads
     * it); a network one is noted for the line's process ("NCCL " at {@code first}).
     */
    private void channel(String line, int first, int via) {
        int from = via + 5;
        int to = from;
        if (via > 0 && line.startsWith("NET/", from) && line.length() - from > 4) {
            for (int q = from + 4; q < line.length() && q < from + 52; q++) {
                if (line.charAt(q) == '/') {
                    to = q;
                    break;
                }
            }
        }
        while (via > 0 && to < line.length() && !space(line.charAt(to))) {
            to++;
        }
        if (to > from) {
            String transport = text(line.substring(from, to));
            transports.merge(proxied(transport, 1), 1L, Long::sum);
            if (transport.startsWith("NET/") && transport.length() > 4) {
                processes.of(line, first).ifPresent(p -> p.netTransports.add(transport));
            }
        }
    }

    /**
     * A network transport as one NIC's, whichever rank's proxy drives it: on a send channel NCCL prints "NET/%s/%d(%d)"
     * with the rank whose proxy (and NIC) the channel goes through when that is another rank, PXN (src/transport/net.cc
     * sendSetup, 2.12 to 2.30), so "NET/IB/0(3)/GDRDMA/Shared" is counted as "NET/IB/0/GDRDMA/Shared", its {@code n}
     * connections in {@link #pxnChannels}. Runs once per distinct transport of a range and per channel line read as a string.
     */
    String proxied(String transport, long n) {
        if (!transport.startsWith("NET/")) {
            return transport;
        }
        int slash = transport.indexOf('/', 4); // the network's name may hold spaces, not a '/'
        int digits = slash + 1;
        while (slash > 0 && digits < transport.length() && MessageKinds.digit(transport.charAt(digits))) {
            digits++;
        }
        int open = digits;
        int close = slash > 0 && open < transport.length() && transport.charAt(open) == '(' ? transport.indexOf(')', open) : -1;
        if (digits == slash + 1 || close < open + 2 || !allDigits(transport, open + 1, close)) {
            return transport;
        }
        pxnChannels += n;
        return transport.substring(0, open) + transport.substring(close + 1);
    }

    private static boolean allDigits(String s, int from, int to) {
        for (int k = from; k < to; k++) {
            if (!MessageKinds.digit(s.charAt(k))) {
                return false;
            }
        }
        return true;
    }

    /**
     * RCCL's version banner, "RCCL version : 2.21.5-HEAD:9a0e6a1" (or, before, "RCCL version 2.16.5+hip5.6 HEAD:…"),
     * which RCCL prints with printf at a process's first initialisation, without NCCL's prefix and without the word
     * "NCCL" (src/init.cc showVersion), so the block scanner, which reads only lines that hold "NCCL", looks for it at the
     * start of the lines within a log's first {@link LogReader#SNIFF} bytes ({@link #banners}).
     * Kept as RCCL's version, before the versions read from the lines.
     */
    private void rcclBanners() {
        if (banners.isEmpty()) {
            return; // nearly every log
        }
        Set<String> found = new LinkedHashSet<>();
        banners.sort((a, b) -> Long.compare(a.end(), b.end()));
        for (Banner b : banners) {
            String line = b.line();
            int msg = b.end() < LogReader.SNIFF ? MessageKinds.bare(line) : -1;
            if (msg >= 0 && line.startsWith("RCCL version", msg)) {
                LogMessages.version(line.substring(msg)).ifPresent(found::add);
            }
        }
        if (!found.isEmpty()) {
            found.addAll(versions);
            versions.clear();
            versions.addAll(found);
        }
    }

    private void version(String line, int first) {
        LogMessages.version(line).ifPresent(v -> {
            curLine = line;
            curFirst = first;
            addVersion(v);
            curLine = null;
        });
    }

    void addVersion(String v) {
        versions.add(v);
        process().ifPresent(p -> p.versions.add(v));
    }

    /**
     * The first lines of what this builder read (at most {@link TorchNcclErrors#LOOK} + 1, as written): a range of a large
     * file that starts inside PyTorch's error block completes the error the range before it read ({@link #absorb}).
     */
    private final List<String> head = new ArrayList<>(TorchNcclErrors.LOOK + 1);

    /** libfabric's warnings (aws-ofi-nccl runs on libfabric). */
    final LibfabricLines libfabricLines = new LibfabricLines();

    @Override
    void rcclBanner(int start, int end) {
        byte[] bytes = new byte[end - start];
        buf.get(start, bytes);
        banners.add(new Banner(blockOffset + end, new String(bytes, StandardCharsets.UTF_8)));
    }

    /** Where the block being read starts in its source, for {@link #banners}. */
    long blockOffset;

    @Override
    void libfabricLine(int start, int end) {
        libfabricLines.read(text(line(buf, start, end)));
    }

    /** The first lines are kept, and the lines after a PyTorch error are handed to it while it looks for its last error. */
    @Override
    void follow(String line) {
        String t = text(line);
        if (head.size() <= TorchNcclErrors.LOOK) {
            head.add(t);
        }
        if (torchErrors.following()) {
            torchErrors.follow(t);
        }
        follow = head.size() <= TorchNcclErrors.LOOK || torchErrors.following();
    }

    /** A PyTorch DistBackendError line: read, and the NCCL version it names kept as the log's (without a process). */
    private void torchError(String line) {
        String t = text(line);
        int at = t.indexOf(TorchNcclErrors.WORDS);
        torchErrors.read(t, at, t.strip());
        follow |= torchErrors.following();
        int v = t.indexOf(", NCCL version ", at);
        if (v > 0) {
            LogMessages.version(t.substring(v + 2)).ifPresent(versions::add);
        }
    }

    private void warning(String line, int first) {
        warnings++;
        if (line.indexOf("async ", first) >= 0) { // an InfiniBand async event: counted per port and event
            String t = text(line);
            int at = t.indexOf("NCCL WARN");
            asyncEvents.read(t.substring(Math.min(t.length(), at + "NCCL WARN ".length())), t.strip());
        }
        errors.warning(this, line, first);
        processes.of(line, LogMessages.beforeSourceLocation(line, first));
        int ibverbs = line.indexOf("Failed to open libibverbs"); // a WARN up to 2.11, INFO since (misc/ibvwrap.cc, ibvsymbols.cc)
        if (ibverbs >= 0) {
            network.add(NetworkLog.read(text(line.substring(ibverbs))));
        }
        if (firstWarnings.size() < KEEP) {
            firstWarnings.add(kept(line));
        }
        if (ibErrors.size() < KEEP && line.contains("Got completion ")) {
            IbCompletions.read(line, kept(line)).ifPresent(ibErrors::add);
        }
    }


    /**
     * Each decision once per GPU and NIC (every process prints its own), at most 64 (the line kept only then); every
     * decision counted by its kind, so that none beyond the examples goes unseen.
     */
    void addGdr(String key, Supplier<GdrLine> g, NcclLog.GdrCount decision) {
        if (gdr.size() < 64 && gdrSeen.add(key)) {
            gdr.add(g.get());
        }
        gdrCounts.add(decision);
    }

    private final Set<String> nicGdrSeen = new HashSet<>();


    /** Each NIC's support line once (every process prints it), at most 64. */
    void addNicGdr(String key, NicGdr n) {
        if (nicGdr.size() < 64 && nicGdrSeen.add(key)) {
            nicGdr.add(n);
        }
    }

    private void algorithm(String line) {
        Optional<NcclLog.Tuning> choice = line.contains(" Bytes -> Algo ") ? LogMessages.tuning(line) : Optional.empty();
        if (choice.isPresent()) { // a tuning line: its enums named, whatever the version printed
            tuning.add(choice.get());
            algorithms.merge(choice.get().algorithm() + "/" + choice.get().protocol(), 1L, Long::sum);
            return;
        }
        Matcher m = ALGO.matcher(line);
        if (m.find()) {
            algorithms.merge(m.group(1) + "/" + m.group(2), 1L, Long::sum);
        }
    }

    /** Counts a tuning line from its bytes (see {@link BlockScanner#tuningSpanEnd}). */
    @Override
    boolean tuning(int start, int nccl, int colon) {
        int spanEnd = tuningSpanEnd(start, nccl, colon);
        if (spanEnd < 0) {
            return false;
        }
        int name = nccl + "NCCL INFO ".length();
        byte[] bytes = new byte[spanEnd - name];
        buf.get(name, bytes);
        tuning.addSpan(new String(bytes, StandardCharsets.ISO_8859_1), algorithms);
        ncclLines++;
        return true;
    }

    /** Moves the transports counted from bytes into the map. */
    private void foldTransports() {
        if (channelTransports.size() == 0) {
            return; // nothing counted since the last fold, and so no process names a transport by its index
        }
        processes.foldNetKeys(channelTransports);
        for (int k = 0; k < channelTransports.size(); k++) {
            long n = channelTransports.count(k);
            transports.merge(proxied(channelTransports.name(k), n), n, Long::sum);
        }
        clearTransports();
    }

    /**
     * What a range can do before it is joined, in its own thread while the others still read: the tuning spans and
     * channel transports it counted from bytes moved into its maps (which {@link #absorb} and {@link #build} would
     * otherwise do one range after another; once done, doing it again changes nothing).
     */
    void settle() {
        tuning.fold(algorithms);
        foldTransports();
    }

    /** Adds what a later range of the same file found, keeping file order and the limits on examples. */
    void absorb(LogBuilder o) {
        tuning.fold(algorithms);
        o.tuning.fold(o.algorithms);
        foldTransports();
        o.foldTransports();
        lines += o.lines;
        ncclLines += o.ncclLines;
        unknownMessages += o.unknownMessages;
        versions.addAll(o.versions);
        network.absorb(o.network);
        init.absorb(o.init);
        dumps.absorb(o.dumps);
        nicDistances.absorb(o.nicDistances);
        // loops, not forEach with lambdas: this runs once per parse, before the JIT, and a lambda is linked at its first use
        addAll(transports, o.transports);
        for (GdrLine g : o.gdr) {
            if (gdr.size() < 64 && gdrSeen.add(MessageEffects.gdrKey(g))) {
                gdr.add(g);
            }
        }
        gdrCounts.absorb(o.gdrCounts);
        gdrSeen.addAll(o.gdrSeen);
        for (NicGdr n : o.nicGdr) {
            addNicGdr(MessageEffects.nicKey(n), n);
        }
        acsHint |= o.acsHint;
        comms.absorb(o.comms);
        addAll(algorithms, o.algorithms);
        tuning.absorb(o.tuning);
        warnings += o.warnings;
        firstWarnings.addAll(o.firstWarnings.subList(0, Math.min(o.firstWarnings.size(), KEEP - firstWarnings.size())));
        ibErrors.addAll(o.ibErrors.subList(0, Math.min(o.ibErrors.size(), KEEP - ibErrors.size())));
        watchdog.addAll(o.watchdog.subList(0, Math.min(o.watchdog.size(), KEEP - watchdog.size())));
        watchdogHangs.addAll(o.watchdogHangs.subList(0, Math.min(o.watchdogHangs.size(), KEEP - watchdogHangs.size())));
        pxnChannels += o.pxnChannels;
        processes.absorb(o.processes);
        errors.absorb(o.errors);
        asyncEvents.absorb(o.asyncEvents);
        torchErrors.absorb(o.torchErrors, o.head);
        libfabricLines.absorb(o.libfabricLines);
        mnnvl.absorb(o.mnnvl);
        if (o.lastLine != null) {
            lastLine = o.lastLine;
        }
    }

    /** Adds each count of {@code from} to {@code into}'s. */
    private static void addAll(Map<String, Long> into, Map<String, Long> from) {
        for (Map.Entry<String, Long> e : from.entrySet()) {
            Long before = into.get(e.getKey());
            into.put(e.getKey(), before == null ? e.getValue() : before + e.getValue());
        }
    }

    NcclLog build() {
        rcclBanners();
        foldTransports();
        tuning.fold(algorithms);
        List<NcclLog.SystemDump> systems = dumps.finish();
        String cut = CutLastLine.takeBack(lastLine, transports, network);
        return new NcclLog(lines, ncclLines, versions, network.lines(), transports, gdr, init.completed(comms), algorithms, tuning.sorted(), nicGdr, warnings,
                firstWarnings, ibErrors, acsHint, watchdog, Collections.unmodifiableMap(processes.build()),
                Agreement.differences(processes.facts(), "processes"), network.build(), init.build(), systems, dumps.count,
                unknownMessages, bare, gdrCounts.build(), nicDistances.build(), List.copyOf(watchdogHangs), pxnChannels,
                errors.build(), asyncEvents.build(), torchErrors.build(), mnnvl.build(), cut,
                libfabricLines.build());
    }
}
