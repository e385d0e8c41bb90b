package io.nccldoctor.collectives.parse;

import io.nccldoctor.core.InputException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What an NCCL_DEBUG=INFO log says, read as a stream (a multi-gigabyte log never sits in memory): NCCL versions,
 * the network chosen (NET/IB devices, NET/Socket, NET/OFI, plugins), channel connections by transport
 * (NET/IB/…/GDRDMA, P2P/IPC, P2P/CUMEM, SHM …), GPUDirect RDMA decisions with their distances (raw: they are decoded
 * with the version, reference/nccl-internals.md §3), communicators, algorithm/protocol choices, WARN lines with IB
 * completion status and vendor error, and PyTorch watchdog timeouts. Keeps counts and the first few examples. A log
 * that holds several processes (a job's combined output: NCCL prefixes each line with host:pid:tid) keeps, per
 * process, what the processes of one job should agree on, and says where they do not ({@link Agreement}).
 *
 * @param tuning      per collective and size, the algorithm and protocol NCCL chose (TUNING lines), by size
 * @param acsHint     NCCL printed its hint that ACS is enabled and breaks GPU Direct RDMA (net_ib, after a completion error)
 * @param processes   per process ("node01:4242", from the lines' prefix), in the order they first appear
 * @param differences where the processes disagree (none for a one-process log)
 */
public record NcclLog(long lines, long ncclLines, Set<String> versions, List<String> networks, Map<String, Long> transports,
                      List<GdrLine> gdr, Map<Integer, Long> communicatorSizes, Map<String, Long> algorithms, List<Tuning> tuning,
                      List<NicGdr> nicGdr, long warnings, List<String> firstWarnings, List<IbError> ibErrors, boolean acsHint,
                      List<String> watchdogTimeouts, Map<String, Process> processes, List<String> differences) {

    /**
     * NCCL's algorithm and protocol for calls of one collective and size (NCCL_DEBUG_SUBSYS=TUNING), and how many
     * calls it logged so.
     */
    public record Tuning(io.nccldoctor.core.Fact<String> collective, long bytes, String algorithm, String protocol, long count) {

        Tuning plus(long calls) {
            return new Tuning(collective, bytes, algorithm, protocol, count + calls);
        }

        String key() {
            return collective.orElse("") + "|" + bytes + "|" + algorithm + "|" + protocol;
        }
    }

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

    /**
     * Streams a file in 256 KiB blocks of whole lines, eight bytes at a time ({@link BlockScanner}); a multi-gigabyte
     * log never sits in memory. A large file is read in one range per core, joined in file order: the same answer as
     * one pass. A file whose name ends in .gz is decompressed as it is read.
     *
     * @throws InputException when the file cannot be read, or holds no NCCL line
     */
    public static NcclLog parse(Path file) {
        return LogReader.read(file).finish(file.toString());
    }

    /** The same, but empty for a file without NCCL lines (a process that never initialised NCCL). */
    public static Optional<NcclLog> parseIfNccl(Path file) {
        LogBuilder b = LogReader.read(file);
        return b.isNccl() ? Optional.of(b.build()) : Optional.empty();
    }

    /** @param minRangeBytes below this many bytes per range, fewer ranges are used */
    static NcclLog parse(Path file, int threads, long minRangeBytes) {
        return parse(file, threads, minRangeBytes, LogReader.SEGMENT);
    }

    /** @param segment the bytes read at once (small in tests, to cross block ends often) */
    static NcclLog parse(Path file, int threads, long minRangeBytes, int segment) {
        return LogReader.read(file, threads, minRangeBytes, segment).finish(file.toString());
    }

    /**
     * A log read from a stream (standard input, a decompressed file) with the same block scanner as a file, one pass.
     *
     * @throws InputException when it holds no NCCL line
     */
    public static NcclLog parse(InputStream in, String source) throws IOException {
        return parse(in, source, LogReader.SEGMENT);
    }

    /** @param segment the bytes read at once (small in tests, to cross block ends often) */
    static NcclLog parse(InputStream in, String source, int segment) throws IOException {
        return LogReader.blocks(Channels.newChannel(in)::read, segment).finish(source);
    }

    /** A log read line by line: the reference the block scanner is tested against. */
    public static NcclLog parse(BufferedReader in, String source) throws IOException {
        return LogReader.lines(in).finish(source);
    }
}
