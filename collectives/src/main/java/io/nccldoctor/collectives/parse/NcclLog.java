package io.nccldoctor.collectives.parse;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.InputException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What an NCCL_DEBUG=INFO log says, read as a stream (a multi-gigabyte log never sits in memory): NCCL versions,
 * the network chosen (NET/IB devices, NET/Socket, NET/OFI, plugins), channel connections by transport
 * (NET/IB/…/GDRDMA, P2P/IPC, P2P/CUMEM, SHM …), GPUDirect RDMA decisions with their distances (raw: they are decoded
 * with the version, reference/nccl-internals.md §3), communicators, algorithm/protocol choices, WARN lines with IB
 * completion status and vendor error, and PyTorch watchdog timeouts. Keeps counts and the first few examples. A log
 * that holds several processes (a job's combined output: NCCL prefixes each line with host:pid:tid) keeps, per
 * process, what the processes of one job should agree on, and says where they do not ({@link Agreement}).
 *
 * @param networks        what NCCL said of its network, line by line: the networks chosen, one line per distinct device
 *                        list, a transport that found no device, the plugin lines (each kind with its own limit)
 * @param tuning          per collective and size, the algorithm and protocol NCCL chose (TUNING lines), by size
 * @param acsHint         NCCL printed its hint that ACS is enabled and breaks GPU Direct RDMA (net_ib, after a completion error)
 * @param processes       per process ("node01:4242", from the lines' prefix), in the order they first appear
 * @param differences     where the processes disagree (none for a one-process log)
 * @param network         the network NCCL chose, each transport's devices, the plugins, and any fallback
 * @param init            the CUDA driver, communicators started and their node counts, GPUs, environment, missing symbols
 * @param systems         NCCL's view of the node ("=== System : maxBw …" dumps), each distinct one
 * @param systemDumps     how many such dumps the log holds (one per process and communicator)
 * @param unknownMessages NCCL INFO messages of no kind the parser knows (read only for a transport or an algorithm)
 * @param withoutPrefix   the lines came without NCCL's "host:pid:tid [dev] NCCL INFO" prefix (a pasted excerpt)
 * @param gdrDecisions    every GPU Direct RDMA decision line counted by its kind (enabled, distance, comparison,
 *                        threshold, wording): gdr keeps the first 64 GPU–NIC pairs, this counts them all
 * @param watchdogHangs   PyTorch's heartbeat monitor found ProcessGroupNCCL's watchdog thread stuck ("Heartbeat monitor
 *                        timed out!", "ProcessGroupNCCL's watchdog got stuck for 600 seconds …"): the first lines
 * @param pxnChannels     network channel connections through another rank's NIC and proxy (PXN, "NET/IB/0(3)/GDRDMA":
 *                        rank 3's NIC 0), counted in transports under the NIC's own key ("NET/IB/0/GDRDMA")
 * @param errors          what went wrong: NCCL's error chains ("init.cc:1089 -> 3", up to "group.cc:64 -> 3 [Async
 *                        thread]") and its WARN lines, each judged ({@link ErrorChains})
 */
public record NcclLog(long lines, long ncclLines, Set<String> versions, List<String> networks, Map<String, Long> transports,
                      List<GdrLine> gdr, Map<Integer, Long> communicatorSizes, Map<String, Long> algorithms, List<Tuning> tuning,
                      List<NicGdr> nicGdr, long warnings, List<String> firstWarnings, List<IbError> ibErrors, boolean acsHint,
                      List<String> watchdogTimeouts, Map<String, Process> processes, List<String> differences, Network network,
                      Init init, List<SystemDump> systems, long systemDumps, long unknownMessages, boolean withoutPrefix,
                      List<GdrCount> gdrDecisions, List<NicDistance> nicDistances, List<String> watchdogHangs, long pxnChannels,
                      Errors errors, IbAsyncEvents ibAsyncEvents, TorchErrors torchErrors,
                      Mnnvl mnnvl, String cutLastLine, LibfabricWarnings libfabricWarnings) {

    /** A log written before these were read (a `run --json` of an earlier release) has none of them. */
    public NcclLog {
        libfabricWarnings = libfabricWarnings == null ? LibfabricWarnings.NONE : libfabricWarnings;
        ibAsyncEvents = ibAsyncEvents == null ? IbAsyncEvents.NONE : ibAsyncEvents;
        torchErrors = torchErrors == null ? TorchErrors.NONE : torchErrors;
        mnnvl = mnnvl == null ? Mnnvl.NONE : mnnvl;
        cutLastLine = cutLastLine == null ? "" : cutLastLine;
        network = network == null ? Network.NONE : network;
        init = init == null ? Init.NONE : init;
        systems = systems == null ? List.of() : systems;
        gdrDecisions = gdrDecisions == null ? List.of() : gdrDecisions;
        nicDistances = nicDistances == null ? List.of() : nicDistances;
        watchdogHangs = watchdogHangs == null ? List.of() : watchdogHangs;
        errors = errors == null ? Errors.NONE : errors;
    }

    /**
     * NCCL 2.3's and 2.4's path type from a GPU to each NIC ({@link NicDistances}), as printed: "CUDA Dev 0[0], IB NIC
     * distance :  PIX" is GPU "0[0]" (CUDA device [NVML device]), network "IB", NIC "0" (its index), path "PIX".
     *
     * @param nics  the NICs in the order printed: 2.4's NET device indices ("0", "1"), 2.3's names with port ("mlx5_0/1")
     * @param paths each NIC's path type from the GPU (PIX, PXB, PHB, NODE, SYS; SOC before 2.4.6)
     */
    public record NicDistance(String gpu, String network, List<String> nics, List<String> paths, String line) {
    }

    /** How many GPU Direct RDMA decision lines of one kind the log holds ("Disabled, distance 8 > 5": 4096). */
    public record GdrCount(boolean enabled, int distance, String relation, int threshold, GdrWording wording, long count) {

        String key() {
            return enabled + " " + distance + relation + threshold + " " + wording;
        }

        // equals and hashCode written out, here and in SystemDump: a record's own are linked through method handles the
        // first time they run, which cost a parse 6 to 26 ms each (measured with a profiler); these are the records a
        // parse hashes
        @Override
        public boolean equals(Object o) {
            return o instanceof GdrCount g && enabled == g.enabled && distance == g.distance && threshold == g.threshold
                    && count == g.count && Objects.equals(relation, g.relation) && wording == g.wording;
        }

        @Override
        public int hashCode() {
            return Objects.hash(enabled, distance, relation, threshold, wording, count);
        }
    }

    /**
     * What NCCL said of its network.
     *
     * @param chosen        the networks NCCL chose ("IB", "Socket", a plugin's name), from "Using network …", in order
     * @param devices       per transport ("IB", "Socket"), each distinct device list it used ("[0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE [RO]")
     * @param loadedPlugins net plugins loaded ("NCCL RDMA Plugin v8", from "Loaded net plugin … (v8)")
     * @param failedPlugins net plugins that failed to initialise ("Failed to initialize NET plugin …", 2.28 and later)
     * @param unavailable   what found no device ("NET/IB : No device found.", "Failed to open libibverbs.so[.1]")
     * @param fallbacks     each fallback in a sentence: a plugin loaded but not used, a plugin that failed, sockets after IB
     */
    public record Network(List<String> chosen, Map<String, List<String>> devices, List<String> loadedPlugins, List<String> failedPlugins,
                          List<String> unavailable, List<String> fallbacks) {

        static final Network NONE = new Network(List.of(), Map.of(), List.of(), List.of(), List.of(), List.of());
    }

    /**
     * What the initialisations said besides the network.
     *
     * @param cudaDriverVersions the CUDA driver API versions the processes found ("12080" is CUDA 12.8)
     * @param started            communicators started ("Init START"), by size; those completed are communicatorSizes
     * @param nodes              "nRanks 16 nNodes 2" lines (2.20 and later), by node count
     * @param busIds             the GPUs' PCI bus ids as NCCL prints them ("1c000"), each distinct one (at most 1024)
     * @param environment        "NCCL_… set by environment to …" (and net_ib.cc's "NCCL_IB_HCA set to …"): each variable with its distinct values (at most 8)
     * @param symbolFailures     the first lines saying a verbs symbol is missing ("dlvsym failed on ibv_reg_dmabuf_mr …")
     * @param symbolFailureCount how many such lines
     * @param gitVersions        the branch and commit each library says it was built from ("master 3619159", from "NCCL git
     *                           version master 3619159"): two in one job are two builds, even of one version number
     */
    public record Init(Set<String> cudaDriverVersions, Map<Integer, Long> started, Map<Integer, Long> nodes, Set<String> busIds,
                       Map<String, List<String>> environment, List<String> symbolFailures, long symbolFailureCount,
                       Set<String> gitVersions) {

        static final Init NONE = new Init(Set.of(), Map.of(), Map.of(), Set.of(), Map.of(), List.of(), 0, Set.of());

        /** The value the log gives a variable, when it gives exactly one. */
        public Optional<String> env(String variable) {
            List<String> values = environment.getOrDefault(variable, List.of());
            return values.size() == 1 ? Optional.of(values.get(0)) : Optional.empty();
        }
    }

    /**
     * One "=== System : maxBw 48.0 totalBw 370.8 ===" dump summarised: bandwidths in GB/s as NCCL prints them.
     *
     * @param netBandwidths each distinct NET link bandwidth ("50.0")
     * @param nvlinks       NVLink links ("+ NVL[…]"), to GPUs or NVSwitches
     * @param pciLinks      PCI links by bandwidth ("48.0" → 16, "0.2" → 8: the x1 Gen1 uplinks of an emulated bridge)
     * @param otherLinks    links of the types not named above, by type ("XGMI" → 24 between 8 AMD GPUs in RCCL's dump)
     * @param complete      its closing line is in the log
     */
    public record SystemDump(String maxBw, String totalBw, int cpus, int gpus, int nics, int nets, List<String> netBandwidths,
                             int nvlinks, int nvswitches, Map<String, Integer> pciLinks, int c2cLinks, Map<String, Integer> otherLinks,
                             boolean complete, boolean headerless) {

        /** A dump whose "=== System" line is in the log. */
        public SystemDump(String maxBw, String totalBw, int cpus, int gpus, int nics, int nets, List<String> netBandwidths, int nvlinks,
                          int nvswitches, Map<String, Integer> pciLinks, int c2cLinks, Map<String, Integer> otherLinks, boolean complete) {
            this(maxBw, totalBw, cpus, gpus, nics, nets, netBandwidths, nvlinks, nvswitches, pciLinks, c2cLinks, otherLinks, complete, false);
        }

        /**
         * The PCI links NCCL rates below 1 GB/s (width x per-lane rate / 80): 0.2 is x1 at 2.5 GT/s, as emulated bridges
         * report, 0.4 is x1 at 5 GT/s or x2 at 2.5 GT/s, 0.8 x1 at 8 GT/s, x2 at 5 or x4 at 2.5.
         */
        public Map<String, Integer> slowPciLinks() {
            Map<String, Integer> slow = new TreeMap<>();
            pciLinks.forEach((bw, n) -> {
                if (Double.parseDouble(bw) < 1.0) {
                    slow.put(bw, n);
                }
            });
            return slow;
        }

        // equals, hashCode and toString written out, as the generated ones read: a record's generated methods are linked
        // through method handles the first time each runs, and for fourteen components toString alone spun about 90
        // classes at run time, in the serial finish of every parse that holds a dump (SystemDumps sorts by it): a 20 kB log's
        // parse took 300 ms wall before, 270 ms after (medians of 10 interleaved runs).

        @Override
        public String toString() {
            return "SystemDump[maxBw=" + maxBw + ", totalBw=" + totalBw + ", cpus=" + cpus + ", gpus=" + gpus + ", nics=" + nics
                    + ", nets=" + nets + ", netBandwidths=" + netBandwidths + ", nvlinks=" + nvlinks + ", nvswitches=" + nvswitches
                    + ", pciLinks=" + pciLinks + ", c2cLinks=" + c2cLinks + ", otherLinks=" + otherLinks + ", complete=" + complete
                    + ", headerless=" + headerless + "]";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof SystemDump d && cpus == d.cpus && gpus == d.gpus && nics == d.nics && nets == d.nets
                    && nvlinks == d.nvlinks && nvswitches == d.nvswitches && c2cLinks == d.c2cLinks && complete == d.complete
                    && headerless == d.headerless
                    && Objects.equals(maxBw, d.maxBw) && Objects.equals(totalBw, d.totalBw)
                    && Objects.equals(netBandwidths, d.netBandwidths) && Objects.equals(pciLinks, d.pciLinks)
                    && Objects.equals(otherLinks, d.otherLinks);
        }

        @Override
        public int hashCode() {
            return Objects.hash(maxBw, totalBw, cpus, gpus, nics, nets, netBandwidths, nvlinks, nvswitches, pciLinks, c2cLinks, otherLinks,
                    complete, headerless);
        }
    }

    /**
     * NCCL's algorithm and protocol for calls of one collective and size (NCCL_DEBUG_SUBSYS=TUNING), and how many
     * calls it logged so.
     */
    public record Tuning(Fact<String> collective, long bytes, String algorithm, String protocol, long count) {

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
     * @param busIds        the PCI bus ids of its GPUs, from its communicators' Init lines ("1c000")
     */
    public record Process(Set<String> versions, Set<String> networks, Set<String> netTransports, Set<String> busIds) {

        public Process {
            busIds = busIds == null ? Set.of() : busIds;
        }
    }

    /** This log's values as one unit, to compare with other files. */
    Agreement.Facts facts() {
        Set<String> chosen = new TreeSet<>();
        processes.values().forEach(p -> chosen.addAll(p.networks()));
        if (chosen.isEmpty()) { // lines without NCCL's host:pid:tid prefix
            chosen.addAll(network.chosen());
        }
        return Agreement.Facts.of(versions, chosen, transports.keySet());
    }

    /**
     * "GPU Direct RDMA Disabled for GPU 18000 / HCA 0 (distance 8 > 5)", or in 2.29 "… for GPU/0-1b000 (rank 0) - NET/0-0
     * (distance 8 > 5)": enabled, the GPU and NIC as printed, the raw path numbers and the comparison NCCL printed.
     */
    public record GdrLine(boolean enabled, String gpu, String hca, int distance, String relation, int threshold, String line) {

        /** The NCCL releases that print a decision in this wording (reference/nccl-internals.md §4.4). */
        public GdrWording wording() {
            if (line.contains("for GPU/") && line.contains(" - NET/")) {
                return GdrWording.V2_29;
            }
            return GdrWording.before229(relation);
        }
    }

    /** The wordings of the GPU Direct RDMA decision line, each with the releases that print it. */
    public enum GdrWording {
        /** "NET/IB : GPU Direct RDMA Disabled for GPU 0[0] / HCA 0 (distance 4 >= 2)": 2.4 and 2.5, a PCI distance of their own. */
        V2_4("2.4.0", "2.6.0"),
        /** "GPU Direct RDMA Disabled for GPU 18000 / HCA 0 (distance 8 > 5)": 2.6 to 2.28 (graph/paths.cc). */
        V2_6("2.6.0", "2.29.0"),
        /** "GPU Direct RDMA Disabled for GPU/0-1b000 (rank 0) - NET/0-0 (distance 9 > 6)": 2.29, and later builds with TRACE. */
        V2_29("2.29.0", null);

        private final String since;
        private final String until;

        /** The wording of a line without 2.29's "for GPU/… - NET/…", by its comparison: 2.4 printed "<" and ">=". */
        static GdrWording before229(String relation) {
            return relation.equals(">=") || relation.equals("<") ? V2_4 : V2_6;
        }

        GdrWording(String since, String until) {
            this.since = since;
            this.until = until;
        }

        public String since() {
            return since;
        }

        /** The first release that no longer prints it; empty while current. */
        public Optional<String> until() {
            return Optional.ofNullable(until);
        }
    }

    /**
     * "NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0'": whether a NIC can reach GPU memory at all (nvidia-peermem
     * or DMA-BUF), printed once per NIC; before 2.18 a disabled one said " (no module)", nvidia-peermem not loaded.
     * NCCL prints it for each NIC of the network it opened ({@code "NET/%s : GPU Direct RDMA %s for HCA %d '%s'"} with
     * the communicator's network name, src/graph/topo.cc), so "NET/Socket" names sockets as that network.
     */
    public record NicGdr(String net, int index, String hca, boolean enabled, boolean noModule, String line) {

        /**
         * NCCL's socket transport, which registers host memory only (ncclSocketRegMr refuses any other pointer type,
         * src/transport/net_socket.cc; its properties give NCCL_PTR_HOST alone): its NICs are never GDR capable.
         */
        public boolean socket() {
            return net.equals("Socket");
        }

        /** Why a disabled NIC cannot do GPUDirect RDMA, in a sentence; empty for an enabled one. */
        public String meaning() {
            if (enabled) {
                return "";
            }
            if (socket()) {
                return "NCCL's socket transport sends from host memory only, so no socket NIC does GPU Direct RDMA: this line says "
                        + "the network NCCL opened is TCP sockets, not that a module is missing";
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
    public record IbError(int status, Fact<Integer> vendorErr, String line) {

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

    /**
     * What went wrong, as NCCL said it. When a call fails, NCCL prints the error's way back up the stack, one INFO line
     * per function it leaves ("%s:%d -> %d", src/include/checks.h; "%s:%d (%s) -> %d" with the function from 2.30.7),
     * and the thread that ran it ends the chain ("group.cc:64 -> 3 [Async thread]": the communicator's initialisation job
     * returned the error, group.cc ncclAsyncJobMain; "[Progress Thread]" / "[Proxy Thread]": the proxy's progress thread,
     * whose error the communicator reports as its asynchronous error, proxy.cc). A WARN line usually says why just before.
     *
     * @param chains        the first chains, in the order they started
     * @param chainCount    every chain
     * @param failedChains  the chains that reached the top of a call ({@link ErrorChain#failed})
     * @param chainLines    every line of every chain
     * @param warnings      the first WARN lines judged (those below are not), as written
     * @param warningCount  every WARN line judged
     * @param harmless      the first WARN lines NCCL itself says are harmless (it prints them as INFO in later releases)
     * @param harmlessCount every such line
     * @param judgedElsewhere WARN lines another rule reads (IB completion errors, a missing libibverbs), by count
     */
    public record Errors(List<ErrorChain> chains, long chainCount, long failedChains, long chainLines, List<String> warnings,
                         long warningCount, List<String> harmless, long harmlessCount, long judgedElsewhere) {

        static final Errors NONE = new Errors(List.of(), 0, 0, 0, List.of(), 0, List.of(), 0, 0);
    }

    /**
     * One error's way up the stack in one thread ("host:pid:tid"), as NCCL printed it.
     *
     * @param thread the thread that printed it ("h100-4:739790:739878"; what stands before "NCCL INFO" without that prefix)
     * @param lines  its lines as written, from where the error arose (the first 16)
     * @param count  how many lines it has
     * @param code   the result the first line passes up: an ncclResult_t ({@link #codeName})
     * @param failed it reached the top: a thread's own line ("[Async thread]", "[Progress Thread]"), or init.cc or
     *               group.cc, where the error leaves NCCL for the caller: the call failed
     * @param top    its last line, as written: where it ended (or where the log stops)
     * @param cause  the thread's last WARN line before it, as written; empty when the log holds none
     */
    public record ErrorChain(String thread, List<String> lines, long count, int code, boolean failed, String top, String cause) {

        /**
         * ncclResult_t (src/nccl.h.in): 1 to 5 in every release, 6 ncclRemoteError and 7 ncclInProgress from 2.13.4,
         * 8 ncclTimeout from 2.30.3. NCCLCHECK never passes 7 up. One exception: CUDACHECKTHREAD in group.cc up to 2.12
         * printed a cudaError_t with "[Async thread]" (after cudaSetDevice), which only a chain of that one line shows.
         */
        public static String codeName(int code) {
            return switch (code) {
                case 1 -> "ncclUnhandledCudaError (unhandled cuda error)";
                case 2 -> "ncclSystemError (system error)";
                case 3 -> "ncclInternalError (internal error)";
                case 4 -> "ncclInvalidArgument (invalid argument)";
                case 5 -> "ncclInvalidUsage (invalid usage)";
                case 6 -> "ncclRemoteError (remote error)";
                case 7 -> "ncclInProgress (in progress)";
                case 8 -> "ncclTimeout (timeout)";
                default -> "code " + code + " (no ncclResult_t of any release)";
            };
        }
    }

    static final int KEEP = 10;

    /**
     * The InfiniBand async events NCCL warned about ("NET/IB : mlx5_0:1 Got async event : port error", "… async fatal
     * event on QP (0x…): invalid request local work queue error"), per port and event ({@link IbAsyncEvents} has the
     * wordings by release).
     *
     * @param port  the device and port ("mlx5_0:1"); "" before NCCL 2.21, which did not name it
     * @param event the event as rdma-core names it (ibv_event_type_str): "port error", "local catastrophic error"
     * @param fatal NCCL treats it as fatal (from 2.23 it then fails every communicator on that device, CQ or QP):
     *              DEVICE_FATAL, CQ_ERR, QP_FATAL, QP_REQ_ERR, QP_ACCESS_ERR
     * @param count how many lines said it
     * @param line  the first of them, as written
     */
    public record IbAsyncEvent(String port, String event, boolean fatal, long count, String line) {
    }

    /** The async events per port and event (the first 64 such pairs), and every such line. */
    public record IbAsyncEvents(List<IbAsyncEvent> events, long count) {

        static final IbAsyncEvents NONE = new IbAsyncEvents(List.of(), 0);
    }

    /**
     * PyTorch's DistBackendError for an NCCL call that returned an error ({@link TorchNcclErrors}): "NCCL error in:
     * …/ProcessGroupNCCL.cpp:1333, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.6".
     *
     * @param where     PyTorch's source file and line that made the call
     * @param code      the ncclResult_t whose text NCCL printed ({@link ErrorChain#codeName}); 0 when the text is none of them
     * @param result    NCCL's text for it, as written
     * @param version   the NCCL version PyTorch printed; "" when the line is cut before it
     * @param lastError NCCL's last error (its last WARN's text): on the same line (a flattened block), or on the line after
     *                  "Last error:" within the lines that follow; "" when the text holds neither
     * @param line      the line as written
     * @param framework   the framework that made the call and printed the error: "PyTorch", or "XLA" (JAX, TensorFlow:
     *                    "…/nccl_utils.cc:305: NCCL operation ncclCommInitRank(…) failed: …", {@link TorchNcclErrors#readXla})
     * @param call        the NCCL call as the framework wrote it ("ncclCommInitRank(&comm, nranks, id, rank)"); "" when
     *                    the error does not name it (PyTorch's)
     */
    public record TorchError(String where, int code, String result, String version, String lastError, String line,
                             String framework, String call) {
    }

    /**
     * libfabric's warnings ({@link LibfabricLines}), per provider, function and message.
     *
     * @param provider libfabric's provider ("efa", "core" for libfabric's own code)
     * @param function the function that printed it
     * @param message  the warning's text
     * @param harmless what libfabric warns about for what the network plugin does on purpose
     * @param count    the lines of this group
     * @param line     the first such line as written
     */
    public record LibfabricWarning(String provider, String function, String message, boolean harmless, long count, String line) {
    }

    /** The warnings per provider, function and message (the first 64 such groups), and every such line. */
    public record LibfabricWarnings(List<LibfabricWarning> warnings, long count) {

        static final LibfabricWarnings NONE = new LibfabricWarnings(List.of(), 0);
    }

    /** The first such errors, and every one. */
    public record TorchErrors(List<TorchError> errors, long count) {

        static final TorchErrors NONE = new TorchErrors(List.of(), 0);
    }

    /**
     * A GPU's multi-node NVLink fabric, as NCCL printed it ({@link MnnvlFabric}): "MNNVL busId 0x901000 fabric UUID
     * 3143b15bc2cd192b.28cc9b5473fb5b93 cliqueId 0x7ffe state 3 healthMask 0xaa".
     *
     * @param state      NVML's fabric registration state: 0 not supported, 1 not started, 2 in progress, 3 completed
     * @param healthMask as printed (not decoded)
     * @param line       the line as written
     */
    public record MnnvlGpu(String busId, String fabricUuid, String cliqueId, int state, String healthMask, String line) {

        /** NVML's name for the state (src/include/nvmlwrap.h, NVML_GPU_FABRIC_STATE_*). */
        public String stateName() {
            return switch (state) {
                case 0 -> "not supported";
                case 1 -> "not started";
                case 2 -> "in progress";
                case 3 -> "completed";
                default -> "state " + state + " (no NVML fabric state)";
            };
        }
    }

    /** The GPUs' fabric lines, each distinct one once (the first 64), and every such line. */
    public record Mnnvl(List<MnnvlGpu> gpus, long lines) {

        static final Mnnvl NONE = new Mnnvl(List.of(), 0);
    }

    /**
     * Whether a line is NCCL's, as the parser reads it: with its prefix ("NCCL INFO", "NCCL WARN", the "NCCL version"
     * banner) or, pasted without it, a message in NCCL's own wording ("Channel 00/02 : 0 1", "NET/IB : Using [0]mlx5_0:1/RoCE",
     * "Connected all rings"). For telling a log from other text by its first lines.
     */
    public static boolean isNcclLine(String line) {
        return line.contains("NCCL INFO") || line.contains("NCCL WARN") || line.contains("NCCL version ") || MessageKinds.bare(line) >= 0;
    }

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

    /**
     * The same, read in {@code ranges} parallel ranges whatever the file's size (a small file is otherwise read in one):
     * the class-data training of the launcher reads a small log this way, so that the join's classes are archived too.
     */
    public static NcclLog parseInRanges(Path file, int ranges) {
        return parse(file, ranges, 1);
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
        return LogReader.stream(in, segment).finish(source);
    }

    /** A log read line by line: the reference the block scanner is tested against. */
    public static NcclLog parse(BufferedReader in, String source) throws IOException {
        return LogReader.lines(in).finish(source);
    }
}
