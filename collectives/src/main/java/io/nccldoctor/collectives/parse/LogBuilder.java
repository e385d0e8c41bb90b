package io.nccldoctor.collectives.parse;

import io.nccldoctor.collectives.parse.NcclLog.GdrLine;
import io.nccldoctor.collectives.parse.NcclLog.IbError;
import io.nccldoctor.collectives.parse.NcclLog.NicGdr;
import io.nccldoctor.collectives.parse.NcclLog.Process;
import io.nccldoctor.core.InputException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The message half of the NCCL log parser: what the lines say (versions, networks, transports, GDR decisions,
 * communicators, algorithms, warnings and IB completion errors, watchdog timeouts, and per process what a job should
 * agree on), kept with the limits on examples, and joined in file order when a file was read in several ranges.
 */
final class LogBuilder extends BlockScanner {

    private static final int KEEP = NcclLog.KEEP;
    /** Ray's deduplication suffix, "… [repeated 14x across cluster]". */
    private static final Pattern RAY_REPEATED = Pattern.compile("\\s*\\[repeated \\d+x across cluster\\]\\s*$");
    private static final Pattern ALGO = Pattern.compile("(?:[Aa]lgorithm|[Aa]lgo) (\\w+)[ ,]+(?:[Pp]rotocol|proto) (\\w+)");
    private static final Pattern IB_ERR = Pattern.compile("completion from peer .*?(?:status=|with error )(\\d+)(?:.*vendor err (\\d+))?");

    /** Lines arrive as Latin-1 views from a file; those kept are re-read as UTF-8. */
    private final boolean latin1;
    final Set<String> versions = new LinkedHashSet<>();
    final List<String> networks = new ArrayList<>();
    final Map<String, Long> transports = new TreeMap<>();
    final List<GdrLine> gdr = new ArrayList<>();
    final List<NicGdr> nicGdr = new ArrayList<>();
    final Set<String> gdrSeen = new LinkedHashSet<>();
    final Map<Integer, Long> comms = new TreeMap<>();
    final Map<String, Long> algorithms = new LinkedHashMap<>();
    /** Tuning choices by collective, size, algorithm and protocol; at most {@link #TUNING_KEEP} of them. */
    final Map<String, NcclLog.Tuning> tuning = new LinkedHashMap<>();
    private static final int TUNING_KEEP = 4096;
    long warnings;
    final List<String> firstWarnings = new ArrayList<>();
    final List<IbError> ibErrors = new ArrayList<>();
    boolean acsHint;
    final List<String> watchdog = new ArrayList<>();
    /** Per process ("node01:4242"), in the order they first appear. */
    final Map<String, ProcessFacts> processes = new LinkedHashMap<>();

    /** What one process logged that the processes of a job should agree on. */
    private static final class ProcessFacts {
        final Set<String> versions = new LinkedHashSet<>();
        final Set<String> networks = new LinkedHashSet<>();
        final Set<String> netTransports = new TreeSet<>();
        /** Network transports of channel lines read from bytes: indices into the builder's transportKeys. */
        final java.util.BitSet netKeys = new java.util.BitSet();

        void addAll(ProcessFacts o) {
            versions.addAll(o.versions);
            networks.addAll(o.networks);
            netTransports.addAll(o.netTransports);
        }

        Process build() {
            return new Process(java.util.Collections.unmodifiableSet(versions), java.util.Collections.unmodifiableSet(networks),
                    java.util.Collections.unmodifiableSet(netTransports));
        }
    }

    /** The text before "NCCL " of the last line looked up, and its process. */
    private String lastLinePrefix = "";
    private Optional<ProcessFacts> lastLineProcess = Optional.empty();

    /** The process of a line whose first "NCCL " is at {@code nccl}; empty without NCCL's host:pid:tid prefix. */
    private Optional<ProcessFacts> process(String line, int nccl) {
        if (nccl != lastLinePrefix.length() || !line.startsWith(lastLinePrefix)) {
            lastLinePrefix = line.substring(0, nccl);
            lastLineProcess = LogMessages.process(line, nccl).map(k -> processes.computeIfAbsent(text(k), x -> new ProcessFacts()));
        }
        return lastLineProcess;
    }

    /**
     * The prefix of the last channel line read from bytes (as little-endian words, the last one zero-padded), and its
     * process: consecutive lines mostly share it, and comparing a few words costs less than reading it again.
     */
    private long[] lastPrefix = new long[0];
    private int lastPrefixLength = -1;
    private Optional<ProcessFacts> lastProcess = Optional.empty();

    private Optional<ProcessFacts> process(ByteBuffer buf, int start, int nccl) {
        int n = nccl - start;
        boolean same = n == lastPrefixLength;
        for (int k = 0; same && k < n; k += 8) {
            same = prefixWord(start + k, n - k) == lastPrefix[k >>> 3];
        }
        if (!same) {
            lastPrefix = new long[(n + 7) >>> 3];
            for (int k = 0; k < n; k += 8) {
                lastPrefix[k >>> 3] = prefixWord(start + k, n - k);
            }
            lastPrefixLength = n;
            byte[] bytes = new byte[n];
            buf.get(start, bytes);
            lastProcess = process(new String(bytes, StandardCharsets.ISO_8859_1), n);
        }
        return lastProcess;
    }

    /** The word at {@code at}, cut to its first {@code left} bytes when fewer than eight are left. */
    private long prefixWord(int at, int left) {
        long w = bytesAt(at);
        return left >= 8 ? w : w & (1L << (left << 3)) - 1;
    }

    @Override
    void netChannel(int key, int start, int nccl) {
        process(buf, start, nccl).ifPresent(p -> p.netKeys.set(key));
    }

    LogBuilder(boolean latin1) {
        this.latin1 = latin1;
    }

    private String kept(String line) {
        return text(line).strip();
    }

    /** Text as written: lines read from bytes are Latin-1 views of UTF-8. */
    private String text(String s) {
        return latin1 ? new String(s.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8) : s;
    }

    boolean isNccl() {
        return ncclLines > 0 || !watchdog.isEmpty();
    }

    NcclLog finish(String source) {
        if (!isNccl()) {
            throw new InputException(source + ": not an NCCL debug log (no 'NCCL INFO' or 'NCCL WARN' line, no watchdog "
                    + "timeout); run with NCCL_DEBUG=INFO (NCCL_DEBUG_FILE=path.%h.%p writes one file per process)");
        }
        return build();
    }

    /**
     * One line (without its newline); the caller counts it. A line whose first "NCCL " starts a per-operation
     * message ("NCCL INFO AllReduce: opCount …", the ':' within 48 characters) is only counted, and one that starts
     * a channel message ("NCCL INFO Channel …") only gives its transport, whatever else interleaved output glued
     * onto it: the block scanner decides the same from the line's first bytes. Each kind of message has a small
     * method of its own, so that the JIT compiles only the ones a log exercises (a big method that inlines every
     * matcher costs more to compile than a gigabyte of COLL lines takes to scan).
     */
    @Override
    void accept(String line) {
        int first = line.indexOf("NCCL ");
        if (first >= 0 && line.startsWith("NCCL INFO ", first)) {
            int colon = line.indexOf(':', first + 10);
            if (colon >= 0 && colon < first + 10 + 48 && line.startsWith(": opCount", colon)) {
                ncclLines++;
                return;
            }
            if (line.startsWith("Channel ", first + 10)) {
                ncclLines++;
                channel(line, first, line.indexOf(" via ", first + 18));
                return;
            }
        }
        if (first >= 0 && line.contains("ACS is enabled")) { // NCCL's "HINT: In many cases this error occurs when ACS is enabled …"
            acsHint = true;
        }
        if (line.contains("Watchdog caught collective operation timeout")) {
            if (watchdog.size() < KEEP) {
                watchdog.add(kept(line));
            }
            return;
        }
        if (first < 0) {
            return;
        }
        if (line.startsWith("NCCL WARN", first)) {
            ncclLines++;
            warning(line);
        } else if (line.startsWith("NCCL INFO", first)) {
            ncclLines++;
            info(line, first);
        } else if (line.startsWith("NCCL version", first)) { // the banner NCCL prints without INFO
            version(line, first);
        }
    }

    /**
     * The transport of a channel line: the word after " via " (at {@code via}, -1 when there is none); a network one
     * is noted for the line's process ("NCCL " at {@code first}).
     */
    private void channel(String line, int first, int via) {
        int from = via + 5;
        int to = from;
        while (via > 0 && to < line.length() && !space(line.charAt(to))) {
            to++;
        }
        if (to > from) {
            String transport = line.substring(from, to);
            transports.merge(transport, 1L, Long::sum);
            if (transport.startsWith("NET/") && transport.length() > 4) {
                process(line, first).ifPresent(p -> p.netTransports.add(transport));
            }
        }
    }

    private void warning(String line) {
        warnings++;
        if (firstWarnings.size() < KEEP) {
            firstWarnings.add(kept(line));
        }
        if (line.contains("completion from peer") && ibErrors.size() < KEEP) {
            Matcher m = IB_ERR.matcher(line);
            if (m.find()) {
                ibErrors.add(new IbError(Integer.parseInt(m.group(1)), m.group(2) == null
                        ? io.nccldoctor.core.Fact.absent("no vendor err on this line (wrapped?)")
                        : io.nccldoctor.core.Fact.of(Integer.parseInt(m.group(2))), kept(line)));
            }
        }
    }

    /** An INFO message: "NCCL INFO " at {@code first}. */
    private void info(String line, int first) {
        int msg = first + "NCCL INFO ".length();
        if (line.indexOf(": opCount", msg) > 0) {
            return; // a per-operation line: the bulk of a COLL log, nothing in it for this parser
        }
        int via = line.indexOf(" via ", msg);
        if (line.indexOf("GPU Direct RDMA", msg) >= 0) { // before " via ": 2.29 says "using PXN via GPU/…"
            gdr(line);
        } else if (line.startsWith("Channel", msg) || via > 0) {
            channel(line, first, via);
        } else if (line.indexOf("NCCL version", msg) >= 0) {
            version(line, first);
        } else if (line.indexOf("Init COMPLETE", msg) >= 0) {
            communicator(line);
        } else if (line.indexOf("NET/", msg) >= 0 || line.indexOf("Using network", msg) >= 0) {
            network(line, first);
        } else if (line.indexOf("lgo", msg) >= 0) {
            algorithm(line);
        }
    }

    private void version(String line, int first) {
        LogMessages.version(line).ifPresent(v -> {
            versions.add(v);
            process(line, first).ifPresent(p -> p.versions.add(v));
        });
    }

    private void gdr(String line) {
        LogMessages.gdr(line).ifPresentOrElse(g -> {
            if (gdrSeen.add((g.enabled() ? "Enabled" : "Disabled") + g.gpu() + "/" + g.hca()) && gdr.size() < 64) {
                gdr.add(new GdrLine(g.enabled(), g.gpu(), g.hca(), g.distance(), g.relation(), g.threshold(), kept(line)));
            }
        }, () -> LogMessages.nicGdr(line).ifPresent(n -> addNicGdr(new NicGdr(n.net(), n.index(), n.hca(), n.enabled(),
                n.noModule(), kept(line)))));
    }

    /**
     * Tuning lines read from bytes, by the text from the collective to the protocol ("AllReduce: 1048576 Bytes -> Algo
     * RING proto SIMPLE"): a string per line and a map lookup, where the line path costs a dozen searches of the line.
     * The first time a text is seen it is read and its choice registered in order; the counts are added at the end.
     */
    private final Map<String, long[]> tuningSpans = new java.util.HashMap<>();
    private final Map<String, NcclLog.Tuning> spanChoices = new java.util.HashMap<>();
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
        String span = new String(bytes, StandardCharsets.ISO_8859_1);
        long[] calls = tuningSpans.get(span);
        if (calls == null) {
            calls = new long[1];
            tuningSpans.put(span, calls);
            NcclLog.Tuning t = LogMessages.tuning(span).orElseThrow(); // the shape was just checked
            spanChoices.put(span, t);
            addTuning(new NcclLog.Tuning(t.collective(), t.bytes(), t.algorithm(), t.protocol(), 0));
            algorithms.putIfAbsent(t.algorithm() + "/" + t.protocol(), 0L);
        }
        calls[0]++;
        ncclLines++;
        return true;
    }

    /** Adds the calls counted from bytes to their choices (kept or dropped as when they were first seen). */
    private void foldTuningSpans() {
        tuningSpans.forEach((span, calls) -> {
            NcclLog.Tuning t = spanChoices.get(span);
            addTuning(new NcclLog.Tuning(t.collective(), t.bytes(), t.algorithm(), t.protocol(), calls[0]));
            algorithms.merge(t.algorithm() + "/" + t.protocol(), calls[0], Long::sum);
        });
        tuningSpans.clear();
        spanChoices.clear();
    }

    /** Counts a tuning choice; a new one past the limit is dropped (a log of thousands of sizes keeps the first). */
    private void addTuning(NcclLog.Tuning t) {
        NcclLog.Tuning seen = tuning.get(t.key());
        if (seen != null) {
            tuning.put(t.key(), seen.plus(t.count()));
        } else if (tuning.size() < TUNING_KEEP) {
            tuning.put(t.key(), t);
        }
    }

    /** Each NIC's support line once (every process prints it), at most 64. */
    private void addNicGdr(NicGdr n) {
        boolean seen = nicGdr.stream().anyMatch(o -> o.net().equals(n.net()) && o.index() == n.index() && o.hca().equals(n.hca())
                && o.enabled() == n.enabled() && o.noModule() == n.noModule());
        if (!seen && nicGdr.size() < 64) {
            nicGdr.add(n);
        }
    }

    private void communicator(String line) {
        LogMessages.communicatorSize(line).ifPresent(n -> comms.merge(n, 1L, Long::sum));
    }

    private void network(String line, int first) {
        LogMessages.network(line).ifPresent(said -> {
            String net = kept(said.contains("[repeated ") ? RAY_REPEATED.matcher(said).replaceFirst("") : said);
            if (networks.size() < KEEP && !networks.contains(net)) {
                networks.add(net);
            }
            if (net.startsWith("Using network ")) {
                process(line, first).ifPresent(p -> p.networks.add(net.substring("Using network ".length()).strip()));
            }
        });
    }

    private void algorithm(String line) {
        Optional<NcclLog.Tuning> choice = line.contains(" Bytes -> Algo ") ? LogMessages.tuning(line) : Optional.empty();
        if (choice.isPresent()) { // a tuning line: its enums named, whatever the version printed
            addTuning(choice.get());
            algorithms.merge(choice.get().algorithm() + "/" + choice.get().protocol(), 1L, Long::sum);
            return;
        }
        Matcher m = ALGO.matcher(line);
        if (m.find()) {
            algorithms.merge(m.group(1) + "/" + m.group(2), 1L, Long::sum);
        }
    }

    /** Moves the transports counted from bytes into the map. */
    private void foldTransports() {
        for (ProcessFacts p : processes.values()) {
            p.netKeys.stream().forEach(k -> p.netTransports.add(new String(transportKeys.get(k), StandardCharsets.ISO_8859_1)));
            p.netKeys.clear();
        }
        for (int k = 0; k < transportKeys.size(); k++) {
            transports.merge(new String(transportKeys.get(k), StandardCharsets.ISO_8859_1), transportCounts[k], Long::sum);
        }
        transportKeys.clear();
    }

    /** Adds what a later range of the same file found, keeping file order and the limits on examples. */
    void absorb(LogBuilder o) {
        foldTuningSpans();
        o.foldTuningSpans();
        foldTransports();
        o.foldTransports();
        lines += o.lines;
        ncclLines += o.ncclLines;
        versions.addAll(o.versions);
        o.networks.stream().filter(n -> !networks.contains(n)).forEach(n -> {
            if (networks.size() < KEEP) {
                networks.add(n);
            }
        });
        o.transports.forEach((k, v) -> transports.merge(k, v, Long::sum));
        for (GdrLine g : o.gdr) {
            if (gdrSeen.add((g.enabled() ? "Enabled" : "Disabled") + g.gpu() + "/" + g.hca()) && gdr.size() < 64) {
                gdr.add(g);
            }
        }
        gdrSeen.addAll(o.gdrSeen);
        o.nicGdr.forEach(this::addNicGdr);
        acsHint |= o.acsHint;
        o.comms.forEach((k, v) -> comms.merge(k, v, Long::sum));
        o.algorithms.forEach((k, v) -> algorithms.merge(k, v, Long::sum));
        o.tuning.values().forEach(this::addTuning);
        warnings += o.warnings;
        firstWarnings.addAll(o.firstWarnings.subList(0, Math.min(o.firstWarnings.size(), KEEP - firstWarnings.size())));
        ibErrors.addAll(o.ibErrors.subList(0, Math.min(o.ibErrors.size(), KEEP - ibErrors.size())));
        watchdog.addAll(o.watchdog.subList(0, Math.min(o.watchdog.size(), KEEP - watchdog.size())));
        o.processes.forEach((key, p) -> processes.computeIfAbsent(key, k -> new ProcessFacts()).addAll(p));
    }

    NcclLog build() {
        foldTransports();
        Map<String, Process> byProcess = new LinkedHashMap<>();
        Map<String, Agreement.Facts> facts = new LinkedHashMap<>();
        processes.forEach((key, p) -> {
            byProcess.put(key, p.build());
            facts.put(key, Agreement.Facts.of(p.versions, p.networks, p.netTransports));
        });
        foldTuningSpans();
        List<NcclLog.Tuning> chosen = new ArrayList<>(tuning.values());
        chosen.sort(java.util.Comparator.comparing((NcclLog.Tuning t) -> t.collective().orElse("")).thenComparingLong(NcclLog.Tuning::bytes)
                .thenComparing(NcclLog.Tuning::algorithm).thenComparing(NcclLog.Tuning::protocol));
        return new NcclLog(lines, ncclLines, versions, networks, transports, gdr, comms, algorithms, chosen, nicGdr, warnings,
                firstWarnings, ibErrors, acsHint, watchdog, java.util.Collections.unmodifiableMap(byProcess), Agreement.differences(facts, "processes"));
    }
}
