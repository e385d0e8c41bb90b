package io.nccldoctor.collectives.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.collectives.StandIns;
import io.nccldoctor.collectives.coll.Collective;
import io.nccldoctor.collectives.coll.DataType;
import io.nccldoctor.core.Fact;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real JNA backend and measurement loop against the host-memory stand-ins for libcuda.so.1 and libnccl.so.2
 * (src/test/c): real bytes between ranks that are threads of this JVM, NCCL's group, in-place and non-blocking
 * semantics, and each failure mode switched on by the stand-ins' environment variables.
 */
class StandInBackendTest {

    /** 4 KiB windows: sizes above it take several rounds through the stand-in's shared memory. */
    private static final Map<String, String> BASE = Map.of("STANDIN_CUDA_DEVICES", "256", "STANDIN_NCCL_WINDOW", "4096");

    @BeforeAll
    static void build() {
        StandIns.dir();
    }

    private static int[] gpus(int n) {
        return IntStream.range(0, n).toArray();
    }

    static Measurement.Plan plan(String collective, DataType type, String op, long min, long max, int iters, boolean perIteration) {
        return new Measurement.Plan(Collective.parse(collective), type, op, 0, min, max, 4, 1, iters, true,
                Measurement.Conditioning.NCCL_TESTS, 0, Duration.ofSeconds(20), Measurement.Aggregate.AVG, perIteration);
    }

    /** Runs the plan on n GPUs of the stand-in with the given NCCL, with the switches set; closes the backend. */
    static Measurement.Result run(String ncclVersion, int n, Measurement.Plan plan, Map<String, String> switches) {
        Measurement.Result[] out = new Measurement.Result[1];
        StandIns.withSwitches(with(switches), () -> {
            try (JnaBackend b = JnaBackend.singleProcess(StandIns.libcuda(), StandIns.libnccl(ncclVersion), gpus(n), Duration.ofSeconds(10))) {
                out[0] = new Measurement(b).run(plan);
            }
        });
        return out[0];
    }

    private static Map<String, String> with(Map<String, String> switches) {
        HashMap<String, String> all = new HashMap<>(BASE);
        all.putAll(switches);
        return all;
    }

    private static void assertNothingHeld(String ncclVersion) {
        assertThat(StandIns.counter(StandIns.libnccl(ncclVersion), "standin_nccl_live_comms")).as("communicators left").isZero();
        assertThat(StandIns.counter(StandIns.libnccl(ncclVersion), "standin_nccl_open_groups")).as("groups left open").isZero();
        assertThat(StandIns.counter(StandIns.libcuda(), "standin_cuda_live_retains")).as("primary contexts left").isZero();
        assertThat(StandIns.counter(StandIns.libcuda(), "standin_cuda_live_streams")).as("streams left").isZero();
    }

    private static void assertCorrect(Measurement.Result r, String what) {
        assertThat(r.failure().isValue()).as("%s failed: %s", what, r.failure().orElse("")).isFalse();
        assertThat(r.sizes()).isNotEmpty();
        for (Measurement.SizeResult s : r.sizes()) {
            assertThat(s.row().outOfPlace().wrong().get()).as("%s out-of-place at %d bytes", what, s.row().sizeBytes()).isZero();
            Fact<Long> in = s.row().inPlace().get().wrong();
            if (r.plan().collective().checkedInPlace()) {
                assertThat(in.get()).as("%s in-place at %d bytes", what, s.row().sizeBytes()).isZero();
            } else {
                assertThat(in.isValue()).as("%s in-place is a race, not checked (N/A), as in nccl-tests", what).isFalse();
            }
        }
    }

    @ParameterizedTest
    @CsvSource({"allreduce, sum", "allreduce, max", "allreduce, min", "allgather, sum", "alltoall, sum", "reducescatter, sum",
        "reducescatter, min", "broadcast, sum", "reduce, max", "sendrecv, sum"})
    void everyCollectiveIsCorrectInBothPlacementsForEveryType(String collective, String op) {
        for (DataType t : DataType.values()) {
            if (t == DataType.FP8_E4M3 || t == DataType.FP8_E5M2) {
                continue;
            }
            // 64 B to 16 KiB: below, at and across the stand-in's 4 KiB window
            Measurement.Result r = run("2.28.3", 4, plan(collective, t, op, 64, 16384, 2, false), Map.of());
            assertCorrect(r, collective + " " + op + " " + t);
        }
        assertNothingHeld("2.28.3");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 8, 64})
    void oneToSixtyFourRanksGetCorrectData(int ranks) {
        for (String c : new String[] {"allreduce", "allgather", "alltoall", "sendrecv"}) {
            assertCorrect(run("2.28.3", ranks, plan(c, DataType.FLOAT32, "sum", 1024, 1024, 1, false), Map.of()), c + " on " + ranks);
        }
        assertNothingHeld("2.28.3");
    }

    @Test
    void largeRankCountsKeepEveryValueInsideItsType() {
        // int8 max went wrong from 122 ranks, uint8 from 250, when rank r sent r + 1 + k
        assertCorrect(run("2.28.3", 130, plan("allreduce", DataType.INT8, "max", 16, 16, 1, false), Map.of()), "int8 max on 130");
        assertCorrect(run("2.28.3", 130, plan("allreduce", DataType.INT8, "min", 16, 16, 1, false), Map.of()), "int8 min on 130");
        assertCorrect(run("2.28.3", 256, plan("allreduce", DataType.UINT8, "max", 16, 16, 1, false), Map.of()), "uint8 max on 256");
        assertCorrect(run("2.28.3", 256, plan("allreduce", DataType.FLOAT16, "sum", 16, 16, 1, false), Map.of()), "half sum on 256");
        assertNothingHeld("2.28.3");
    }

    @Test
    void beforeNccl228AlltoallIsGroupedSendAndReceive() {
        assertCorrect(run("2.21.5", 3, plan("alltoall", DataType.INT32, "sum", 96, 8192, 1, false), Map.of()), "alltoall on 2.21.5");
        assertNothingHeld("2.21.5");
    }

    @Test
    void perIterationTimesUseTheEventCallOfCuda13() {
        Measurement.Result r = run("2.28.3", 2, plan("allreduce", DataType.FLOAT32, "sum", 1024, 1024, 5, true), Map.of());
        assertCorrect(r, "allreduce -I");
        Measurement.IterationStats stats = r.sizes().get(0).outOfPlaceIterations().get();
        assertThat(stats.iterations()).isEqualTo(5);
        assertThat(stats.minUs()).isPositive().isLessThanOrEqualTo(stats.maxUs());
    }

    @Test
    void aLaunchThatFailsInsideTheGroupStillEndsTheGroupAndFreesEveryCommunicator() {
        Measurement.Result r = run("2.28.3", 4, plan("allreduce", DataType.FLOAT32, "sum", 1024, 1024, 1, false),
                Map.of("STANDIN_NCCL_FAIL", "ncclAllReduce:5:2"));
        assertThat(r.failure().get()).contains("ncclAllReduce failed: invalid usage");
        assertNothingHeld("2.28.3");
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aCollectiveThatHangsIsAbortedAtTheDeadline() {
        Measurement.Plan p = new Measurement.Plan(Collective.parse("allgather"), DataType.FLOAT32, "sum", 0, 1024, 1024, 2, 1, 1, true,
                Measurement.Conditioning.NCCL_TESTS, 0, Duration.ofSeconds(1));
        Measurement.Result r = run("2.28.3", 3, p, Map.of("STANDIN_NCCL_HANG", "collective:2"));
        assertThat(r.failure().get()).contains("the collective did not complete before the time limit (a hang)");
        assertNothingHeld("2.28.3");
    }

    @Test
    void aPeerThatFailsShowsAsTheCommunicatorsError() {
        Measurement.Result r = run("2.28.3", 2, plan("allreduce", DataType.FLOAT32, "sum", 1024, 1024, 1, false),
                Map.of("STANDIN_NCCL_ASYNC_ERROR", "6:3"));
        // seen by the poll of the communicator, or by the next call on it, whichever comes first
        assertThat(r.failure().get()).containsAnyOf("communicator error ", "ncclAllReduce failed: ")
                .endsWith("remote process exited or there was a network error (6)");
        assertNothingHeld("2.28.3");
    }

    /** A blocking initialisation would wait here forever: the limit turns that into a failure. */
    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void anInitialisationThatHangsEndsAtTheDeadlineWithNothingLeft() {
        StandIns.withSwitches(with(Map.of("STANDIN_NCCL_HANG", "init")), () -> assertThatThrownBy(() ->
                JnaBackend.singleProcess(StandIns.libcuda(), StandIns.libnccl("2.28.3"), gpus(2), Duration.ofSeconds(1)))
                .isInstanceOf(Backend.Failure.class).hasMessageContaining("NCCL was still initialising its communicator after 1 s (a hang"));
        assertNothingHeld("2.28.3");
    }

    @Test
    void aSetUpThatFailsHalfWayReleasesWhatItTook() {
        StandIns.withSwitches(with(Map.of("STANDIN_CUDA_FAIL", "cuStreamCreate:2:3")), () -> assertThatThrownBy(() ->
                JnaBackend.singleProcess(StandIns.libcuda(), StandIns.libnccl("2.28.3"), gpus(4), Duration.ofSeconds(5)))
                .hasMessage("cuStreamCreate returned CUDA_ERROR_OUT_OF_MEMORY (2)"));
        assertNothingHeld("2.28.3");
        StandIns.withSwitches(with(Map.of("STANDIN_NCCL_FAIL", "ncclCommInitRankConfig:3:1")), () -> assertThatThrownBy(() ->
                JnaBackend.singleProcess(StandIns.libcuda(), StandIns.libnccl("2.28.3"), gpus(3), Duration.ofSeconds(5)))
                .hasMessageContaining("ncclCommInitRankConfig failed: internal error"));
        assertNothingHeld("2.28.3");
    }

    @Test
    void cudaErrorsAreNamedWithWhatToDo() {
        StandIns.withSwitches(with(Map.of("STANDIN_CUDA_FAIL", "cuInit:34")), () -> assertThatThrownBy(() ->
                JnaBackend.singleProcess(StandIns.libcuda(), StandIns.libnccl("2.28.3"), gpus(1), Duration.ofSeconds(5)))
                .hasMessageStartingWith("cuInit returned CUDA_ERROR_STUB_LIBRARY (34): the libcuda.so.1 loaded is the CUDA toolkit's stub"));
    }

    @Test
    void fp8OnAnNcclBefore224SaysSo() {
        Measurement.Result r = run("2.21.5", 2, plan("allreduce", DataType.FP8_E4M3, "sum", 64, 64, 1, false), Map.of());
        assertThat(r.failure().get()).isEqualTo("f8e4m3 needs NCCL 2.24 or later (ncclFloat8e4m3 and ncclFloat8e5m2 first appear in "
                + "nccl.h 2.24.3); this NCCL is 2.21.5");
        assertNothingHeld("2.21.5");
        Measurement.Result fine = run("2.28.3", 2, plan("allreduce", DataType.FP8_E5M2, "sum", 64, 64, 1, false), Map.of());
        assertThat(fine.failure().isValue()).isFalse();
        assertThat(fine.sizes().get(0).row().outOfPlace().wrong().reason()).isEqualTo("FP8 results are not validated");
    }

    @Test
    void aLibraryThatCannotLoadKeepsTheLoadersReason() {
        assertThatThrownBy(() -> JnaBackend.singleProcess(StandIns.libcuda(), StandIns.dir().resolve("broken/libnccl.so.2").toString(),
                gpus(1))).hasMessageContaining("libstandin-absent.so.0: cannot open shared object file");
    }
}
