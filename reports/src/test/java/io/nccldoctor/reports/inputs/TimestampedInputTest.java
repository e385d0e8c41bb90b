package io.nccldoctor.reports.inputs;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Texts taken with `kubectl logs --timestamps` (NVIDIA/cluster-readiness-engine's testdata, cited in corpus/nccl-tests and
 * fixtures/kubectl-timestamps): the kind is told from the lines after their timestamps, and a table is never lost to
 * the NCCL lines around it.
 */
class TimestampedInputTest {

    private static final Path ROOT = Path.of("..");
    private static final Path LOOPBACK = ROOT.resolve("corpus/nccl-tests/nccl-tests-a100-pcie-1rank-loopback-kubectl-timestamps.txt");

    /** 56 rows (two cycles of 28) and 2 NCCL lines: nccl-tests, not an NCCL log of 2 lines with nothing else in it. */
    @Test
    void aTableWithTwoNcclLinesIsNcclTests() {
        ReportInput in = ReportInput.read(LOOPBACK).orElseThrow();
        assertThat(in.kind()).isEqualTo(InputKind.NCCL_TESTS);
        assertThat(in.tests().orElseThrow().rows()).as("the first of two -N cycles").hasSize(28);
        assertThat(in.tests().orElseThrow().furtherRuns()).singleElement().satisfies(c -> assertThat(c.rows()).hasSize(28));
    }

    /** The loopback text without its 2 NCCL lines was refused ("the closest, nccl-tests, took 2 of 66 lines"). */
    @Test
    void theTableAloneIsNcclTests(@TempDir Path dir) throws IOException {
        List<String> table = Files.readAllLines(LOOPBACK, StandardCharsets.UTF_8).stream().filter(l -> !l.contains(" NCCL INFO ")).toList();
        assertThat(table).hasSize(66);
        Path file = Files.write(dir.resolve("table.txt"), table, StandardCharsets.UTF_8);
        ReportInput in = ReportInput.read(file).orElseThrow();
        assertThat(in.kind()).isEqualTo(InputKind.NCCL_TESTS);
        assertThat(in.tests().orElseThrow().rows()).as("the first of two -N cycles").hasSize(28);
        assertThat(in.tests().orElseThrow().furtherRuns()).singleElement().satisfies(c -> assertThat(c.rows()).hasSize(28));
    }

    /**
     * The whole file: 97 NCCL lines outnumber the table's, so it is an NCCL log, and `report` takes its table as the
     * sweep it is (24 rows, 0.03 GB/s at 32 MiB), which it dropped while the timestamps hid the table.
     */
    @Test
    void aLogWithItsTableKeepsTheTable() {
        Path file = Path.of("src/test/resources/fixtures/kubectl-timestamps/real_a100_allreduce_2node_pdt.log");
        ReportInput in = ReportInput.read(file).orElseThrow();
        assertThat(in.kind()).isEqualTo(InputKind.NCCL_LOG);
        assertThat(in.log().orElseThrow().ncclLines()).isEqualTo(97);
        NcclTestsOutput table = in.tests().orElseThrow();
        assertThat(table.rows()).hasSize(24);
        assertThat(table.peakBusBw().get().outOfPlace().busBwGBps()).isEqualTo(0.03);
        assertThat(table.peakBusBw().get().sizeBytes()).isEqualTo(32L << 20);
        assertThat(table.testsVersion().get()).isEqualTo("2.17.8");
        assertThat(table.ranks().get()).isEqualTo(2);
        assertThat(table.avgBusBwGBps().get()).isEqualTo(0.0119653);
    }
}
