package io.nccldoctor.reports.rulezero;

import static io.nccldoctor.reports.rulezero.Inputs.MIB;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.collectives.coll.DataType;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.InputException;
import io.nccldoctor.reports.ResultThresholds;
import io.nccldoctor.reports.results.Sweep;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/** The verdicts, on the field report's 3-rank alltoall against nccl-tests on the same ranks. */
class RuleZeroTest {

    /** nccl-tests alltoall on 3 ranks, 1 MiB to 1 GiB as nccl-tests trims them: rising to 5.2 GB/s from 64 MiB. */
    static Sweep reference() {
        return Inputs.ncclTests("alltoall_perf", "alltoall", 3, DataType.FLOAT32, MIB, 1L << 30, b -> Math.min(5.2, 5.2 * b / (64.0 * MIB)));
    }

    /** The field report's tensor: 2^27 floats less 2 (n -= n % 3), 178,956,968-byte per-peer chunks, at 1.1 GB/s. */
    static SuspectRow fieldReport() {
        return Inputs.suspect("alltoall", "float", 134_217_726, 3, 1.1, "harness.csv:2");
    }

    static RuleZero judge(List<SuspectRow> rows, List<io.nccldoctor.reports.results.Ceiling> ceilings) {
        return RuleZero.of(rows, List.of(reference()), ceilings, ResultThresholds.DEFAULTS);
    }

    @Test
    void theFieldReportsTensorIsAHarnessArtifactNamingItsChunksAndNcclTestsCount() {
        RuleZero z = judge(List.of(fieldReport()), List.of());
        Judgement j = z.rows().get(0);
        assertThat(j.suspect().bytes()).as("134,217,726 floats split untrimmed over 3 ranks").isEqualTo(536_870_904L);
        assertThat(j.audit().asGiven().chunkBytes()).isEqualTo(178_956_968L);
        assertThat(j.audit().asGiven().misalignedChunks()).as("chunk k starts k x 178,956,968 B in: 8 mod 16 for k = 1, 0 for k = 2").containsExactly(1);
        assertThat(j.audit().asNcclTests().count()).as("alltoall.cu trims the per-peer count to 4 floats").isEqualTo(134_217_720L);
        assertThat(j.audit().asNcclTests().chunkBytes()).isEqualTo(178_956_960L);
        assertThat(j.audit().asNcclTests().misalignedChunks()).isEmpty();
        assertThat(j.audit().ncclTestsBytes()).isEqualTo(536_870_880L);
        assertThat(j.audit().conditioningDiffers()).isTrue();

        ReferenceMatch m = j.reference().get();
        assertThat(m.kind()).as("nccl-tests' row for the same request, 24 bytes smaller after its trim").isEqualTo(ReferenceMatch.Kind.SAME_REQUEST);
        assertThat(m.rowBytes()).containsExactly(536_870_880L);
        assertThat(m.busBwGBps()).isEqualTo(5.2);
        assertThat(m.how()).contains("536,870,880 B").contains("trimmed to 134,217,720 elements");
        assertThat(j.ratio().get()).isEqualTo(0.2115);
        assertThat(j.verdict()).isEqualTo(Verdict.HARNESS_ARTIFACT);
        assertThat(j.why()).contains("1.10 GB/s is 21 % of nccl-tests' 5.20 GB/s").contains("below the 50 %")
                .contains("per-peer chunks of 44,739,242 elements = 178,956,968 bytes, not a multiple of 16")
                .contains("chunk 1 starts off a 16-byte boundary").contains("nccl-tests would use 134,217,720 elements")
                .contains("a multiple of 12 elements (134,217,720 or 134,217,732)");

        assertThat(z.verdict()).isEqualTo(Verdict.HARNESS_ARTIFACT);
        assertThat(z.verdictLine()).isEqualTo("HARNESS_ARTIFACT: it is the harness, not the hardware: 1 of 1 sizes run below 50 % of "
                + "nccl-tests' busbw on the same ranks (down to 21 % at 512 MiB); every one splits into chunks off 16-byte boundaries, "
                + "which nccl-tests trims away (512 MiB: per-peer chunks of 178,956,968 bytes; nccl-tests uses 134,217,720 elements): "
                + "fix the sizing before blaming the hardware.");
    }

    @Test
    void anAlignedTensorBetweenReferenceSizesIsConsistentAndSaysHowClose() {
        SuspectRow aligned = Inputs.suspect("alltoall", "float", 201_326_592, 3, 5.0, "harness.csv:3"); // 768 MiB, 64 Mi floats per peer
        Judgement j = judge(List.of(aligned), List.of()).rows().get(0);
        assertThat(j.audit().misaligned()).isFalse();
        assertThat(j.audit().conditioningDiffers()).isFalse();
        assertThat(j.reference().get().kind()).isEqualTo(ReferenceMatch.Kind.INTERPOLATED);
        assertThat(j.reference().get().rowBytes()).containsExactly(536_870_880L, 1_073_741_808L);
        assertThat(j.verdict()).isEqualTo(Verdict.CONSISTENT);
        assertThat(j.why()).isEqualTo("5.00 GB/s is 96 % of nccl-tests' 5.20 GB/s; no ceiling known.");
        assertThat(judge(List.of(aligned), List.of()).verdictLine()).isEqualTo("CONSISTENT: the suspect keeps up with nccl-tests: 1 of 1 "
                + "sizes at 96 % of its busbw; no ceiling known, so whether both sit far below the fabric's limit is open.");
    }

    @Test
    void interpolationIsLinearInLog2OfTheSize() {
        Sweep allreduce = new Sweep("all_reduce_perf", "allreduce.txt", "nccl-tests", Fact.of("allreduce"), Fact.of(4), Fact.of(2),
                java.util.Map.of(), Fact.of("2.27.5"), List.of(Inputs.ncclTests("x", "allreduce", 4, DataType.FLOAT32, MIB, MIB, b -> 4.0)
                .rows().get(0), Inputs.ncclTests("x", "allreduce", 4, DataType.FLOAT32, 4 * MIB, 4 * MIB, b -> 6.0).rows().get(0)),
                java.util.Map.of(), 0);
        SuspectRow twoMiB = Inputs.suspect("allreduce", "float", 524_288, 4, 4.9, "t:1");
        Judgement j = RuleZero.of(List.of(twoMiB), List.of(allreduce), List.of(), ResultThresholds.DEFAULTS).rows().get(0);
        assertThat(j.reference().get().busBwGBps()).as("2 MiB is half way from 1 MiB to 4 MiB in log2").isEqualTo(5.0);
        assertThat(j.reference().get().how()).isEqualTo("interpolated in log2(size) between nccl-tests 'all_reduce_perf' at 1 MiB "
                + "(4.00 GB/s) and 4 MiB (6.00 GB/s)");
        assertThat(j.audit().line()).isEqualTo("whole buffer of 524,288 elements = 2,097,152 bytes; nccl-tests does not trim allreduce either");
        assertThat(j.verdict()).isEqualTo(Verdict.CONSISTENT);
    }

    @Test
    void bothFarBelowTheNarrowestCeilingIsTheFabric() {
        SuspectRow aligned = Inputs.suspect("alltoall", "float", 201_326_592, 3, 5.0, "harness.csv:3");
        Judgement atLine = judge(List.of(aligned), List.of(Inputs.lineRate(200))).rows().get(0);
        assertThat(atLine.suspectOfCeiling().get()).isEqualTo(0.2);
        assertThat(atLine.referenceOfCeiling().get()).isEqualTo(0.208);
        assertThat(atLine.verdict()).isEqualTo(Verdict.FABRIC);
        assertThat(atLine.why()).isEqualTo("nccl-tests is no faster: 5.00 GB/s and nccl-tests' 5.20 GB/s are 20 % and 21 % of the "
                + "25.00 GB/s ceiling (arrowlake-ws: NIC line rate), and nccl-tests peaks at 5.20 GB/s, all below 50 %: look at the "
                + "fabric, not the harness.");
        RuleZero withSlot = judge(List.of(aligned), List.of(Inputs.lineRate(200), Inputs.pcie(57.6)));
        assertThat(withSlot.ceiling().get().label()).as("the narrowest ceiling is used").isEqualTo("arrowlake-ws: NIC PCIe link");
        assertThat(withSlot.rows().get(0).verdict()).as("5.2 of 7.2 GB/s is near the slot's limit").isEqualTo(Verdict.CONSISTENT);
        assertThat(withSlot.rows().get(0).why()).endsWith("; 69 % of the 7.20 GB/s ceiling (arrowlake-ws: NIC PCIe link).");

        RuleZero both = judge(List.of(aligned, fieldReport()), List.of(Inputs.lineRate(200)));
        assertThat(both.rows()).extracting(Judgement::verdict).containsExactly(Verdict.FABRIC, Verdict.HARNESS_ARTIFACT);
        assertThat(both.verdict()).as("a harness artifact is settled first").isEqualTo(Verdict.HARNESS_ARTIFACT);
        assertThat(both.verdictLine()).contains("1 of 2 sizes").contains("; at 1 size nccl-tests is as slow (FABRIC).");
        RuleZero fabric = judge(List.of(aligned), List.of(Inputs.lineRate(200)));
        assertThat(fabric.verdictLine()).isEqualTo("FABRIC: nccl-tests is as slow as the suspect: at 1 of 1 sizes both stay below 50 % "
                + "of the 25.00 GB/s ceiling (arrowlake-ws: NIC line rate): look at the fabric, not the harness.");
    }

    @Test
    void aSmallSizeBelowTheCeilingIsNoFabricWhereNcclTestsFillsItAtLargerSizes() {
        SuspectRow small = Inputs.suspect("alltoall", "float", 262_140, 3, 0.08, "harness.csv:1"); // 1 MiB: latency, not bandwidth
        Judgement j = judge(List.of(small), List.of(Inputs.pcie(57.6))).rows().get(0);
        assertThat(j.suspectOfCeiling().get()).isLessThan(0.5);
        assertThat(j.referenceOfCeiling().get()).isLessThan(0.5);
        assertThat(j.reference().get().peakBusBwGBps()).isEqualTo(5.2);
        assertThat(j.verdict()).as("nccl-tests reaches 72 % of the slot at larger sizes: the fabric is fine").isEqualTo(Verdict.CONSISTENT);
        assertThat(j.why()).isEqualTo("0.08 GB/s is 100 % of nccl-tests' 0.08 GB/s; 1 % of the 7.20 GB/s ceiling (arrowlake-ws: NIC PCIe "
                + "link), where nccl-tests peaks at 72 % of it: a size too small to fill the fabric.");
    }

    @Test
    void noReferenceOutsideTheSizesOrForAnotherCollectiveOrWorldSize() {
        SuspectRow twoGiB = Inputs.suspect("alltoall", "float", 536_870_910, 3, 1.2, "harness.csv:9");
        SuspectRow fourRanks = Inputs.suspect("alltoall", "float", 134_217_728, 4, 4.0, "harness.csv:10");
        SuspectRow allgather = Inputs.suspect("allgather", "float", 134_217_726, 3, 4.0, "harness.csv:11");
        RuleZero z = judge(List.of(twoGiB, fourRanks, allgather), List.of());
        assertThat(z.rows()).extracting(Judgement::verdict).containsOnly(Verdict.NO_REFERENCE);
        assertThat(z.rows().get(0).why()).startsWith("2 GiB lies outside the sizes of 'alltoall_perf' (1023.98 KiB to 1 GiB), "
                + "and nccl-tests' own size for this count (2,147,483,616 B) was not run.")
                .contains("Without a comparison, note that the conditioning differs: as given, 536,870,910 elements");
        assertThat(z.rows().get(1).why()).isEqualTo("no reference sweep of alltoall on 4 ranks (given: 'alltoall_perf' alltoall on 3 ranks).");
        assertThat(z.rows().get(2).reference().reason()).startsWith("no reference sweep of allgather on 3 ranks");
        assertThat(z.rows().get(0).ratio().isValue()).isFalse();
        assertThat(z.verdictLine()).isEqualTo("NO_REFERENCE: no suspect size has a nccl-tests row to compare with; run alltoall_perf "
                + "-d float -b 1073741824 -e 2147483648 -f 2 on the same 3 ranks and give its output as the reference.");
        RuleZero mixed = judge(List.of(fieldReport(), twoGiB), List.of());
        assertThat(mixed.verdictLine()).endsWith("; 1 of 2 sizes without a reference.");
    }

    @Test
    void aReferenceThatRoundsToZeroIsNoReference() {
        SuspectRow tiny = Inputs.suspect("alltoall", "float", 262_140, 3, 0.5, "t:1");
        Sweep zero = Inputs.ncclTests("flat", "alltoall", 3, DataType.FLOAT32, MIB, 2 * MIB, b -> 0.0);
        Judgement j = RuleZero.of(List.of(tiny), List.of(zero), List.of(), ResultThresholds.DEFAULTS).rows().get(0);
        assertThat(j.verdict()).isEqualTo(Verdict.NO_REFERENCE);
        assertThat(j.why()).endsWith("prints a busbw of 0.00 GB/s: too small a size to compare.");
    }

    @Test
    void theThresholdsComeFromResultThresholds() {
        ResultThresholds lenient = new ResultThresholds(null, null, null, null, 0.2, null, null, 0.1, null, null, null, null);
        RuleZero z = RuleZero.of(List.of(fieldReport()), List.of(reference()), List.of(Inputs.lineRate(200)), lenient);
        assertThat(z.cliffFraction()).isEqualTo(0.2);
        assertThat(z.farBelowFraction()).isEqualTo(0.1);
        assertThat(z.rows().get(0).verdict()).as("21 % is not below a 20 % cliff; 4 % and 21 % of 25 GB/s are not both below 10 %")
                .isEqualTo(Verdict.CONSISTENT);
        assertThat(z.rows().get(0).why()).contains("its per-peer chunks start off 16-byte boundaries, yet at this size it keeps up");
    }

    @Test
    void aSameSizeRowIsTakenAsIs() {
        SuspectRow asNcclTests = Inputs.suspect("alltoall", "float", 134_217_720, 3, 5.1, "t:1");
        Judgement j = judge(List.of(asNcclTests), List.of()).rows().get(0);
        assertThat(j.reference().get().kind()).isEqualTo(ReferenceMatch.Kind.SAME_SIZE);
        assertThat(j.ratio().get()).isCloseTo(5.1 / 5.2, Offset.offset(1e-4));
        assertThat(j.audit().line()).isEqualTo("as given, per-peer chunks of 44,739,240 elements = 178,956,960 bytes (all on 16-byte "
                + "boundaries); nccl-tests would use the same count");
    }

    @Test
    void aRunIsReadAsSuspectRows() {
        // `run --json --conditioning none` at -b 512M: 134,217,728 floats split untrimmed, 44,739,242 per peer
        Sweep run = new Sweep("alltoall-harness", "alltoall-harness.json", "nccl-doctor run", Fact.of("alltoall"), Fact.of(3),
                Fact.absent("not recorded"), java.util.Map.of(), Fact.of("2.27.5"), List.of(new io.nccldoctor.collectives.parse.NcclTestsOutput.Row(
                536_870_904L, 44_739_242L, "float", Fact.of("none"), Fact.of(-1), new io.nccldoctor.collectives.parse.NcclTestsOutput.Placement(
                301_597.11, 1.78, 1.19, Fact.of(0L), Fact.absent("#wrong")), Fact.absent("N/A"))), java.util.Map.of(536_870_904L, false), 0);
        List<SuspectRow> rows = SuspectRow.of(run);
        assertThat(rows).singleElement().satisfies(r -> {
            assertThat(r.count()).as("size / element size: the elements the run moved").isEqualTo(134_217_726L);
            assertThat(r.bytes()).isEqualTo(536_870_904L);
            assertThat(r.busBw().get()).isEqualTo(1.19);
            assertThat(r.timeUs().get()).isEqualTo(301_597.11);
            assertThat(r.source()).isEqualTo("alltoall-harness.json, 536870904 B");
        });
        assertThat(judge(rows, List.of()).verdict()).isEqualTo(Verdict.HARNESS_ARTIFACT);
        assertThatThrownBy(() -> SuspectRow.of(new Sweep("x", "one.json", "nccl-doctor run", Fact.of("alltoall"), Fact.of(1), Fact.of(1),
                java.util.Map.of(), Fact.of("2.27.5"), run.rows(), java.util.Map.of(), 0))).isInstanceOf(InputException.class)
                .hasMessageStartingWith("one.json: a run on one rank");
    }

    @Test
    void noSuspectRowIsAnInputError() {
        assertThatThrownBy(() -> RuleZero.of(List.of(), List.of(reference()), List.of(), ResultThresholds.DEFAULTS))
                .isInstanceOf(InputException.class).hasMessageStartingWith("no suspect measurement");
    }
}
