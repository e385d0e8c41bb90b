package io.nccldoctor.collectives.parse;

import io.nccldoctor.core.InputException;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.ByteBuffer;
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
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an NCCL_DEBUG=INFO log says, read as a stream (a multi-gigabyte log never sits in memory): NCCL versions,
 * the network chosen (NET/IB devices, NET/Socket, NET/OFI, plugins), channel connections by transport
 * (NET/IB/…/GDRDMA, P2P/IPC, P2P/CUMEM, SHM …), GPUDirect RDMA decisions with their distances (raw: they are decoded
 * with the version, reference/nccl-internals.md §3), communicators, algorithm/protocol choices, WARN lines with IB
 * completion status and vendor error, and PyTorch watchdog timeouts. Keeps counts and the first few examples.
 */
public record NcclLog(long lines, long ncclLines, Set<String> versions, List<String> networks, Map<String, Long> transports,
                      List<GdrLine> gdr, Map<Integer, Long> communicatorSizes, Map<String, Long> algorithms,
                      long warnings, List<String> firstWarnings, List<IbError> ibErrors, List<String> watchdogTimeouts) {

    /** "GPU Direct RDMA Disabled for GPU 18000 / HCA 0 (distance 8 > 5)": enabled, the GPU and HCA as printed, raw numbers. */
    public record GdrLine(boolean enabled, String gpu, String hca, int distance, int threshold, String line) {
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
    private static final Pattern VERSION = Pattern.compile("NCCL version (\\d+\\.\\d+\\.\\d+)");
    private static final Pattern NET = Pattern.compile("NCCL INFO (NET/\\S+ : Using .*|Using network \\S+.*|NET/Plugin.*)$");
    /** Ray's deduplication suffix, "… [repeated 14x across cluster]". */
    private static final Pattern RAY_REPEATED = Pattern.compile("\\s*\\[repeated \\d+x across cluster\\]\\s*$");
    private static final Pattern VIA = Pattern.compile(" via (\\S+)");
    private static final Pattern GDR = Pattern.compile("GPU Direct RDMA (Disabled|Enabled) for GPU (\\S+) / HCA (\\S+) \\(distance (\\d+) [<>]=? (\\d+)\\)");
    private static final Pattern COMM = Pattern.compile("nranks (\\d+) .*Init COMPLETE");
    private static final Pattern ALGO = Pattern.compile("(?:[Aa]lgorithm|[Aa]lgo) (\\w+)[ ,]+(?:[Pp]rotocol|proto) (\\w+)");
    private static final Pattern IB_ERR = Pattern.compile("completion from peer .*?(?:status=|with error )(\\d+)(?:.*vendor err (\\d+))?");

    /**
     * Streams a file in 4 MiB blocks. Each block is viewed as one Latin-1 string (a plain copy), and the work is
     * driven by String.indexOf, which the JIT vectorises: from one "NCCL " to the next, and newline to newline for
     * the line count. Only the lines this parser reads become strings of their own (decoded as UTF-8). A
     * multi-gigabyte log never sits in memory. A large file is cut at line starts into one range per core (at most
     * 4), read in parallel, and the results joined in file order: the same answer as one pass.
     */
    public static NcclLog parse(Path file) {
        return parse(file, Math.min(4, Runtime.getRuntime().availableProcessors()), 64L << 20);
    }

    /** @param minRangeBytes below this many bytes per range, fewer ranges are used */
    static NcclLog parse(Path file, int threads, long minRangeBytes) {
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
                builders[0] = range(ch, 0, size);
            } else {
                IOException[] failed = new IOException[1];
                Thread[] workers = new Thread[parts];
                for (int k = 0; k < parts; k++) {
                    int part = k;
                    workers[k] = new Thread(() -> {
                        try {
                            builders[part] = range(ch, starts[part], starts[part + 1]);
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
            return builders[0].finish(file.toString());
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

    /** One range [from, to) of a file, which starts and ends at line boundaries (or the file's ends). */
    private static Builder range(FileChannel ch, long from, long to) throws IOException {
        Builder b = new Builder(true);
        byte[] buf = new byte[4 << 20];
        ByteBuffer view = ByteBuffer.wrap(buf);
        long pos = from;
        int carry = 0;
        while (true) {
            int n = -1;
            if (pos < to) {
                view.clear().position(carry).limit((int) Math.min(buf.length, carry + (to - pos)));
                n = ch.read(view, pos);
                if (n <= 0) {
                    n = -1;
                } else {
                    pos += n;
                }
            }
            int end = carry + Math.max(n, 0);
            int last = end;
            if (n >= 0) {
                while (last > 0 && buf[last - 1] != '\n') {
                    last--;
                }
                if (last == 0 && end == buf.length) {
                    last = end; // a line longer than the buffer: judged by its first 4 MiB
                }
            }
            b.acceptBlock(new String(buf, 0, last, StandardCharsets.ISO_8859_1));
            if (n < 0) {
                return b;
            }
            carry = end - last;
            System.arraycopy(buf, last, buf, 0, carry);
        }
    }

    public static NcclLog parse(BufferedReader in, String source) throws IOException {
        Builder b = new Builder(false);
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            b.accept(line);
        }
        return b.finish(source);
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
        final Set<String> gdrSeen = new LinkedHashSet<>();
        final Map<Integer, Long> comms = new TreeMap<>();
        final Map<String, Long> algorithms = new LinkedHashMap<>();
        long warnings;
        final List<String> firstWarnings = new ArrayList<>();
        final List<IbError> ibErrors = new ArrayList<>();
        final List<String> watchdog = new ArrayList<>();

        Builder(boolean latin1) {
            this.latin1 = latin1;
        }

        private String kept(String line) {
            return (latin1 ? new String(line.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8) : line).strip();
        }

        /** Whole lines of a file, as one Latin-1 string. */
        void acceptBlock(String block) {
            int len = block.length();
            int counted = 0; // newlines before this index are counted
            for (int at = block.indexOf("NCCL ", 0); at >= 0; at = block.indexOf("NCCL ", at + 5)) {
                int start = block.lastIndexOf('\n', at) + 1;
                int end = block.indexOf('\n', at);
                end = end < 0 ? len : end;
                lines += newlines(block, counted, start);
                counted = Math.min(end + 1, len);
                int colon = block.indexOf(':', at + 10);
                if (block.startsWith("NCCL INFO ", at) && colon > 0 && colon < end && block.startsWith(": opCount", colon)) {
                    ncclLines++; // a per-operation line: the bulk of a COLL log, nothing in it for this parser
                    lines++;
                } else {
                    accept(block.substring(start, end)); // counts its line
                }
                at = end - 4;
            }
            lines += newlines(block, counted, len) + (len > counted && block.charAt(len - 1) != '\n' ? 1 : 0);
            for (int w = block.indexOf("Watchdog caught"); w >= 0; w = block.indexOf("Watchdog caught", w + 15)) {
                int start = block.lastIndexOf('\n', w) + 1;
                int end = block.indexOf('\n', w);
                if (block.indexOf("NCCL ", start) < 0 || block.indexOf("NCCL ", start) > w) {
                    lines--; // counted above; accept() counts it again
                    accept(block.substring(start, end < 0 ? len : end));
                }
            }
        }

        private static int newlines(String block, int from, int to) {
            int n = 0;
            for (int i = block.indexOf('\n', from); i >= 0 && i < to; i = block.indexOf('\n', i + 1)) {
                n++;
            }
            return n;
        }

        NcclLog finish(String source) {
            if (ncclLines == 0 && watchdog.isEmpty()) {
                throw new InputException(source + ": not an NCCL debug log (no 'NCCL INFO' or 'NCCL WARN' line, no watchdog "
                        + "timeout); run with NCCL_DEBUG=INFO (NCCL_DEBUG_FILE=path.%h.%p writes one file per process)");
            }
            return build();
        }

        void accept(String line) {
            lines++;
            if (line.contains("Watchdog caught collective operation timeout")) {
                if (watchdog.size() < KEEP) {
                    watchdog.add(kept(line));
                }
                return;
            }
            int at = line.indexOf("NCCL ");
            if (at < 0) {
                return;
            }
            boolean warn = line.startsWith("NCCL WARN", at);
            if (!warn && !line.startsWith("NCCL INFO", at)) {
                if (line.startsWith("NCCL version", at)) { // the banner NCCL prints without INFO
                    Matcher m = VERSION.matcher(line);
                    if (m.find()) {
                        versions.add(m.group(1));
                    }
                }
                return;
            }
            ncclLines++;
            if (warn) {
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
                return;
            }
            int msg = at + "NCCL INFO ".length();
            if (line.indexOf(": opCount", msg) > 0) {
                return; // a per-operation line: the bulk of a COLL log, nothing in it for this parser
            }
            if (line.startsWith("Channel", msg) || line.indexOf(" via ", msg) > 0) {
                Matcher m = VIA.matcher(line);
                if (m.find()) {
                    transports.merge(m.group(1), 1L, Long::sum);
                }
            } else if (line.indexOf("NCCL version", msg) >= 0) {
                Matcher m = VERSION.matcher(line);
                if (m.find()) {
                    versions.add(m.group(1));
                }
            } else if (line.indexOf("GPU Direct RDMA", msg) >= 0) {
                Matcher m = GDR.matcher(line);
                if (m.find() && gdrSeen.add(m.group(1) + m.group(2) + "/" + m.group(3)) && gdr.size() < 64) {
                    gdr.add(new GdrLine(m.group(1).equals("Enabled"), m.group(2), m.group(3), Integer.parseInt(m.group(4)),
                            Integer.parseInt(m.group(5)), kept(line)));
                }
            } else if (line.indexOf("Init COMPLETE", msg) >= 0) {
                Matcher m = COMM.matcher(line);
                if (m.find()) {
                    comms.merge(Integer.parseInt(m.group(1)), 1L, Long::sum);
                }
            } else if (line.indexOf("NET/", msg) >= 0 || line.indexOf("Using network", msg) >= 0) {
                Matcher m = NET.matcher(line);
                if (m.find()) {
                    String net = kept(RAY_REPEATED.matcher(m.group(1)).replaceFirst(""));
                    if (networks.size() < KEEP && !networks.contains(net)) {
                        networks.add(net);
                    }
                }
            } else if (line.indexOf("lgo", msg) >= 0) {
                Matcher m = ALGO.matcher(line);
                if (m.find()) {
                    algorithms.merge(m.group(1) + "/" + m.group(2), 1L, Long::sum);
                }
            }
        }

        /** Adds what a later range of the same file found, keeping file order and the limits on examples. */
        void absorb(Builder o) {
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
            o.comms.forEach((k, v) -> comms.merge(k, v, Long::sum));
            o.algorithms.forEach((k, v) -> algorithms.merge(k, v, Long::sum));
            warnings += o.warnings;
            firstWarnings.addAll(o.firstWarnings.subList(0, Math.min(o.firstWarnings.size(), KEEP - firstWarnings.size())));
            ibErrors.addAll(o.ibErrors.subList(0, Math.min(o.ibErrors.size(), KEEP - ibErrors.size())));
            watchdog.addAll(o.watchdog.subList(0, Math.min(o.watchdog.size(), KEEP - watchdog.size())));
        }

        NcclLog build() {
            return new NcclLog(lines, ncclLines, versions, networks, transports, gdr, comms, algorithms, warnings, firstWarnings,
                    ibErrors, watchdog);
        }
    }
}
