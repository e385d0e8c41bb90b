package io.nccldoctor.reports;

import io.nccldoctor.gdr.GpuSurvey;
import io.nccldoctor.gdr.NicLoopback;
import io.nccldoctor.gdr.NicPorts;
import io.nccldoctor.pcie.DeviceKind;
import io.nccldoctor.pcie.Topology;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The GPU loopback per NIC of `preflight --quick --network`: ib_write_bw with GPU memory on both sides through each
 * active RDMA port (NicLoopback), each port with the GPU nearest to it, judged against the port's line rate.
 */
final class LoopbackCheck {

    static final RuleInfo FAILED = new RuleInfo("NIC_LOOPBACK_FAILED", Severity.ERROR,
            "a GPU loopback through a NIC failed",
            "preflight --quick --network runs ib_write_bw with --use_cuda on both sides of each active RDMA port of this "
                    + "host, as Azure's check_ib_bw_gdr does: the NIC reads one GPU buffer and writes another through its "
                    + "own loopback, so the GPU–NIC PCIe path is exercised in both directions without a peer. A failure to "
                    + "register GPU memory (errno 14: no peer-memory client; 93/95: no DMA-BUF), to connect or to move "
                    + "data is what a job's GPUDirect RDMA traffic will meet.",
            "ib_write_bw's output per port: its errors, or the absence of the 8 MiB row",
            "Read the error in the evidence; `nccl-doctor gdr --active` tells peer memory from DMA-BUF registration and "
                    + "names what is missing.");
    static final RuleInfo SLOW = new RuleInfo("NIC_LOOPBACK_SLOW", Severity.WARN,
            "a GPU loopback through a NIC ran below 80 % of the port's line rate",
            "A loopback of 8 MiB writes between GPU buffers reaches close to the port's rate on a healthy node: Azure fails "
                    + "its H100 nodes below 380 of 400 Gb/s (check_ib_bw_gdr 380). Far below it, the GPU–NIC path limits: "
                    + "a PCIe link trained down, the GPU and NIC on different sockets, GPUDirect reads throttled by the "
                    + "chipset (the field report's Arrow Lake), or the port itself. 80 % is the bound here, for a run "
                    + "without NUMA pinning or boosted clocks.",
            "the average Gb/s of ib_write_bw's 8 MiB row against the port's rate (ibv_query_port: width × lane speed)",
            "Check `nccl-doctor topo` for the GPU–NIC path and its links, and `nccl-doctor gdr --active` for the read/write "
                    + "matrix; move the test to the GPU under the NIC's PCIe switch if another was used.");

    /** Azure fails below 95 % (380 of 400 Gb/s); this run is not pinned or boosted, so 80 %. */
    static final double SLOW_FRACTION = 0.8;
    /** perftest's default TCP port for the connection set-up; each port's test takes the next one. */
    static final int BASE_PORT = 18515;
    static final Duration TIMEOUT = Duration.ofSeconds(60);
    static final String WHAT = "GPU loopback per NIC (--network)";

    private LoopbackCheck() {
    }

    static void run(NetworkCheck.Inputs in, List<Finding> findings, List<Evaluation.NotChecked> notChecked, Consumer<String> lines) {
        List<NicPorts.Port> ports = in.ports().ports().orElse(List.of()).stream().filter(NicPorts.Port::active).toList();
        List<GpuSurvey.Gpu> gpus = in.gpus().gpus().orElse(List.of());
        if (ports.isEmpty() || gpus.isEmpty()) {
            String why = ports.isEmpty() ? "no ACTIVE RDMA port (" + NetworkCheck.listed(in.ports()) + ")"
                    : "no GPU (" + in.gpus().gpus().fold(g -> "none visible", r -> r) + ")";
            notChecked.add(new Evaluation.NotChecked(FAILED.code(), WHAT, "cannot run: " + why));
            return;
        }
        List<NicLoopback.Pair> pairs = pairs(in, ports, gpus);
        for (NicLoopback.Result r : NicLoopback.run(in.host(), pairs, in.perftest(), BASE_PORT, TIMEOUT)) {
            if (r.notRun()) {
                notChecked.add(new Evaluation.NotChecked(FAILED.code(), WHAT, "cannot run: " + r.gbps().reason()
                        + " (perftest's ib_write_bw, with CUDA support, runs it)"));
                return;
            }
            judge(r, ports.stream().filter(p -> p.device().equals(r.pair().hca()) && p.port() == r.pair().port()).findFirst().orElseThrow(),
                    findings, lines);
        }
    }

    private static void judge(NicLoopback.Result r, NicPorts.Port port, List<Finding> findings, Consumer<String> lines) {
        NicLoopback.Pair p = r.pair();
        String subject = p.hca() + " port " + p.port();
        String gpu = "GPU " + p.gpu() + " (" + p.gpuBusId() + ")";
        if (!r.gbps().isValue()) {
            lines.accept("loopback " + subject + " with " + gpu + ": FAILED (" + r.gbps().reason() + ")");
            findings.add(new Finding(FAILED.code(), FAILED.severity(), subject, subject + ": GPU loopback with " + gpu + " failed",
                    List.of(r.gbps().reason(), "command: " + String.join(" ", r.argv())), FAILED.remedy()));
            return;
        }
        double gbps = r.gbps().get();
        lines.accept(String.format(Locale.ROOT, "loopback %s with %s: %.2f Gb/s of %s Gb/s", subject, gpu, gbps, NicPorts.gbps(port.rateGbps())));
        if (port.rateGbps() > 0 && gbps < SLOW_FRACTION * port.rateGbps()) {
            findings.add(new Finding(SLOW.code(), SLOW.severity(), subject, String.format(Locale.ROOT,
                    "%s: GPU loopback with %s at %.2f Gb/s, %.0f %% of the port's %s Gb/s", subject, gpu, gbps, 100 * gbps / port.rateGbps(),
                    NicPorts.gbps(port.rateGbps())), List.of(String.format(Locale.ROOT, "ib_write_bw 8 MiB average %.2f Gb/s", gbps),
                    "port: " + port.describe(), "command: " + String.join(" ", r.argv())), SLOW.remedy()));
        }
    }

    /**
     * Each active port with the GPU nearest to its NIC in the PCIe topology (the GPU NCCL would pair with it), by CUDA
     * index; where the topology does not tell (no sysfs, the NIC not in it), GPU i mod n for the i-th port, as Azure's
     * check pairs GPU i with HCA i.
     */
    static List<NicLoopback.Pair> pairs(NetworkCheck.Inputs in, List<NicPorts.Port> ports, List<GpuSurvey.Gpu> gpus) {
        Optional<Topology> topo = TopologyView.of(in.snapshot(), Optional.empty());
        List<NicLoopback.Pair> out = new ArrayList<>();
        for (int i = 0; i < ports.size(); i++) {
            NicPorts.Port p = ports.get(i);
            GpuSurvey.Gpu g = topo.flatMap(t -> nearest(t, p.device(), gpus)).orElse(gpus.get(i % gpus.size()));
            out.add(new NicLoopback.Pair(p.device(), p.port(), g.index(), g.busId()));
        }
        return out;
    }

    private static Optional<GpuSurvey.Gpu> nearest(Topology t, String device, List<GpuSurvey.Gpu> gpus) {
        Optional<Topology.Endpoint> nic = t.endpoints().stream().filter(e -> e.kind() == DeviceKind.NIC && e.name().equals(device)).findFirst();
        if (nic.isEmpty()) {
            return Optional.empty();
        }
        return t.endpoints().stream().filter(e -> e.kind() == DeviceKind.GPU)
                .min(Comparator.comparing(e -> t.pair(e.label(), nic.get().label()).smiPath()))
                .flatMap(e -> gpus.stream().filter(g -> g.busId().equals(e.address())).findFirst());
    }
}
