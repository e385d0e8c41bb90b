package io.nccldoctor.collectives.parse;

import io.nccldoctor.core.InputException;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.StandardOpenOption;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * What an NCCL_DEBUG=INFO log says, read as a stream (a multi-gigabyte log never sits in memory): NCCL versions,
 * the network chosen (NET/IB devices, NET/Socket, NET/OFI, plugins), channel connections by transport
 * (NET/IB/…/GDRDMA, P2P/IPC, P2P/CUMEM, SHM …), GPUDirect RDMA decisions with their distances (raw: they are decoded
 * with the version, reference/nccl-internals.md §3), communicators, algorithm/protocol choices, WARN lines with IB
 * completion status and vendor error, and PyTorch watchdog timeouts. Keeps counts and the first few examples. A log
 * that holds several processes (a job's combined output: NCCL prefixes each line with host:pid:tid) keeps, per
 * process, what the processes of one job should agree on, and says where they do not ({@link Agreement}).
 *
 * @param acsHint     NCCL printed its hint that ACS is enabled and breaks GPU Direct RDMA (net_ib, after a completion error)
 * @param processes   per process ("node01:4242", from the lines' prefix), in the order they first appear
 * @param differences where the processes disagree (none for a one-process log)
 */
public record NcclLog(long lines, long ncclLines, Set<String> versions, List<String> networks, Map<String, Long> transports,
                      List<GdrLine> gdr, Map<Integer, Long> communicatorSizes, Map<String, Long> algorithms,
                      List<NicGdr> nicGdr, long warnings, List<String> firstWarnings, List<IbError> ibErrors, boolean acsHint,
                      List<String> watchdogTimeouts, Map<String, Process> processes, List<String> differences) {

    /**
     * What one process logged that the processes of a job should agree on.
     *
     * @param versions      the NCCL versions ("2.27.5")
     * @param networks      the networks NCCL chose ("IB" from "Using network IB")
     * @param netTransports its network channels' transports ("NET/IB/0/GDRDMA")
     */
    public record Process(Set<String> versions, Set<String> networks, Set<String> netTransports) {
    }

    /** This log's values as one unit, to compare with other files. */
    Agreement.Facts facts() {
        Set<String> chosen = new java.util.TreeSet<>();
        processes.values().forEach(p -> chosen.addAll(p.networks()));
        if (chosen.isEmpty()) { // lines without NCCL's host:pid:tid prefix
            networks.stream().filter(n -> n.startsWith("Using network ")).forEach(n -> chosen.add(n.substring(14).strip()));
        }
        return Agreement.Facts.of(versions, chosen, transports.keySet());
    }

    /**
     * "GPU Direct RDMA Disabled for GPU 18000 / HCA 0 (distance 8 > 5)", or in 2.29 "… for GPU/0-1b000 (rank 0) - NET/0-0
     * (distance 8 > 5)": enabled, the GPU and NIC as printed, the raw path numbers and the comparison NCCL printed.
     */
    public record GdrLine(boolean enabled, String gpu, String hca, int distance, String relation, int threshold, String line) {
    }

    /**
     * "NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'": whether a NIC can reach GPU memory at all (nvidia-peermem
     * or DMA-BUF), printed once per NIC; before 2.18 a disabled one said " (no module)", nvidia-peermem not loaded.
     */
    public record NicGdr(String net, int index, String hca, boolean enabled, boolean noModule, String line) {

        /** Why a disabled NIC cannot do GPUDirect RDMA, in a sentence; empty for an enabled one. */
        public String meaning() {
            if (enabled) {
                return "";
            }
            return noModule ? "nvidia-peermem is not loaded (modprobe nvidia-peermem), so the NIC cannot register GPU memory"
                    : "neither nvidia-peermem nor DMA-BUF is usable for this NIC (module not loaded, kernel or driver without "
                    + "DMA-BUF, NCCL_DMABUF_ENABLE=0): every transfer is staged through host memory";
        }
    }

    /**
     * "NET/IB : Got completion from peer 10.0.0.2<45678> with status=12 opcode=0 len=0 vendor err 129 (Recv)", or the
     * older "with error 12, opcode 0, len 0, vendor err 129"; the vendor error is absent when the line was wrapped.
     */
    public record IbError(int status, io.nccldoctor.core.Fact<Integer> vendorErr, String line) {

        /** rdma-core's enum ibv_wc_status (infiniband/verbs.h), in order from IBV_WC_SUCCESS = 0. */
        private static final List<String> STATUS = List.of("IBV_WC_SUCCESS", "IBV_WC_LOC_LEN_ERR", "IBV_WC_LOC_QP_OP_ERR",
                "IBV_WC_LOC_EEC_OP_ERR", "IBV_WC_LOC_PROT_ERR", "IBV_WC_WR_FLUSH_ERR", "IBV_WC_MW_BIND_ERR", "IBV_WC_BAD_RESP_ERR",
                "IBV_WC_LOC_ACCESS_ERR", "IBV_WC_REM_INV_REQ_ERR", "IBV_WC_REM_ACCESS_ERR", "IBV_WC_REM_OP_ERR",
                "IBV_WC_RETRY_EXC_ERR", "IBV_WC_RNR_RETRY_EXC_ERR", "IBV_WC_LOC_RDD_VIOL_ERR", "IBV_WC_REM_INV_RD_REQ_ERR",
                "IBV_WC_REM_ABORT_ERR", "IBV_WC_INV_EECN_ERR", "IBV_WC_INV_EEC_STATE_ERR", "IBV_WC_FATAL_ERR",
                "IBV_WC_RESP_TIMEOUT_ERR", "IBV_WC_GENERAL_ERR", "IBV_WC_TM_ERR", "IBV_WC_TM_RNDV_INCOMPLETE");

        /** The verbs name of the status, e.g. IBV_WC_RETRY_EXC_ERR for 12. */
        public String statusName() {
            return status >= 0 && status < STATUS.size() ? STATUS.get(status) : "unknown status " + status;
        }

        /** What the status usually means for NCCL, for the statuses seen in practice; empty otherwise. */
        public String meaning() {
            return switch (status) {
                case 4 -> "local protection error: the NIC could not use the registered buffer (with a GPU buffer: GPUDirect "
                        + "RDMA forced across a path the NIC cannot reach, or a registration that went stale)";
                case 5 -> "flushed because the queue pair had already failed: the first error in the log is the cause";
                case 10 -> "remote access error: the peer refused the RDMA access (its memory registration or keys)";
                case 12 -> "transport retries exceeded: the peer never acknowledged (link down, unreachable GID or route, "
                        + "or on RoCE packet loss that PFC/ECN should have prevented)";
                case 13 -> "receiver-not-ready retries exceeded: the peer posted no receive in time";
                default -> "";
            };
        }
    }

    static final int KEEP = 10;
    /** Ray's deduplication suffix, "… [repeated 14x across cluster]". */
    private static final Pattern RAY_REPEATED = Pattern.compile("\\s*\\[repeated \\d+x across cluster\\]\\s*$");
    private static final Pattern ALGO = Pattern.compile("(?:[Aa]lgorithm|[Aa]lgo) (\\w+)[ ,]+(?:[Pp]rotocol|proto) (\\w+)");
    private static final Pattern IB_ERR = Pattern.compile("completion from peer .*?(?:status=|with error )(\\d+)(?:.*vendor err (\\d+))?");

    /**
     * Streams a file in 256 KiB blocks of whole lines (one buffer per range, so memory stays flat). Each block is
     * scanned eight bytes at a time (SWAR: one long per step, the newlines counted and the 'N' bytes found with the exact zero-byte mask of Hacker's Delight 6-1); only
     * lines that hold "NCCL" are looked at, the per-operation lines (the bulk of a COLL log) are counted from their
     * first bytes, and only the lines this parser reads become strings of their own (decoded as UTF-8). A
     * multi-gigabyte log never sits in memory. A large file is cut at line starts into one range per core (at most
     * 4), read in parallel, and the results joined in file order: the same answer as one pass. A file whose name ends
     * in .gz is decompressed as it is read, line by line.
     *
     * @throws InputException when the file cannot be read, or holds no NCCL line
     */
    public static NcclLog parse(Path file) {
        return scan(file).finish(file.toString());
    }

    /** The same, but empty for a file without NCCL lines (a process that never initialised NCCL). */
    public static java.util.Optional<NcclLog> parseIfNccl(Path file) {
        Builder b = scan(file);
        return b.isNccl() ? java.util.Optional.of(b.build()) : java.util.Optional.empty();
    }

    private static Builder scan(Path file) {
        if (!file.getFileName().toString().endsWith(".gz")) {
            return scan(file, Math.min(4, Runtime.getRuntime().availableProcessors()), 64L << 20, SEGMENT);
        }
        try (java.io.InputStream in = new java.util.zip.GZIPInputStream(Files.newInputStream(file), 64 << 10)) {
            return blocks(java.nio.channels.Channels.newChannel(in)::read, SEGMENT);
        } catch (IOException e) {
            throw new InputException(file + ": cannot read (" + e.getMessage() + ")", e);
        }
    }

    /** @param minRangeBytes below this many bytes per range, fewer ranges are used */
    static NcclLog parse(Path file, int threads, long minRangeBytes) {
        return parse(file, threads, minRangeBytes, SEGMENT);
    }

    /**
     * The bytes read at once, per range: small enough that a block, and the copy of its words, stay in the core's L2
     * cache between the read and the scan.
     */
    private static final int SEGMENT = 256 << 10;

    /** @param segment the bytes read at once (small in tests, to cross block ends often) */
    static NcclLog parse(Path file, int threads, long minRangeBytes, int segment) {
        return scan(file, threads, minRangeBytes, segment).finish(file.toString());
    }

    private static Builder scan(Path file, int threads, long minRangeBytes, int segment) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            int parts = (int) Math.max(1, Math.min(threads, size / Math.max(1, minRangeBytes)));
            long[] starts = new long[parts + 1];
            starts[parts] = size;
            for (int k = 1; k < parts; k++) {
                starts[k] = Math.max(starts[k - 1], lineStartAfter(ch, size * k / parts));
            }
            Builder[] builders = new Builder[parts];
            if (parts == 1) {
                builders[0] = range(ch, 0, size, segment);
            } else {
                IOException[] failed = new IOException[1];
                Thread[] workers = new Thread[parts];
                for (int k = 0; k < parts; k++) {
                    int part = k;
                    workers[k] = new Thread(() -> {
                        try {
                            builders[part] = range(ch, starts[part], starts[part + 1], segment);
                        } catch (IOException e) {
                            failed[0] = e;
                        }
                    }, "nccl-log-" + k);
                    workers[k].start();
                }
                for (Thread w : workers) {
                    w.join();
                }
                if (failed[0] != null) {
                    throw failed[0];
                }
            }
            for (int k = 1; k < parts; k++) {
                builders[0].absorb(builders[k]);
            }
            return builders[0];
        } catch (IOException e) {
            throw new InputException(file + ": cannot read (" + e.getMessage() + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InputException(file + ": interrupted while reading", e);
        }
    }

    /** The first line start at or after {@code p}: just past the first newline at or after p - 1. */
    private static long lineStartAfter(FileChannel ch, long p) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(64 << 10);
        for (long at = p - 1; ; at += b.limit()) {
            b.clear();
            int n = ch.read(b, at);
            if (n <= 0) {
                return ch.size();
            }
            for (int i = 0; i < n; i++) {
                if (b.get(i) == '\n') {
                    return at + i + 1;
                }
            }
            b.limit(n);
        }
    }

    /** Where a block's bytes come from: a file range read at positions, or a stream read in order. */
    private interface Source {

        /** Reads into {@code buf}, from its position up to its limit (which it may lower); -1 at the end. */
        int read(ByteBuffer buf) throws IOException;
    }

    /** One range [from, to) of a file, which starts and ends at line boundaries (or the file's ends). */
    private static Builder range(FileChannel ch, long from, long to, int segment) throws IOException {
        long[] pos = {from};
        return blocks(buf -> {
            if (pos[0] >= to) {
                return -1;
            }
            buf.limit((int) Math.min(buf.limit(), buf.position() + (to - pos[0])));
            int n = ch.read(buf, pos[0]);
            pos[0] += Math.max(n, 0);
            return n;
        }, segment);
    }

    /**
     * The bytes of a source read into one buffer of {@code segment} bytes at a time, each time up to its last newline
     * (a line longer than the buffer is judged by its first part, and its tail counts as a line of its own).
     */
    private static Builder blocks(Source source, int segment) throws IOException {
        Builder b = new Builder(true);
        ByteBuffer buf = ByteBuffer.allocateDirect(segment).order(ByteOrder.LITTLE_ENDIAN);
        long[] words = new long[(segment >>> 3) + 3];
        while (true) {
            boolean last = fill(source, buf);
            int end = buf.position();
            int cut = end;
            if (!last) {
                while (cut > 0 && buf.get(cut - 1) != '\n') {
                    cut--;
                }
                if (cut == 0 && end == buf.capacity()) {
                    cut = end; // a line longer than the buffer
                }
            }
            // The words are scanned from a long[]: plain array loads, which even the interpreter and the first JIT
            // tier run fast, where each ByteBuffer.getLong is a chain of calls until the last tier has inlined it.
            int whole = cut >>> 3;
            buf.duplicate().position(0).limit(whole << 3).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(words, 0, whole);
            if ((cut & 7) != 0) {
                long tail = 0;
                for (int k = cut - 1; k >= whole << 3; k--) {
                    tail = tail << 8 | (buf.get(k) & 0xFF);
                }
                words[whole] = tail;
            }
            int count = (cut + 7) >>> 3;
            words[count] = 0;
            words[count + 1] = 0;
            b.acceptBlock(buf, words, cut);
            if (last) {
                return b;
            }
            buf.limit(end).position(cut);
            buf.compact(); // the carried part moves to the front; position = its length
        }
    }

    /** Reads until the buffer is full (false: more may follow) or the source ends (true). */
    private static boolean fill(Source source, ByteBuffer buf) throws IOException {
        buf.limit(buf.capacity());
        while (buf.position() < buf.limit()) {
            if (source.read(buf) < 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * A log read from a stream (standard input, a decompressed file) with the same block scanner as a file, one pass.
     *
     * @throws InputException when it holds no NCCL line
     */
    public static NcclLog parse(java.io.InputStream in, String source) throws IOException {
        return parse(in, source, SEGMENT);
    }

    /** @param segment the bytes read at once (small in tests, to cross block ends often) */
    static NcclLog parse(java.io.InputStream in, String source, int segment) throws IOException {
        return blocks(java.nio.channels.Channels.newChannel(in)::read, segment).finish(source);
    }

    /** A log read line by line (standard input, a decompressed file). */
    public static NcclLog parse(BufferedReader in, String source) throws IOException {
        return lines(in).finish(source);
    }

    private static Builder lines(BufferedReader in) throws IOException {
        Builder b = new Builder(false);
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            b.lines++;
            b.accept(line);
        }
        return b;
    }

    private static final class Builder {
        /** Lines arrive as Latin-1 views from a file; those kept are re-read as UTF-8. */
        private final boolean latin1;
        long lines;
        long ncclLines;
        final Set<String> versions = new LinkedHashSet<>();
        final List<String> networks = new ArrayList<>();
        final Map<String, Long> transports = new TreeMap<>();
        final List<GdrLine> gdr = new ArrayList<>();
        final List<NicGdr> nicGdr = new ArrayList<>();
        final Set<String> gdrSeen = new LinkedHashSet<>();
        final Map<Integer, Long> comms = new TreeMap<>();
        final Map<String, Long> algorithms = new LinkedHashMap<>();
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

        Builder(boolean latin1) {
            this.latin1 = latin1;
        }

        private String kept(String line) {
            return text(line).strip();
        }

        /** Text as written: lines read from bytes are Latin-1 views of UTF-8. */
        private String text(String s) {
            return latin1 ? new String(s.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8) : s;
        }

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
        private static final byte[] WATCHDOG = "Watchdog caught".getBytes(StandardCharsets.ISO_8859_1);

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
        private ByteBuffer buf;
        private long[] words;
        private int len;
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
        private long bytesAt(int at) {
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
                            process(buf, start, at).ifPresent(p -> p.netKeys.set(k));
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
        private byte byteAt(int at) {
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
        private static boolean space(int c) {
            return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
        }

        /** Transports counted from bytes, without a string per channel line: most of an initialisation is these. */
        private final List<byte[]> transportKeys = new ArrayList<>();
        private long[] transportCounts = new long[8];

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

        private static boolean regionMatches(ByteBuffer buf, int len, int at, byte[] what) {
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

        private static int indexOf(ByteBuffer buf, int from, int to, byte[] what) {
            for (int k = from; k + what.length <= to; k++) {
                if (buf.get(k) == what[0] && regionMatches(buf, to, k, what)) {
                    return k;
                }
            }
            return -1;
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
            if (line.contains("ACS is enabled")) { // "HINT: In many cases this error occurs when ACS is enabled which would break …"
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
        void absorb(Builder o) {
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
            return new NcclLog(lines, ncclLines, versions, networks, transports, gdr, comms, algorithms, nicGdr, warnings,
                    firstWarnings, ibErrors, acsHint, watchdog, java.util.Collections.unmodifiableMap(byProcess), Agreement.differences(facts, "processes"));
        }
    }
}
