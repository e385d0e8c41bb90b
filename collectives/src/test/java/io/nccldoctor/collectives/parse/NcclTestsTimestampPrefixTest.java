package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * nccl-tests output captured by `kubectl logs --timestamps`, every line after an RFC 3339 timestamp (corpus/nccl-tests,
 * NVIDIA/cluster-readiness-engine's testdata): the table, header and footer are read as without the prefix.
 */
class NcclTestsTimestampPrefixTest {

    private static final Path CORPUS = Path.of("../corpus/nccl-tests");

    static NcclTestsOutput read(String name) throws IOException {
        return NcclTestsOutput.parse(lines(name), name);
    }

    static List<String> lines(String name) throws IOException {
        return Files.readAllLines(CORPUS.resolve(name), StandardCharsets.UTF_8);
    }

    @Test
    void aOneRankLoopbackTableIsReadWholeAndNamedByItsFooter() throws IOException {
        NcclTestsOutput out = read("nccl-tests-a100-pcie-1rank-loopback-kubectl-timestamps.txt");
        assertThat(out.rows()).as("the first of two cycles of 28 sizes").hasSize(28);
        assertThat(out.furtherRuns()).as("the second cycle, its own sweep").singleElement().satisfies(c -> assertThat(c.rows()).hasSize(28));
        NcclTestsOutput.Row fastest = Stream.concat(out.rows().stream(), out.furtherRuns().get(0).rows().stream()).max(Comparator.comparingDouble(r -> r.outOfPlace().algBwGBps())).orElseThrow();
        assertThat(fastest.outOfPlace().algBwGBps()).isEqualTo(688.95);
        assertThat(fastest.sizeBytes()).isEqualTo(1L << 30);
        assertThat(fastest.inPlace().get().algBwGBps()).as("printed 6e+06").isEqualTo(6e6);
        assertThat(out.rows()).allSatisfy(r -> assertThat(r.outOfPlace().busBwGBps()).as("one rank").isZero());
        assertThat(out.avgBusBwGBps().get()).as("the footer after the last cycle is the whole run's").isZero();
        assertThat(out.warnings()).anyMatch(w -> w.startsWith("the footer after the last cycle (average 0.0 GB/s) covers every cycle"));
        NcclTestsOutput last = out.furtherRuns().get(0); // the footer follows the last cycle
        assertThat(last.avgBusBwGBps().get()).isZero();
        assertThat(last.outOfBounds().get()).isZero();
        assertThat(last.outOfBoundsOk().get()).isTrue();
        assertThat(out.test().get()).as("from '# Collective test concluded' after the last cycle").isEqualTo("all_reduce_perf_mpi");
        assertThat(last.test().get()).isEqualTo("all_reduce_perf_mpi");
        assertThat(out.ncclInfoLines() + last.ncclInfoLines()).isEqualTo(2);
        assertThat(out.notUnderstood()).isEmpty();
    }

    @Test
    void twoRanksOverSocketsWithNcclLinesBetweenTheRows() throws IOException {
        NcclTestsOutput out = read("nccl-tests-a100-pcie-2pod-socket-kubectl-timestamps.txt");
        assertThat(out.rows()).hasSize(24);
        assertThat(out.rows().get(0).sizeBytes()).isEqualTo(8);
        assertThat(out.rows().get(23).sizeBytes()).isEqualTo(64L << 20);
        assertThat(out.peakBusBw().get().outOfPlace().busBwGBps()).isEqualTo(0.03);
        assertThat(out.peakBusBw().get().sizeBytes()).isEqualTo(32L << 20);
        assertThat(out.avgBusBwGBps().get()).isEqualTo(0.0119653);
        assertThat(out.ncclInfoLines()).isEqualTo(16);
        assertThat(out.columns()).startsWith("size", "count", "type", "redop", "root");
        assertThat(out.notUnderstood()).isEmpty();
    }

    /** The header lines after their timestamps; kubectl's and ssh's own lines are listed, not read. */
    @Test
    void theVersionHeaderParametersAndDevicesAfterTheirTimestamps() throws IOException {
        String name = "nccl-tests-a100-pcie-2pod-kubectl-timestamps-header-only.txt";
        NcclTestsOutput out = read(name);
        assertThat(out.testsVersion().get()).isEqualTo("2.17.8");
        assertThat(out.ncclHeaders().get()).isEqualTo("2.29.2");
        assertThat(out.ncclLibrary().get()).isEqualTo("2.29.2");
        assertThat(out.test().get()).isEqualTo("all_reduce_perf_mpi");
        assertThat(out.devices()).hasSize(2).allSatisfy(d -> assertThat(d).startsWith("Rank").endsWith("NVIDIA A100-PCIE-40GB"));
        assertThat(out.ranks().get()).isEqualTo(2);
        assertThat(out.parameters()).singleElement().satisfies(p -> assertThat(p.validation().get()).isEqualTo(1));
        assertThat(out.ncclInfoLines()).isEqualTo(4);
        assertThat(out.notUnderstood()).hasSize(3).allSatisfy(s -> assertThat(s).matches(name + ":[123]: .*"));
        assertThat(out.notUnderstood().get(0)).contains("Defaulted container");
    }

    /**
     * The same real rows under the other forms of the prefix that log collectors write: derived from the loopback file
     * by rewriting its timestamps only (UTC "Z", ISO 8601 with a space and no zone, in brackets, the CRI log file's
     * "stdout F"), and by removing them.
     */
    @Test
    void everyFormOfTheTimestampGivesTheSameTable() throws IOException {
        List<String> real = lines("nccl-tests-a100-pcie-1rank-loopback-kubectl-timestamps.txt");
        String stamp = "^(\\d{4}-\\d{2}-\\d{2})T([0-9:.]+)-07:00 ";
        List<String> forms = List.of("$1T$2Z ", "$1 $2 ", "[$1T$2Z] ", "$1T$2Z stdout F ", "$1 $2+0000 ", "");
        NcclTestsOutput original = NcclTestsOutput.parse(real, "real");
        for (String form : forms) {
            List<String> text = real.stream().map(l -> l.replaceFirst(stamp, form)).toList();
            assertThat(text).as(form).isNotEqualTo(real);
            NcclTestsOutput out = NcclTestsOutput.parse(text, form);
            assertThat(out.rows()).as(form).isEqualTo(original.rows());
            assertThat(out.test()).as(form).isEqualTo(original.test());
            assertThat(out.avgBusBwGBps()).as(form).isEqualTo(original.avgBusBwGBps());
            assertThat(out.notUnderstood()).as(form).isEmpty();
        }
    }
}
