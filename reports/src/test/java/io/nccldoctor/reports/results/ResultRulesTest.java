package io.nccldoctor.reports.results;

import static io.nccldoctor.reports.results.Sweeps.findings;
import static io.nccldoctor.reports.results.Sweeps.healthy;
import static io.nccldoctor.reports.results.Sweeps.line;
import static io.nccldoctor.reports.results.Sweeps.pcie;
import static io.nccldoctor.reports.results.Sweeps.row;
import static io.nccldoctor.reports.results.Sweeps.rows;
import static io.nccldoctor.reports.results.Sweeps.set;
import static io.nccldoctor.reports.results.Sweeps.sweep;
import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.Fact;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each detector on data that must fire it and data that must not, at both sides of its threshold. */
class ResultRulesTest {

    static final long KIB = 1024;
    static final long MIB = 1024 * KIB;
    static final long GIB = 1024 * MIB;

    /** The field report's flooding switch: 5,203 MiB/s for every size from 1 KiB up on a 100G dual-rail fabric. */
    @Test
    void constantCeilingFiresOnTheFieldReportsFloodingNumber() {
        double flooded = 5203.0 * 1048576 / 1e9;
        Sweep s = sweep("allreduce", "allreduce", 3, 3, Map.of(), rows(KIB, GIB, b -> flooded));
        List<Finding> f = findings(new ConstantCeiling(), set(List.of(s), List.of(line(200)), List.of()));
        assertThat(f).hasSize(1);
        assertThat(f.get(0).title()).contains("constant at 5.46 GB/s from 1 KiB to 1 GiB");
        assertThat(f.get(0).evidence()).anyMatch(e -> e.contains("5,203 MiB/s")).anyMatch(e -> e.contains("already flat at 1 KiB"));
    }

    @Test
    void constantCeilingIgnoresHealthyPlateausAndPlateausAtTheLink() {
        Sweep healthy = sweep("allreduce", "allreduce", 3, 3, Map.of(), rows(KIB, 4 * GIB, b -> healthy(b, 23)));
        assertThat(findings(new ConstantCeiling(), set(List.of(healthy), List.of(line(200)), List.of()))).isEmpty();
        // a plateau that forms only at large sizes, however low, is FAR_BELOW_EXPECTED's
        Sweep lowTop = sweep("c", "allreduce", 3, 3, Map.of(), rows(KIB, 4 * GIB, b -> Math.min(healthy(b, 50), 25 * 0.3)));
        assertThat(findings(new ConstantCeiling(), set(List.of(lowTop), List.of(line(200)), List.of()))).isEmpty();
        // flat from small sizes: fires below the link, not within 10 % of it (LINK_LIMITED's); and the start threshold holds
        for (double level : new double[] {20.0, 23.0}) {
            for (long from : new long[] {64 * KIB, 128 * KIB}) {
                Sweep flat = sweep("f", "allreduce", 3, 3, Map.of(), rows(from, GIB, b -> level));
                boolean fires = level < 25 * 0.9 && from <= 64 * KIB;
                assertThat(findings(new ConstantCeiling(), set(List.of(flat), List.of(line(200)), List.of())))
                        .as("flat at %.0f GB/s from %d bytes", level, from).hasSize(fires ? 1 : 0);
            }
        }
    }

    @Test
    void linkLimitedNamesTheSlotWhenThePlateauSitsAtIt() {
        List<Ceiling> ceilings = List.of(line(200), pcie(115.2));
        Sweep atSlot = sweep("allgather", "allgather", 3, 3, Map.of(), rows(MIB, 4 * GIB, b -> Math.min(healthy(b, 30), 13.9)));
        List<Finding> f = findings(new LinkLimited(), set(List.of(atSlot), ceilings, List.of()));
        assertThat(f).hasSize(1);
        assertThat(f.get(0).title()).endsWith("plateaus at 13.90 GB/s, the ceiling of n1: NIC PCIe link (0000:01:00 (PCIe Gen4 x8))");
        assertThat(f.get(0).evidence()).anyMatch(e -> e.contains("line rate would allow 25.00 GB/s"));
        Sweep below = sweep("allgather", "allgather", 3, 3, Map.of(), rows(MIB, 4 * GIB, b -> Math.min(healthy(b, 30), 12.8)));
        assertThat(findings(new LinkLimited(), set(List.of(below), ceilings, List.of()))).as("11 % below the slot").isEmpty();
        assertThat(findings(new LinkLimited(), set(List.of(atSlot), List.of(line(100)), List.of()))).as("line rate is the limit").isEmpty();
    }

    @Test
    void farBelowExpectedComparesThePeakWithTheNarrowestCeiling() {
        List<Ceiling> ceilings = List.of(line(200), pcie(115.2)); // 14.4 GB/s
        Sweep slow = sweep("a", "allreduce", 3, 3, Map.of(), rows(MIB, GIB, b -> Math.min(healthy(b, 20), 7.1)));
        Sweep ok = sweep("b", "allreduce", 3, 3, Map.of(), rows(MIB, GIB, b -> Math.min(healthy(b, 20), 7.3)));
        Sweep oneNode = sweep("c", "allreduce", 2, 1, Map.of(), rows(MIB, GIB, b -> 1.0));
        List<Finding> f = findings(new FarBelowExpected(), set(List.of(slow, ok, oneNode), ceilings, List.of()));
        assertThat(f).extracting(Finding::subject).containsExactly("a");
        assertThat(f.get(0).title()).endsWith("peaks at 7.10 GB/s, 49 % of the 14.40 GB/s ceiling");
    }

    @Test
    void wrongElementsAreAnErrorWithTheProtocolInUse() {
        List<NcclTestsOutput.Row> r = new ArrayList<>(rows(MIB, 8 * MIB, b -> 10));
        r.set(2, row(4 * MIB, 10, 10, 1234));
        Sweep s = sweep("allgather LL128", "allgather", 3, 3, Map.of("NCCL_PROTO", "LL128"), r);
        List<Finding> f = findings(new DataCorruption(), set(List.of(s, sweep("clean", "allreduce", 3, 3, Map.of(), rows(MIB, 8 * MIB, b -> 10))),
                List.of(), List.of()));
        assertThat(f).hasSize(1);
        assertThat(f.get(0).severity()).isEqualTo(Severity.ERROR);
        assertThat(f.get(0).title()).endsWith("returned 1,234 wrong elements in 1 size");
        assertThat(f.get(0).evidence()).contains("protocol pinned: NCCL_PROTO=LL128");
    }

    @Test
    void inPlaceDivergenceNeedsTwoSizesBeyondTheThreshold() {
        List<NcclTestsOutput.Row> two = List.of(row(512 * KIB, 10, 2, 0), row(MIB, 10, 6, 0), row(2 * MIB, 10, 6.5, 0), row(4 * MIB, 10, 9.5, 0));
        List<Finding> f = findings(new InPlaceDivergence(), set(List.of(sweep("d", "allreduce", 2, 1, Map.of(), two)), List.of(), List.of()));
        assertThat(f).hasSize(1);
        assertThat(f.get(0).evidence()).hasSize(3).first().asString().isEqualTo("1 MiB: out-of-place 10.00 GB/s, in-place 6.00 GB/s (40 % apart)");
        List<NcclTestsOutput.Row> one = List.of(row(MIB, 10, 6, 0), row(2 * MIB, 10, 7.6, 0)); // 24 % is within
        assertThat(findings(new InPlaceDivergence(), set(List.of(sweep("d", "allreduce", 2, 1, Map.of(), one)), List.of(), List.of()))).isEmpty();
    }

    @Test
    void repeatedRunsThatScatterAreUnstable() {
        double[][] runs = {{10, 12, 7}, {10, 10.3, 9.8}};
        for (double[] v : runs) {
            List<Sweep> s = new ArrayList<>();
            for (double x : v) {
                s.add(sweep("allreduce", "allreduce", 3, 3, Map.of(), rows(MIB, 4 * MIB, b -> x)));
            }
            List<Finding> f = findings(new UnstableResults(), set(s, List.of(), List.of()));
            double cv = PortTraffic.cv(v);
            assertThat(f).as("CV %.3f", cv).hasSize(cv > 0.10 ? 1 : 0);
        }
        assertThat(PortTraffic.cv(new double[] {10, 12, 7})).isCloseTo(0.2126, org.assertj.core.data.Offset.offset(0.0005));
        assertThat(new UnstableResults().check(set(List.of(sweep("x", "allreduce", 2, 1, Map.of(), rows(MIB, MIB, b -> 1))), List.of(), List.of()),
                new io.nccldoctor.reports.RuleContext(io.nccldoctor.reports.RulesConfig.defaults(), io.nccldoctor.reports.NodeShape.none()))
                .isWaived()).isTrue();
    }

    /** The Japanese field report's two examples: 25/25/25/25 GB gives CV 0, 70/20/5/5 GB a high one. */
    @Test
    void linkImbalanceUsesTheCoefficientOfVariation() {
        Map<String, Long> even = new LinkedHashMap<>();
        Map<String, Long> skewed = new LinkedHashMap<>();
        long[] bytes = {70, 20, 5, 5};
        for (int i = 0; i < 4; i++) {
            even.put("Link" + (i + 1), 25_000_000_000L);
            skewed.put("Link" + (i + 1), bytes[i] * 1_000_000_000L);
        }
        PortTraffic a = new PortTraffic("leaf1, per-packet DLB", even, "example");
        PortTraffic b = new PortTraffic("leaf1, 5-tuple ECMP", skewed, "example");
        assertThat(a.cv()).isZero();
        assertThat(b.cv()).isCloseTo(Math.sqrt(712.5) / 25, org.assertj.core.data.Offset.offset(1e-9));
        List<Finding> f = findings(new LinkImbalance(), set(List.of(), List.of(), List.of(a, b)));
        assertThat(f).extracting(Finding::subject).containsExactly("leaf1, 5-tuple ECMP");
        assertThat(f.get(0).title()).isEqualTo("traffic over leaf1, 5-tuple ECMP is uneven: CV 1.07 across 4 links");
    }

    @Test
    void singleRankIsInformationNotFailure() {
        Sweep one = sweep("one", "allreduce", 1, 1, Map.of(), rows(MIB, 4 * MIB, b -> 0));
        List<Finding> f = Sweeps.all(set(List.of(one), List.of(), List.of()));
        assertThat(f).extracting(Finding::code).containsExactly("SINGLE_RANK");
        assertThat(f.get(0).severity()).isEqualTo(Severity.INFO);
    }

    /** The field report's 3-rank alltoall with 178,956,968-byte chunks, against aligned neighbours and nccl-tests. */
    @Test
    void alignmentCliffAgainstNeighboursAndAgainstNcclTests() {
        long odd = 3L * 178_956_968L * 3;
        List<NcclTestsOutput.Row> r = List.of(row(1 * GIB, 9.0, 9.0, 0), row(odd, 2.1, 2.1, 0), row(2 * GIB, 9.4, 9.4, 0));
        Sweep harness = new Sweep("harness", "run.json", "nccl-doctor run", Fact.of("alltoall"), Fact.of(3), Fact.of(3), Map.of(),
                Fact.of("2.27.5"), r, Map.of(GIB, true, odd, false, 2 * GIB, true), 0);
        List<Finding> f = findings(new AlignmentCliff(), set(List.of(harness), List.of(), List.of()));
        assertThat(f).hasSize(1);
        assertThat(f.get(0).evidence().get(0)).contains("1,610,612,712 bytes, chunks not 16-byte aligned): 2.10 GB/s, 23 % of the reference; "
                + "aligned sizes around it interpolate to 9.23 GB/s");
        Sweep tests = sweep("nccl-tests alltoall", "alltoall", 3, 3, Map.of(), List.of(row(odd, 8.8, 8.8, 0)));
        f = findings(new AlignmentCliff(), set(List.of(harness, tests), List.of(), List.of()));
        assertThat(f.get(0).evidence().get(0)).endsWith("nccl-tests 'nccl-tests alltoall' at the same size: 8.80 GB/s");
        Sweep mild = new Sweep("mild", "run.json", "nccl-doctor run", Fact.of("alltoall"), Fact.of(3), Fact.of(3), Map.of(), Fact.of("2.27.5"),
                List.of(row(GIB, 9.0, 9.0, 0), row(odd, 4.7, 4.7, 0), row(2 * GIB, 9.4, 9.4, 0)), Map.of(GIB, true, odd, false, 2 * GIB, true), 0);
        assertThat(findings(new AlignmentCliff(), set(List.of(mild), List.of(), List.of()))).as("51 % of the reference").isEmpty();
    }

    /** The field report: 3-node allgather 18.5 Gbit/s by default, 65.6 with LL128; the pin cost allreduce about 25 %. */
    @Test
    void protocolPathologyWithTheLiftAndTheCostElsewhere() {
        Sweep allreduce = sweep("allreduce", "allreduce", 3, 3, Map.of(), rows(MIB, GIB, b -> 10.0));
        Sweep allgather = sweep("allgather", "allgather", 3, 3, Map.of(), rows(MIB, GIB, b -> 18.5 / 8));
        Sweep ll128 = sweep("allgather LL128", "allgather", 3, 3, Map.of("NCCL_PROTO", "LL128"), rows(MIB, GIB, b -> 65.6 / 8));
        Sweep allreduceLl128 = sweep("allreduce LL128", "allreduce", 3, 3, Map.of("NCCL_PROTO", "LL128"), rows(MIB, GIB, b -> 7.5));
        List<Finding> f = findings(new ProtocolPathology(), set(List.of(allreduce, allgather, ll128, allreduceLl128), List.of(), List.of()));
        assertThat(f).hasSize(1);
        assertThat(f.get(0).title()).isEqualTo("allgather runs at 23 % of allreduce; NCCL_PROTO=LL128 lifts it 3.55x");
        assertThat(f.get(0).evidence()).contains("the same pin changes allreduce by -25 %");
        Sweep close = sweep("allgather", "allgather", 3, 3, Map.of(), rows(MIB, GIB, b -> 5.1));
        assertThat(findings(new ProtocolPathology(), set(List.of(allreduce, close, ll128), List.of(), List.of()))).as("51 % of allreduce")
                .isEmpty();
        List<Finding> untested = findings(new ProtocolPathology(), set(List.of(allreduce, allgather), List.of(), List.of()));
        assertThat(untested.get(0).title()).endsWith("no run with NCCL_PROTO pinned was given to test the protocol");
    }
}
