package io.nccldoctor.collectives.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.nccldoctor.collectives.coll.Collective;
import io.nccldoctor.collectives.coll.DataType;
import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.Json;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The loop against a counting fake that computes the collectives in Java with NCCL's semantics. */
class MeasurementTest {

    static Measurement.Plan plan(String c, DataType t, String op, long min, long max, boolean check, Measurement.Conditioning cond,
                                 long offset) {
        return new Measurement.Plan(Collective.parse(c), t, op, 0, min, max, 2, 2, 3, check, cond, offset, Duration.ofSeconds(5));
    }

    @Test
    void allReduceSweepHasNcclTestsRowsAndCorrectData() {
        FakeBackend fake = new FakeBackend(4);
        Measurement.Result r = new Measurement(fake).run(plan("allreduce", DataType.FLOAT32, "sum", 1024, 65536, true,
                Measurement.Conditioning.NCCL_TESTS, 0));
        assertThat(r.failure().isValue()).isFalse();
        assertThat(r.sizes()).hasSize(7);
        for (Measurement.SizeResult s : r.sizes()) {
            NcclTestsOutput.Placement out = s.row().outOfPlace();
            assertThat(out.wrong().get()).isZero();
            assertThat(s.row().inPlace().get().wrong().get()).isZero();
            assertThat(out.busBwGBps()).isCloseTo(out.algBwGBps() * 1.5, within(1e-9));
            assertThat(out.algBwGBps()).isCloseTo(s.row().sizeBytes() / 1e9 / (out.timeUs() / 1e6), within(1e-6));
            assertThat(s.row().count()).isEqualTo(s.row().sizeBytes() / 4);
        }
        // per size and placement: 2 warm-up + 3 timed + 1 validation launches on each of the 4 ranks
        assertThat(fake.launches).isEqualTo(7 * 2 * (2 + 3 + 1) * 4);
        assertThat(fake.allocs).isEqualTo(8);
        assertThat(r.asNcclTestsOutput().failures()).isEmpty();
        double mean = r.sizes().stream().mapToDouble(s -> s.row().outOfPlace().busBwGBps() + s.row().inPlace().get().busBwGBps())
                .sum() / 14;
        assertThat(r.asNcclTestsOutput().avgBusBwGBps().get()).isCloseTo(mean, within(1e-9));
    }

    @ParameterizedTest
    @CsvSource({"allgather, sum", "alltoall, sum", "reducescatter, max", "broadcast, sum", "reduce, min", "sendrecv, sum",
        "allreduce, max"})
    void everyCollectiveValidatesInBothPlacements(String collective, String op) {
        FakeBackend fake = new FakeBackend(3);
        Measurement.Result r = new Measurement(fake).run(plan(collective, DataType.INT32, op, 96, 3072, true,
                Measurement.Conditioning.NCCL_TESTS, 0));
        assertThat(r.sizes()).hasSize(6);
        boolean inPlaceDefined = !collective.equals("alltoall") && !collective.equals("sendrecv");
        for (Measurement.SizeResult s : r.sizes()) {
            assertThat(s.row().outOfPlace().wrong().get()).as("%s out-of-place at %d", collective, s.row().sizeBytes()).isZero();
            if (inPlaceDefined) {
                assertThat(s.row().inPlace().get().wrong().get()).as("%s in-place at %d", collective, s.row().sizeBytes()).isZero();
            } else {
                assertThat(s.row().inPlace().get().wrong().reason()).as("in-place %s races, as nccl-tests says: N/A", collective)
                        .contains("N/A").contains("races");
            }
        }
    }

    @Test
    void aCorruptedResultIsCountedAndFailsTheRun() {
        FakeBackend fake = new FakeBackend(2);
        fake.corrupt = true;
        Measurement.Result r = new Measurement(fake).run(plan("allreduce", DataType.FLOAT32, "sum", 1024, 2048, true,
                Measurement.Conditioning.NCCL_TESTS, 0));
        assertThat(r.sizes().get(0).row().outOfPlace().wrong().get()).isEqualTo(1);
        assertThat(r.asNcclTestsOutput().failures()).singleElement().asString().startsWith("4 wrong elements in 2 of 2 sizes");
    }

    @Test
    void conditioningReproducesTheFieldReportsMisalignedAlltoall() {
        long bytes = 134217726L * 4; // n -= n % world left 134,217,726 floats over 3 ranks
        FakeBackend counting = new FakeBackend(3);
        counting.compute = false;
        Measurement.Result asGiven = new Measurement(counting).run(plan("alltoall", DataType.FLOAT32, "sum", bytes, bytes, false,
                Measurement.Conditioning.NONE, 0));
        assertThat(asGiven.sizes().get(0).chunkBytes()).isEqualTo(178_956_968L);
        assertThat(asGiven.sizes().get(0).chunksAligned()).isFalse();
        Measurement.Result likeNcclTests = new Measurement(counting).run(plan("alltoall", DataType.FLOAT32, "sum", bytes, bytes,
                false, Measurement.Conditioning.NCCL_TESTS, 0));
        assertThat(likeNcclTests.sizes().get(0).chunkBytes()).isEqualTo(178_956_960L);
        assertThat(likeNcclTests.sizes().get(0).chunksAligned()).isTrue();
        assertThat(likeNcclTests.sizes().get(0).row().outOfPlace().wrong().isValue()).isFalse();
    }

    @Test
    void anOffsetMisalignsTheBaseAndTheDataStillChecks() {
        Measurement.Result r = new Measurement(new FakeBackend(2)).run(plan("allgather", DataType.FLOAT32, "sum", 4096, 4096, true,
                Measurement.Conditioning.NCCL_TESTS, 4));
        assertThat(r.sizes().get(0).chunksAligned()).isFalse();
        assertThat(r.sizes().get(0).row().outOfPlace().wrong().get()).isZero();
    }

    /** -a: the row's time (and so its bandwidths) is the mean, minimum or maximum over ranks, or this process's own. */
    @Test
    void rankTimesAreCombinedAsAsked() {
        Map<Measurement.Aggregate, Double> usec = new EnumMap<>(Measurement.Aggregate.class);
        for (Measurement.Aggregate a : Measurement.Aggregate.values()) {
            FakeBackend fake = new FakeBackend(2);
            fake.otherProcesses = new double[] {100.0}; // a rank elsewhere that needs 100 s per iteration: far above any real time
            Measurement.Result r = new Measurement(fake).run(new Measurement.Plan(Collective.parse("allreduce"), DataType.FLOAT32, "sum",
                    0, 1 << 20, 1 << 20, 2, 1, 2, false, Measurement.Conditioning.NCCL_TESTS, 0, Duration.ofSeconds(5), a));
            NcclTestsOutput.Placement out = r.sizes().get(0).row().outOfPlace();
            usec.put(a, out.timeUs());
            assertThat(out.algBwGBps()).isCloseTo((1 << 20) / 1e9 / (out.timeUs() / 1e6), org.assertj.core.data.Percentage.withPercentage(0.01));
        }
        assertThat(usec.get(Measurement.Aggregate.MAX)).isEqualTo(1e8);
        assertThat(usec.get(Measurement.Aggregate.OWN)).isLessThan(1e7);
        assertThat(usec.get(Measurement.Aggregate.MIN)).isEqualTo(usec.get(Measurement.Aggregate.MIN)).isLessThan(1e7);
        assertThat(usec.get(Measurement.Aggregate.AVG)).isBetween(5e7, 5.5e7);
        assertThat(Measurement.Aggregate.ofNcclTestsFlag(3)).isEqualTo(Measurement.Aggregate.MAX);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Measurement.Aggregate.ofNcclTestsFlag(4))
                .hasMessageStartingWith("-a 4: use 0 (each process its own time)");
    }

    /** -I: per-iteration times from events; one iteration 50 ms slower shows as the max and the p99, and in the CV. */
    @Test
    void perIterationTimingFindsTheSlowIteration() {
        FakeBackend fake = new FakeBackend(2);
        fake.slowLaunch.put(2 * 2 + 2 * 3 + 1, 50.0); // warm-up: 2 launches x 2 GPUs; then iteration 3's first launch
        Measurement.Result r = new Measurement(fake).run(new Measurement.Plan(Collective.parse("allreduce"), DataType.FLOAT32, "sum", 0,
                1 << 10, 1 << 10, 2, 2, 10, false, Measurement.Conditioning.NCCL_TESTS, 0, Duration.ofSeconds(5), Measurement.Aggregate.AVG,
                true));
        Measurement.IterationStats out = r.sizes().get(0).outOfPlaceIterations().get();
        assertThat(out.iterations()).isEqualTo(10);
        assertThat(out.maxUs()).isGreaterThanOrEqualTo(50_000).isEqualTo(out.p99Us());
        assertThat(out.minUs()).isLessThan(20_000);
        assertThat(out.cvPercent()).isGreaterThan(100);
        assertThat(r.sizes().get(0).inPlaceIterations().get().maxUs()).as("in-place had no slow iteration").isLessThan(20_000);
        Measurement.Result plain = new Measurement(new FakeBackend(2)).run(plan("allreduce", DataType.FLOAT32, "sum", 1024, 1024, false,
                Measurement.Conditioning.NCCL_TESTS, 0));
        assertThat(plain.sizes().get(0).outOfPlaceIterations().isValue()).isFalse();
        assertThat(Measurement.IterationStats.of(new double[] {10, 10, 10, 10}).cvPercent()).isZero();
        assertThat(Measurement.IterationStats.of(new double[] {1, 2, 3, 4}).cvPercent()).isCloseTo(44.72, within(0.01));
    }

    @Test
    void aHangIsAbortedAtTheTimeLimitAndKeepsTheSizesDone() {
        FakeBackend fake = new FakeBackend(2);
        fake.hangAfterLaunches = 40; // the first size takes 2 x 6 x 2 = 24 launches
        Measurement.Plan p = new Measurement.Plan(Collective.parse("allreduce"), DataType.FLOAT32, "sum", 0, 1024, 8192, 2, 2, 3, true,
                Measurement.Conditioning.NCCL_TESTS, 0, Duration.ofMillis(200));
        long start = System.nanoTime();
        Measurement.Result r = new Measurement(fake).run(p);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        assertThat(r.failure().get()).contains("did not complete before the time limit");
        assertThat(fake.aborted).isTrue();
        assertThat(r.sizes()).hasSize(1);
    }

    @Test
    void fp8AndProductAreNotValidatedAndSaySo() {
        Measurement.Result r = new Measurement(new FakeBackend(2)).run(plan("allreduce", DataType.FLOAT32, "prod", 1024, 1024, true,
                Measurement.Conditioning.NCCL_TESTS, 0));
        assertThat(r.sizes().get(0).row().outOfPlace().wrong().reason()).isEqualTo("validated for sum, max and min only, not prod");
    }

    @Test
    void halfPrecisionPatternsAreExactForSmallIntegers() {
        assertThat(Pattern.half(1)).isEqualTo((short) 0x3C00);
        assertThat(Pattern.half(300)).isEqualTo((short) 0x5CB0);
        assertThat(Pattern.fromHalf((short) 0x5CB0)).isEqualTo(300.0);
        assertThat(Pattern.matches(DataType.BFLOAT16, Pattern.element(DataType.BFLOAT16, 12), 0, 12)).isTrue();
        assertThat(Pattern.matches(DataType.INT8, Pattern.element(DataType.INT8, 300), 0, 300)).isTrue(); // wraps as NCCL does
        assertThat(Pattern.matches(DataType.INT32, Pattern.element(DataType.INT32, 3), 0, 4)).isFalse();
    }

    @Test
    void theResultIsJsonWithTheDocumentedNames() throws Exception {
        Measurement.Result r = new Measurement(new FakeBackend(2)).run(plan("alltoall", DataType.FLOAT32, "sum", 1024, 2048, true,
                Measurement.Conditioning.NONE, 0));
        com.fasterxml.jackson.databind.JsonNode n = Json.mapper().readTree(Json.write(r));
        assertThat(n.path("plan").path("collective").asText()).isEqualTo("alltoall");
        assertThat(n.path("plan").path("conditioning").asText()).isEqualTo("NONE");
        assertThat(n.path("plan").path("timeoutSeconds").asLong()).isEqualTo(5);
        assertThat(n.path("sizes").get(0).path("row").path("outOfPlace").path("busBwGBps").isNumber()).isTrue();
        assertThat(n.path("sizes").get(0).path("chunkBytes").asLong()).isEqualTo(512);
    }
}
