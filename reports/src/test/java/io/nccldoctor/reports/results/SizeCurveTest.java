package io.nccldoctor.reports.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Interpolation in log2(size), held against the sizes a real run did measure. */
class SizeCurveTest {

    static final Path DGX = Path.of("../collectives/src/test/resources/fixtures/public/nccl-tests-h100-8gpu-allreduce-dgxc.txt");

    @Test
    void everyOtherSizeOfARealH100RunReadFromItsNeighbours() throws IOException {
        List<NcclTestsOutput.Row> rows = NcclTestsOutput.parse(Files.readAllLines(DGX, StandardCharsets.UTF_8), DGX.toString()).rows();
        List<NcclTestsOutput.Row> even = IntStream.range(0, rows.size()).filter(i -> i % 2 == 0).mapToObj(rows::get).toList();
        SizeCurve sparse = SizeCurve.of(even);
        for (int i = 1; i + 1 < rows.size(); i += 2) {
            NcclTestsOutput.Row r = rows.get(i);
            SizeCurve.Point p = sparse.at(r.sizeBytes(), 4).orElseThrow();
            assertThat(p.interpolated()).isTrue();
            assertThat(p.from()).containsExactly(rows.get(i - 1).sizeBytes(), rows.get(i + 1).sizeBytes());
            if (r.sizeBytes() >= 1L << 30) { // from 1 GiB up a straight line in log2(size) is within 3 % of what was measured (2.4 % at 1 GiB, still rising)
                assertThat(p.busBwGBps()).isCloseTo(r.outOfPlace().busBwGBps(), within(0.03 * r.outOfPlace().busBwGBps()));
            }
        }
        assertThat(sparse.at(rows.get(1).sizeBytes(), 1.5)).as("neighbours x4 apart, limit x1.5").isEmpty();
        assertThat(sparse.at(1L << 40, 4)).as("past the largest size").isEmpty();
    }
}
