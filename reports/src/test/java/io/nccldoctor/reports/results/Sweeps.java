package io.nccldoctor.reports.results;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.Fact;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RulesConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongToDoubleFunction;

/** Synthetic sweeps for the detector tests. */
final class Sweeps {

    private Sweeps() {
    }

    static NcclTestsOutput.Row row(long bytes, double busBw, double inPlaceBusBw, long wrong) {
        double time = bytes == 0 || busBw <= 0 ? 1 : bytes / (busBw * 1e3);
        return new NcclTestsOutput.Row(bytes, bytes / 4, "float", Fact.of("sum"), Fact.of(-1),
                new NcclTestsOutput.Placement(time, busBw, busBw, Fact.of(wrong), Fact.absent("#wrong layout")),
                Fact.of(new NcclTestsOutput.Placement(time, inPlaceBusBw, inPlaceBusBw, Fact.of(0L), Fact.absent("#wrong layout"))));
    }

    /** Powers of two from {@code from} to {@code to} bytes, busbw from the function, in-place equal. */
    static List<NcclTestsOutput.Row> rows(long from, long to, LongToDoubleFunction busBw) {
        List<NcclTestsOutput.Row> r = new ArrayList<>();
        for (long b = from; b <= to; b *= 2) {
            r.add(row(b, busBw.applyAsDouble(b), busBw.applyAsDouble(b), 0));
        }
        return r;
    }

    /** A healthy curve: rises with size, levels off at {@code plateau}. */
    static double healthy(long bytes, double plateau) {
        return plateau * bytes / (bytes + 4.0 * 1048576);
    }

    static Sweep sweep(String label, String collective, int ranks, int nodes, Map<String, String> env, List<NcclTestsOutput.Row> rows) {
        return new Sweep(label, label + ".txt", "nccl-tests", Fact.of(collective), Fact.of(ranks), Fact.of(nodes), env,
                Fact.of("2.27.5"), rows, Map.of(), 0);
    }

    static ResultSet set(List<Sweep> sweeps, List<Ceiling> ceilings, List<PortTraffic> traffic) {
        List<Sweep> numbered = new ArrayList<>();
        Map<String, Integer> seen = new java.util.HashMap<>();
        for (Sweep s : sweeps) {
            numbered.add(s.withLabel(s.label(), seen.merge(s.label(), 1, Integer::sum) - 1));
        }
        return new ResultSet("test", false, "2026-11-30T00:00:00Z", List.of(), List.of(), numbered, ceilings, traffic);
    }

    static Ceiling line(double gbps) {
        return new Ceiling("n1: NIC line rate", gbps / 8, "mlx5_0/1 + mlx5_1/1 (" + (int) gbps + " Gbit/s)", List.of(), Ceiling.Kind.LINE_RATE);
    }

    static Ceiling pcie(double gbps) {
        return new Ceiling("n1: NIC PCIe link", gbps / 8, "0000:01:00 (PCIe Gen4 x8)", List.of(), Ceiling.Kind.PCIE);
    }

    static List<Finding> findings(ResultRule rule, ResultSet set) {
        return rule.check(set, new RuleContext(RulesConfig.defaults(), io.nccldoctor.reports.NodeShape.none())).findings();
    }

    static List<Finding> all(ResultSet set) {
        return Reports.judge(set, List.of(), new RuleContext(RulesConfig.defaults(), io.nccldoctor.reports.NodeShape.none())).findings();
    }
}
