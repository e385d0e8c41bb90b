package io.nccldoctor.reports.results;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.PerftestMatrix;
import io.nccldoctor.gdr.PerftestMatrixProbe;
import io.nccldoctor.pcie.Topology;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.ResultThresholds;
import io.nccldoctor.reports.TopologyView;
import io.nccldoctor.reports.chart.Chart;
import io.nccldoctor.reports.chart.GpuNicHeatMap;
import io.nccldoctor.reports.chart.PathMatrix;
import io.nccldoctor.reports.chart.PortBalance;
import io.nccldoctor.reports.chart.SizeSweep;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The charts of a report, by name (what `report --chart NAME` takes): "busbw", one line per collective on the same
 * ranks and nodes, and "busbw-COLLECTIVE" for a collective's variants (pinned protocols, repeats); "-2", "-3" … for
 * further groups of ranks and nodes; single-rank sweeps get none (busbw is 0 by definition). "aligned" for a run
 * with misaligned sizes against its aligned ones,
 * "nic-reads-HOST" and "nic-writes-HOST" for a node's perftest matrix, "paths-HOST" for its path-type matrix, and
 * "traffic" ("traffic-2", …) for per-link bytes. Regions flagged by a finding are shaded.
 */
public final class ReportCharts {

    private ReportCharts() {
    }

    public static Map<String, Chart> all(Report r, ResultThresholds t) {
        Map<String, Chart> charts = new LinkedHashMap<>();
        List<List<Sweep>> groups = groups(r.data().sweeps()).stream().filter(g -> g.get(0).ranks().orElse(2) > 1).toList();
        for (int g = 0; g < groups.size(); g++) {
            String suffix = g == 0 ? "" : "-" + (g + 1);
            List<Sweep> group = groups.get(g);
            // one line per collective (its first sweep without a pinned protocol), then each collective's variants
            Map<String, List<Sweep>> byCollective = new LinkedHashMap<>();
            group.forEach(s -> byCollective.computeIfAbsent(s.collective().orElse("?"), k -> new ArrayList<>()).add(s));
            List<Sweep> overview = byCollective.values().stream().map(l -> l.stream().filter(s -> s.env().isEmpty() && s.repeat() == 0)
                    .findFirst().orElse(l.get(0))).toList();
            charts.put("busbw" + suffix, sweepChart(r, overview, t, "one line per collective"));
            byCollective.forEach((c, l) -> {
                if (l.size() > 1) {
                    charts.put("busbw-" + c + suffix, sweepChart(r, l, t, c + " variants"));
                }
            });
        }
        r.data().sweeps().stream().filter(s -> s.aligned().containsValue(false)).findFirst().ifPresent(s -> charts.put("aligned", aligned(r, s)));
        for (Snapshot n : r.data().nodes()) {
            PerftestMatrix m = n.section(PerftestMatrixProbe.KEY, PerftestMatrix.class);
            if (m != null && m.cells().isValue() && !m.cells().get().isEmpty()) {
                charts.put("nic-reads-" + n.hostName(), heatMap(n.hostName(), m, PerftestMatrix.Direction.NIC_READS_GPU));
                charts.put("nic-writes-" + n.hostName(), heatMap(n.hostName(), m, PerftestMatrix.Direction.NIC_WRITES_GPU));
            }
            paths(n).ifPresent(p -> charts.put("paths-" + n.hostName(), p));
        }
        for (int i = 0; i < r.data().traffic().size(); i++) {
            PortTraffic p = r.data().traffic().get(i);
            charts.put(i == 0 ? "traffic" : "traffic-" + (i + 1), new PortBalance(p.label(),
                    p.txBytes().entrySet().stream().map(e -> new PortBalance.Port(e.getKey(), e.getValue())).toList()));
        }
        return charts;
    }

    /** Sweeps grouped by ranks and nodes, in input order. */
    static List<List<Sweep>> groups(List<Sweep> sweeps) {
        Map<List<Object>, List<Sweep>> g = new LinkedHashMap<>();
        for (Sweep s : sweeps) {
            g.computeIfAbsent(List.of(s.ranks(), s.nodes()), k -> new ArrayList<>()).add(s);
        }
        return new ArrayList<>(g.values());
    }

    private static String name(Sweep s) {
        return s.label() + (s.repeat() > 0 ? " (run " + (s.repeat() + 1) + ")" : "");
    }

    private static SizeSweep sweepChart(Report r, List<Sweep> group, ResultThresholds t, String what) {
        Sweep first = group.get(0);
        String where = first.ranks().map(n -> n + " rank" + (n == 1 ? "" : "s")).orElse("ranks unknown")
                + first.nodes().map(n -> " on " + n + " node" + (n == 1 ? "" : "s")).orElse("");
        List<SizeSweep.Series> series = new ArrayList<>();
        for (Sweep s : group) {
            if (s.aligned().containsValue(false)) { // a line through aligned and misaligned sizes would zigzag
                series.add(new SizeSweep.Series(name(s), points(s, true)));
                series.add(new SizeSweep.Series(name(s) + ", misaligned sizes", points(s, false)));
            } else {
                series.add(new SizeSweep.Series(name(s), s.rows().stream().filter(x -> x.sizeBytes() > 0)
                        .map(x -> new SizeSweep.Point(x.sizeBytes(), x.outOfPlace().busBwGBps())).toList()));
            }
        }
        series.removeIf(x -> x.points().isEmpty());
        boolean multiNode = first.nodes().orElse(2) > 1;
        List<SizeSweep.Ceiling> ceilings = multiNode ? r.data().ceilings().stream()
                .map(c -> new SizeSweep.Ceiling(c.label(), c.busBwGBps())).toList() : List.of();
        return new SizeSweep("Bus bandwidth, " + where + ": " + what, "busbw (GB/s)", series, ceilings, regions(r, group, t));
    }

    /** The size ranges the findings point at, for the sweeps of one chart. */
    static List<SizeSweep.Region> regions(Report r, List<Sweep> group, ResultThresholds t) {
        List<SizeSweep.Region> out = new ArrayList<>();
        for (Finding f : r.findings()) {
            for (Sweep s : group) {
                if (!f.subject().equals(s.label()) || s.repeat() > 0) {
                    continue;
                }
                switch (f.code()) {
                    case "CONSTANT_CEILING" -> {
                        SweepMath.Run run = SweepMath.flattest(s.rows(), t.constantBand());
                        if (run != null) {
                            out.add(new SizeSweep.Region(s.rows().get(run.from()).sizeBytes(), s.rows().get(run.to()).sizeBytes(),
                                    "constant: " + s.label()));
                        }
                    }
                    case "ALIGNMENT_CLIFF" -> span(s.rows().stream().filter(x -> !s.aligned().getOrDefault(x.sizeBytes(), true)).toList(),
                            "misaligned: " + s.label()).ifPresent(out::add);
                    case "DATA_CORRUPTION" -> span(s.rows().stream().filter(ReportCharts::wrong).toList(), "wrong data: " + s.label())
                            .ifPresent(out::add);
                    default -> {
                    }
                }
            }
        }
        return out.stream().distinct().toList();
    }

    /** One band over the rows' sizes (a little wider than the first and last), so the legend names it once. */
    private static Optional<SizeSweep.Region> span(List<NcclTestsOutput.Row> rows, String label) {
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new SizeSweep.Region(rows.get(0).sizeBytes() * 7 / 8, rows.get(rows.size() - 1).sizeBytes() * 8 / 7, label));
    }

    private static boolean wrong(NcclTestsOutput.Row x) {
        return x.outOfPlace().wrong().orElse(0L) > 0 || (x.inPlace().isValue() && x.inPlace().get().wrong().orElse(0L) > 0);
    }

    /** A run's aligned sizes against its misaligned ones, and nccl-tests for the same collective and ranks. */
    private static SizeSweep aligned(Report r, Sweep s) {
        List<SizeSweep.Series> series = new ArrayList<>();
        series.add(new SizeSweep.Series(s.label() + ", 16-byte aligned chunks", points(s, true)));
        series.add(new SizeSweep.Series(s.label() + ", misaligned chunks", points(s, false)));
        r.data().sweeps().stream().filter(o -> o.tool().startsWith("nccl-tests") && o.collective().equals(s.collective())
                && Objects.equals(o.ranks(), s.ranks())).findFirst()
                .ifPresent(o -> series.add(new SizeSweep.Series("nccl-tests: " + o.label(), o.rows().stream().filter(x -> x.sizeBytes() > 0)
                        .map(x -> new SizeSweep.Point(x.sizeBytes(), x.outOfPlace().busBwGBps())).toList())));
        return new SizeSweep("Aligned against misaligned chunks: " + s.label(), "busbw (GB/s)",
                series.stream().filter(x -> !x.points().isEmpty()).toList(), List.of(), List.of());
    }

    private static List<SizeSweep.Point> points(Sweep s, boolean aligned) {
        return s.rows().stream().filter(x -> x.sizeBytes() > 0 && s.aligned().getOrDefault(x.sizeBytes(), true) == aligned)
                .map(x -> new SizeSweep.Point(x.sizeBytes(), x.outOfPlace().busBwGBps())).toList();
    }

    private static GpuNicHeatMap heatMap(String host, PerftestMatrix m, PerftestMatrix.Direction d) {
        List<String> gpus = m.cells().get().stream().map(c -> "GPU" + c.gpu()).distinct().toList();
        List<String> nics = m.cells().get().stream().map(PerftestMatrix.Cell::hca).distinct().toList();
        List<List<GpuNicHeatMap.Reading>> readings = new ArrayList<>();
        for (String g : gpus) {
            List<GpuNicHeatMap.Reading> row = new ArrayList<>();
            for (String n : nics) {
                Optional<PerftestMatrix.Cell> c = m.cells().get().stream().filter(x -> ("GPU" + x.gpu()).equals(g) && x.hca().equals(n)
                        && x.direction() == d).findFirst();
                row.add(c.isEmpty() ? new GpuNicHeatMap.NotMeasured()
                        : c.get().averageGbps().isValue() ? new GpuNicHeatMap.Measured(c.get().averageGbps().get())
                        : new GpuNicHeatMap.Failed(c.get().problem().orElse(c.get().averageGbps().reason())));
            }
            readings.add(row);
        }
        return GpuNicHeatMap.of(host, d == PerftestMatrix.Direction.NIC_READS_GPU ? GpuNicHeatMap.Direction.NIC_READS_GPU
                : GpuNicHeatMap.Direction.NIC_WRITES_GPU, gpus, nics, readings);
    }

    /** The node's GPU and NIC path types, as `nvidia-smi topo -m` shows them. */
    private static Optional<Chart> paths(Snapshot n) {
        Optional<Topology> topo = TopologyView.of(n, Optional.empty());
        if (topo.isEmpty() || topo.get().endpoints().size() < 2) {
            return Optional.empty();
        }
        List<String> labels = topo.get().endpoints().stream().map(e -> e.kind().name().startsWith("NIC") || e.kind().name().contains("NIC")
                ? e.name() : e.label()).toList();
        List<List<String>> cells = new ArrayList<>();
        for (Topology.Endpoint a : topo.get().endpoints()) {
            List<String> row = new ArrayList<>();
            for (Topology.Endpoint b : topo.get().endpoints()) {
                row.add(a == b ? "X" : topo.get().pair(a.label(), b.label()).smiPath().name());
            }
            cells.add(row);
        }
        return Optional.of(PathMatrix.square(n.hostName() + ": PCIe path types (nvidia-smi topo -m)", labels, cells));
    }
}
