package io.nccldoctor.reports;

import io.nccldoctor.collectives.Libraries;
import io.nccldoctor.collectives.launch.Readiness;
import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.collectives.sweep.SweepRecord;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.GpuSurvey;
import io.nccldoctor.gdr.NicPorts;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * `preflight --quick --network`: the quick check's allreduce with shared memory and P2P off (NCCL_SHM_DISABLE=1,
 * NCCL_P2P_DISABLE=1, as Azure's check_nccl_allreduce_ib_loopback sets them), so that every byte between the node's
 * GPUs goes through its NICs, judged against their line rate; then a GPU loopback per NIC with perftest
 * ({@link LoopbackCheck}). A node whose NICs or GPUDirect RDMA are broken passes the plain quick check (NVLink and
 * P2P carry its traffic) and fails this one. NCCL_NET_GDR_LEVEL is left as NCCL and the user's environment decide,
 * so the check exercises the GPUDirect RDMA decision the node's jobs get.
 */
public final class NetworkCheck {

    public static final RuleInfo FAILED = new RuleInfo("NETWORK_CHECK_FAILED", Severity.ERROR,
            "the NCCL check through the NICs did not complete",
            "preflight --quick --network runs allreduce on the node's GPUs with NCCL_SHM_DISABLE=1 and NCCL_P2P_DISABLE=1, "
                    + "which leaves NCCL only its network transport: every byte between two GPUs of the node leaves through a "
                    + "NIC and comes back (Azure's ib_loopback check does the same). If the plain quick check passes and this "
                    + "one hangs or fails, the NIC path is broken: GPUDirect RDMA registration, a port down, the IB plugin, "
                    + "RoCE addressing.",
            "the child's result, exit status, the tail of its output and of its NCCL log",
            "Read the NCCL log tail (NET/IB errors, 'Call to ibv_reg_mr failed'); run `nccl-doctor gdr --active` and "
                    + "`nccl-doctor preflight` for the ports; try NCCL_NET_GDR_LEVEL=LOC to tell GPUDirect RDMA from the rest.");
    public static final RuleInfo SLOW = new RuleInfo("NETWORK_CHECK_SLOW", Severity.WARN,
            "the NCCL check through the NICs ran below half of their line rate",
            "With shared memory and P2P off each GPU's traffic goes through a NIC, so a ring allreduce's bus bandwidth is "
                    + "bounded by one GPU's share of the NICs: the smaller of one port's rate and all active ports' rates "
                    + "divided by the GPUs. Below half of that points at a NIC or port trained down, GPUDirect RDMA off "
                    + "(bounce through host memory), a NIC on the other socket, or RoCE congestion (PFC pauses, no ECN). "
                    + "Azure expects 18 GB/s of 25 per GPU on its 8-GPU HDR nodes; half is the bound here, for one short run "
                    + "without NUMA pinning or boosted clocks.",
            "the check's peak busbw, the channels' transports from its NCCL log, and the rate of each active RDMA port (ibv_query_port)",
            "Check the ports (`nccl-doctor preflight`: state, rate, MTU), `nccl-doctor gdr` for each GPU's NIC and GDR "
                    + "decision, and `nccl-doctor counters` during a run for pauses and retransmissions.");
    public static final RuleInfo NOT_RDMA = new RuleInfo("NETWORK_CHECK_NOT_RDMA", Severity.WARN,
            "the NCCL check meant for the NICs did not run over RDMA",
            "The channels NCCL logged for the check went over TCP sockets (NET/Socket), or not through the network at all: "
                    + "NCCL found no usable RDMA device (libibverbs missing, ports down, the IB plugin failed to load) and "
                    + "fell back, so the NICs' RDMA path was not tested and jobs across nodes will run on sockets.",
            "the transports of the check's channel lines in its NCCL_DEBUG=INFO log",
            "Look for 'NET/IB : No device found' or plugin errors in the NCCL log; check libibverbs and the ports "
                    + "(`nccl-doctor preflight`), NCCL_IB_HCA and NCCL_NET.");

    /** What forces NCCL's traffic through the NICs (Azure/azurehpc-health-checks azure_nccl_allreduce_ib_loopback.nhc). */
    static final Map<String, String> ENV = Map.of("NCCL_SHM_DISABLE", "1", "NCCL_P2P_DISABLE", "1");
    /** Below this fraction of the expected per-GPU share of the NICs' line rate the check warns. */
    static final double SLOW_FRACTION = 0.5;
    static final String WHAT = "NCCL check through the NICs (--network)";

    /**
     * What the check runs on.
     *
     * @param gpus      what the CUDA driver sees: the child drives every GPU it sees, the loopback uses their indexes
     * @param ports     the RDMA ports as libibverbs sees them, with their line rates
     * @param perftest  the folder of the perftest binaries; empty for PATH
     */
    public record Inputs(Snapshot snapshot, Libraries libs, GpuSurvey gpus, NicPorts ports, Host host, List<String> childCommand,
                         int timeoutSeconds, Map<String, String> env, String perftest) {
    }

    private NetworkCheck() {
    }

    public static List<RuleInfo> infos() {
        return List.of(FAILED, SLOW, NOT_RDMA, LoopbackCheck.FAILED, LoopbackCheck.SLOW);
    }

    /** The checks' findings added to the evaluation, or why they did not run added to what was not checked. */
    public static Evaluation addTo(Evaluation e, Inputs in, Optional<String> cannotRun, Consumer<String> lines)
            throws IOException, InterruptedException {
        List<Evaluation.NotChecked> notChecked = new ArrayList<>(e.notChecked());
        List<Finding> findings = new ArrayList<>(e.findings());
        if (cannotRun.isPresent()) {
            notChecked.add(new Evaluation.NotChecked(FAILED.code(), WHAT, "cannot run here: " + cannotRun.get()));
            notChecked.add(new Evaluation.NotChecked(LoopbackCheck.FAILED.code(), LoopbackCheck.WHAT, "cannot run here: " + cannotRun.get()));
            return new Evaluation(findings, notChecked, e.passed());
        }
        collective(in, findings, notChecked, lines);
        LoopbackCheck.run(in, findings, notChecked, lines);
        return new Evaluation(findings, notChecked, e.passed());
    }

    private static void collective(Inputs in, List<Finding> findings, List<Evaluation.NotChecked> notChecked, Consumer<String> lines)
            throws IOException, InterruptedException {
        Fact<Integer> count = in.gpus().gpus().map(List::size);
        List<String> missing = new ArrayList<>(Readiness.missing(in.libs(), count, 1, in.env()));
        if (missing.isEmpty() && count.get() < 2) {
            missing.add(count.get() == 0 ? "no GPU" : "one GPU: no traffic between ranks to send through the NICs");
        }
        if (!missing.isEmpty()) {
            notChecked.add(new Evaluation.NotChecked(FAILED.code(), WHAT, "cannot run here: " + String.join("; ", missing)));
            return;
        }
        int gpus = count.get();
        List<SweepRecord> records = QuickCheck.measure("network-check", "preflight --quick --network", List.of("allreduce"), ENV, gpus,
                in.timeoutSeconds(), in.childCommand(), in.env(), Files.createTempDirectory("nccl-doctor-network-"));
        Optional<LineRate> rate = LineRate.of(in.ports(), gpus);
        if (rate.isEmpty()) {
            notChecked.add(new Evaluation.NotChecked(SLOW.code(), SLOW.title(), "no ACTIVE RDMA port with a known rate ("
                    + listed(in.ports()) + ")"));
        }
        for (SweepRecord r : records) {
            if (!r.isPoint()) {
                findings.add(QuickCheck.failure(FAILED, r, gpus));
                lines.accept("network " + r.collective() + ": FAILED (" + r.failure() + ")");
                continue;
            }
            judge(r, gpus, rate, findings, lines);
        }
    }

    static void judge(SweepRecord r, int gpus, Optional<LineRate> rate, List<Finding> findings, Consumer<String> lines) {
        String via = transports(r);
        if (r.transports() != null && !rdma(r.transports())) {
            findings.add(new Finding(NOT_RDMA.code(), NOT_RDMA.severity(), r.collective(), r.collective() + " with SHM and P2P off ran "
                    + "via " + via + ", not over RDMA", List.of("channels: " + via, "NCCL " + r.ncclVersion() + " from " + r.ncclLibrary()),
                    NOT_RDMA.remedy()));
        }
        Optional<NcclTestsOutput.Row> peak = QuickCheck.peak(r);
        if (peak.isEmpty()) {
            return;
        }
        double bus = peak.get().outOfPlace().busBwGBps();
        lines.accept(String.format(Locale.ROOT, "network %s (SHM and P2P off): peak busbw %.2f GB/s at %d bytes via %s (NCCL %s)%s",
                r.collective(), bus, peak.get().sizeBytes(), via, r.ncclVersion(),
                rate.map(x -> String.format(Locale.ROOT, "; expected per GPU %.2f GB/s (%s)", x.perGpuGBps(), x.describe())).orElse("")));
        if (rate.isPresent() && bus < SLOW_FRACTION * rate.get().perGpuGBps()) {
            LineRate x = rate.get();
            findings.add(new Finding(SLOW.code(), SLOW.severity(), r.collective(), String.format(Locale.ROOT,
                    "%s through the NICs on %d GPUs peaks at %.2f GB/s, under half of the %.2f GB/s per GPU their line rate allows",
                    r.collective(), gpus, bus, x.perGpuGBps()), List.of(
                    String.format(Locale.ROOT, "peak busbw %.2f GB/s at %d bytes, channels via %s", bus, peak.get().sizeBytes(), via),
                    "line rate: " + x.describe(), "NCCL " + r.ncclVersion() + " from " + r.ncclLibrary()), SLOW.remedy()));
        }
    }

    /** "2 ports listed", or why libibverbs listed none. */
    static String listed(NicPorts ports) {
        return ports.ports().fold(p -> p.size() + (p.size() == 1 ? " port" : " ports") + " listed", r -> r);
    }

    /** Whether every channel went over a network transport other than sockets (NET/IB, or an RDMA plugin's NET/…). */
    static boolean rdma(Map<String, Long> transports) {
        return !transports.isEmpty() && transports.keySet().stream().allMatch(t -> t.startsWith("NET/") && !t.startsWith("NET/Socket"));
    }

    private static String transports(SweepRecord r) {
        if (r.transports() == null) {
            return "(no NCCL log: transport unknown)";
        }
        if (r.transports().isEmpty()) {
            return "(no channel line in the NCCL log)";
        }
        List<String> out = new ArrayList<>();
        r.transports().forEach((t, n) -> out.add(t + " (" + n + ")"));
        return String.join(", ", out);
    }

    /**
     * One GPU's share of the node's RDMA ports: the smaller of one port's rate and all active ports' rates over the GPUs
     * (a ring sends each GPU's bytes through one NIC at a time; GPUs outnumbering ports share them).
     */
    record LineRate(int ports, double totalGbps, double maxGbps, int gpus) {

        static Optional<LineRate> of(NicPorts ports, int gpus) {
            List<NicPorts.Port> active = ports.ports().orElse(List.of()).stream().filter(p -> p.active() && p.rateGbps() > 0).toList();
            if (active.isEmpty()) {
                return Optional.empty();
            }
            double total = active.stream().mapToDouble(NicPorts.Port::rateGbps).sum();
            double max = active.stream().mapToDouble(NicPorts.Port::rateGbps).max().orElse(0);
            return Optional.of(new LineRate(active.size(), total, max, gpus));
        }

        double perGpuGBps() {
            return Math.min(totalGbps / gpus, maxGbps) / 8;
        }

        String describe() {
            return String.format(Locale.ROOT, "%d active port%s, %.0f Gb/s in all, %.0f Gb/s the fastest, %d GPUs", ports,
                    ports == 1 ? "" : "s", totalGbps, maxGbps, gpus);
        }
    }
}
