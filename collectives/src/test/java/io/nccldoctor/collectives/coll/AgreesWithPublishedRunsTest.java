package io.nccldoctor.collectives.coll;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.collectives.Fixtures;
import io.nccldoctor.collectives.parse.NcclTestsOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Our sizing and bus-bandwidth factors against every row of real published nccl-tests runs: the printed size is
 * already conditioned, so conditioning it again must give the same bytes and the printed count column; and the
 * printed busbw must be the printed algbw times our factor, and algbw the size over the time. The runs in the old
 * "error" layout predate the 16-byte trim, so they are checked against {@link Collective#sizingUntrimmed}.
 */
class AgreesWithPublishedRunsTest {

    @ParameterizedTest
    @CsvSource({
        "nccl-tests-h100-8gpu-allreduce-dgxc.txt,           allreduce,  8, true",
        "nccl-tests-h100-2node-ib-issue319.txt,             allreduce, 16, true",
        "nccl-tests-gh200-2node-version-header-cscs.txt,    allreduce,  2, true",
        "nccl-tests-gh200-16rank-corrupted-wrong.txt,       allreduce, 16, true",
        "nccl-tests-a100-allreduce-old-error-col.txt,       allreduce,  8, false",
        "nccl-tests-a100-alltoall-old-na.txt,               alltoall,   8, false",
        "nccl-tests-a100-allgather-old-noredop.txt,         allgather,  8, false",
        "nccl-tests-rtx5090-mpi-tag-output.txt,             allreduce,  2, true",
        "nccl-tests-h200-2node-skypilot-mpi-prefix.txt,     allgather, 16, true",
        "nccl-tests-a10g-single-rank-old.txt,               allreduce,  1, false"})
    void everyRowAgrees(String fixture, String collective, int ranks, boolean trimmed) throws IOException {
        NcclTestsOutput out = NcclTestsOutput.parse(Files.readAllLines(Fixtures.publicFixture(fixture), StandardCharsets.UTF_8), fixture);
        Collective c = Collective.parse(collective);
        assertThat(out.devices()).hasSize(ranks);
        assertThat(out.rows()).isNotEmpty();
        if (out.avgBusBwGBps().isValue()) {
            // the footer is the mean busbw over every timed call: all sizes, both placements (nccl-internals §2.2)
            double mean = out.rows().stream().mapToDouble(r -> r.outOfPlace().busBwGBps() + r.inPlace().get().busBwGBps()).sum()
                    / (2.0 * out.rows().size());
            assertThat(mean).as("%s average", fixture).isCloseTo(out.avgBusBwGBps().get(), org.assertj.core.data.Offset.offset(0.01));
        }
        for (NcclTestsOutput.Row row : out.rows()) {
            int elt = DataType.parse(row.type()).size();
            Sizing s = trimmed ? c.sizing(row.sizeBytes() / elt, elt, ranks) : c.sizingUntrimmed(row.sizeBytes() / elt, elt, ranks);
            assertThat(s.sizeBytes()).as("%s size %d", fixture, row.sizeBytes()).isEqualTo(row.sizeBytes());
            assertThat(s.paramCount()).as("%s count at %d", fixture, row.sizeBytes()).isEqualTo(row.count());
            NcclTestsOutput.Placement p = row.outOfPlace();
            double factor = c.busBwFactor(ranks);
            assertThat(p.busBwGBps()).as("%s busbw at %d", fixture, row.sizeBytes())
                    .isCloseTo(p.algBwGBps() * factor, org.assertj.core.data.Offset.offset(0.006 + 0.005 * factor));
            if (p.algBwGBps() >= 1 && p.timeUs() >= 100) {
                // GB/s = bytes / 1e9 / (us / 1e6); the printed time has 4-5 significant digits
                assertThat(row.sizeBytes() / (p.timeUs() * 1e3)).as("%s algbw at %d", fixture, row.sizeBytes())
                        .isCloseTo(p.algBwGBps(), org.assertj.core.data.Percentage.withPercentage(0.5));
            }
        }
    }
}
