package io.nccldoctor.reports.render;

import io.nccldoctor.collectives.parse.NcclTestsOutput.Placement;
import io.nccldoctor.collectives.parse.NcclTestsOutput.Row;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Severity;
import io.nccldoctor.reports.results.Ceiling;
import io.nccldoctor.reports.results.Check;
import io.nccldoctor.reports.results.PortTraffic;
import io.nccldoctor.reports.results.Report;
import io.nccldoctor.reports.results.ResultSet;
import io.nccldoctor.reports.results.Sweep;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A small report with everything a renderer must cope with: three sweeps (one without in-place figures or
 * validation, one with wrong elements), two ceilings, two traffic sets (one idle, so its CV is NaN), findings of
 * every severity, a waived check, and a host name and a log line carrying HTML, a pipe, a quote, a newline and a
 * control character.
 */
final class SampleReport {

    /** What a hostile or broken host could put into a name or a log line. */
    static final String HOSTILE = "node-b|<script>alert(1)</script> \"q\"\nnext & \u0007bell";
    static final String HOST = "gpu-node-17";
    static final String LOG_LINE = "gpu-node-17:2201:2245 [3] NCCL WARN <script>alert(1)</script> | \"peer\" hung\nretrying";

    private SampleReport() {
    }

    static Report report() {
        ResultSet data = new ResultSet("Rack 7 | 2 nodes, 16 GPUs", true, "2026-11-30T12:00:00Z",
                List.of("results/allreduce.txt", "bundle_<2>.json"), List.of(node(HOST), node(HOSTILE)),
                List.of(allreduce(), alltoall(), allgather()), ceilings(), traffic());
        return new Report(data, checks(), checks().stream().flatMap(c -> c.findings().stream()).toList());
    }

    private static Snapshot node(String host) {
        return new Snapshot(Snapshot.SCHEMA_VERSION, "test", host, "2026-11-30T11:58:00Z", "test", List.of("capture"), Map.of(), Map.of());
    }

    /** 16 ranks on 2 nodes, validated, in-place measured. */
    private static Sweep allreduce() {
        List<Row> rows = List.of(
                row(1024, 256, place(28.51, 0.04, 0.07, 0), place(27.9, 0.04, 0.07, 0)),
                row(1 << 20, 262144, place(210.33, 4.99, 9.35, 0), place(208.1, 5.04, 9.45, 0)),
                row(1L << 30, 268435456, place(52_013.5, 20.64, 38.71, 0), place(51_877.2, 20.70, 38.81, 0)));
        Map<String, String> env = new LinkedHashMap<>();
        env.put("NCCL_PROTO", "Simple");
        env.put("NCCL_IB_HCA", "=mlx5_0,mlx5_1");
        return new Sweep("allreduce", "results/allreduce.txt", "nccl-tests", Fact.of("allreduce"), Fact.of(16), Fact.of(2), env,
                Fact.of("2.28.3"), rows, Map.of(), 0);
    }

    /** -c 0: no #wrong, and a build that printed N/A for in-place; the version is not in the output. */
    private static Sweep alltoall() {
        Placement out = new Placement(1_900.25, 17.66, 16.56, Fact.absent("N/A: validation off (-c 0)"), Fact.absent("new layout"));
        Row r = new Row(33_554_432, 524_288, "float", Fact.absent("no redop column"), Fact.absent("no root column"), out,
                Fact.absent("no in-place measurement (N/A)"));
        return new Sweep("alltoall -c 0", "alltoall.log", "nccl-tests", Fact.of("alltoall"), Fact.of(16), Fact.of(2), Map.of(),
                Fact.absent("no '# nccl-tests version' header (older nccl-tests, or cut)"), List.of(r), Map.of(), 0);
    }

    /** A repeated run under a host-given label whose largest size returned wrong elements; the world size is unknown. */
    private static Sweep allgather() {
        List<Row> rows = List.of(
                row(1536, 24, place(30.1, 0.05, 0.05, 0), place(29.4, 0.05, 0.05, 0)),
                row(1_572_864, 24_576, place(95.4, 16.49, 15.46, 3), place(94.8, 16.59, 15.55, 0)));
        return new Sweep("allgather " + HOSTILE, "ag.txt", "nccl-doctor run", Fact.of("allgather"),
                Fact.absent("no '# Rank' lines"), Fact.of(1), Map.of("NCCL_ALGO", "Ring|Tree <b>"), Fact.of("2.27.5"), rows, Map.of(), 1);
    }

    private static Row row(long size, long count, Placement out, Placement in) {
        return new Row(size, count, "float", Fact.of("sum"), Fact.of(-1), out, Fact.of(in));
    }

    private static Placement place(double time, double alg, double bus, long wrong) {
        return new Placement(time, alg, bus, Fact.of(wrong), Fact.absent("new layout: #wrong"));
    }

    private static List<Ceiling> ceilings() {
        return List.of(
                new Ceiling("mlx5_0 PCIe Gen4 x8 slot", 12.61, "0000:01:00.0 (Gen4 x8)",
                        List.of("LnkSta 16GT/s x8 (lspci -vv)", "128b/130b encoding, 242 B of 256 B TLP payload"), Ceiling.Kind.PCIE),
                new Ceiling("NIC line rate", 25.0, "mlx5_0/1 + mlx5_1/1 (2 x 100 Gbit/s)",
                        List.of("/sys/class/infiniband/mlx5_0/ports/1/rate: 100 Gb/sec (4X EDR)"), Ceiling.Kind.LINE_RATE));
    }

    private static List<PortTraffic> traffic() {
        Map<String, Long> uplinks = new LinkedHashMap<>();
        uplinks.put("swp1", 70_000_000_000L);
        uplinks.put("swp2", 20_000_000_000L);
        uplinks.put("swp3 \"spine|2\"", 5_000_000_000L);
        uplinks.put("swp4", 5_000_000_000L);
        Map<String, Long> idle = new LinkedHashMap<>();
        idle.put("swp49", 0L);
        idle.put("swp50", 0L);
        return List.of(new PortTraffic("leaf1 uplinks, 5-tuple ECMP", uplinks, "switch Tx counters"),
                new PortTraffic("spine idle", idle, "switch Tx counters"));
    }

    static List<Check> checks() {
        Finding wrong = new Finding("WRONG_ELEMENTS", Severity.ERROR, "allgather " + HOSTILE,
                "allgather returned 3 wrong elements at 1.5 MiB", List.of("ag.txt:41: 1572864 24576 float ... 3", LOG_LINE),
                "Do not trust the bandwidth of a corrupting run; check the NIC and GPU error counters.");
        Finding clean = new Finding("WRONG_ELEMENTS", Severity.INFO, "allgather in-place", "in-place results validated clean",
                List.of("ag.txt:41: in-place #wrong 0"), "None needed.");
        Finding acs = new Finding("ACS_REDIRECT_ON_P2P_PATH", Severity.WARN, "0000:16:02.0",
                "ACS redirect is enabled on a PCIe switch port between GPUs or between a GPU and a NIC",
                List.of("0000:16:02.0 ACSCtl: SrcValid+ ReqRedir+ CmpltRedir+ (lspci -vv)"),
                "Clear it at boot (`setpci -s BDF ECAP_ACS+6.w=0000`) unless the node passes devices to VMs.");
        Finding versions = new Finding("NCCL_VERSIONS_DIFFER", Severity.INFO, "libnccl.so.2",
                "Two NCCL libraries: 2.27.5 (python) and 2.28.3 (ldconfig)",
                List.of("/usr/lib/x86_64-linux-gnu/libnccl.so.2.28.3", LOG_LINE),
                "Make sure the job loads the one you tested: NCCL_DEBUG=VERSION prints it.");
        Finding busbw = new Finding("BUSBW_BELOW_CEILING", Severity.WARN, "allreduce",
                "allreduce plateaus at 38.71 GB/s, 72 % of the narrowest link", List.of("1 GiB: busbw 38.71 GB/s"),
                "Look at the NIC-GPU placement first.");
        return Stream.of(
                new Check("WRONG_ELEMENTS", "nccl-tests returned no wrong elements", "results", null, List.of(wrong, clean)),
                new Check("BUSBW_BELOW_CEILING", "bus bandwidth reaches the narrowest link", "results", null, List.of(busbw)),
                new Check("ACS_REDIRECT_ON_P2P_PATH", "no ACS redirect between GPUs and NICs", HOST, null, List.of(acs)),
                new Check("NCCL_VERSIONS_DIFFER", "one NCCL library", HOSTILE, null, List.of(versions)),
                new Check("IOMMU_TRANSLATION", "the IOMMU passes peer traffic through", HOST, null, List.of()),
                new Check("GDR_READ_ASYMMETRY", "GPUDirect reads as fast as writes", HOSTILE,
                        "no gdr section: <run> `gdr --active` | first\n",
                        List.of()))
                .toList();
    }
}
