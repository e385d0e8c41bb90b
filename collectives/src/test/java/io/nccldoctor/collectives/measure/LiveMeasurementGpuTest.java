package io.nccldoctor.collectives.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.nccldoctor.collectives.Libraries;
import io.nccldoctor.collectives.LibrariesProbe;
import io.nccldoctor.collectives.coll.Collective;
import io.nccldoctor.collectives.coll.DataType;
import io.nccldoctor.core.Environment;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.NativeQueries;
import io.nccldoctor.core.exec.ProcessCommandRunner;
import io.nccldoctor.core.host.HostRoot;
import io.nccldoctor.core.libs.NativeLibrary;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * allreduce, allgather and alltoall through the real driver and NCCL, data checked and every iteration timed with CUDA
 * events (scripts/device-check.sh).
 */
@Tag("gpu")
class LiveMeasurementGpuTest {

    @ParameterizedTest
    @ValueSource(strings = {"allreduce", "allgather", "alltoall"})
    void runsAndReturnsCorrectData(String collective) {
        Libraries libs = new LibrariesProbe().run(new Host(HostRoot.live(), new ProcessCommandRunner(), NativeQueries.live(),
                Environment.relevant(System.getenv()), "live"));
        assumeTrue(libs.cudaDriver().loaded().isValue(), "no libcuda.so.1 on this machine");
        assumeTrue(libs.nccl().found(), "no libnccl.so.2 on this machine");
        String nccl = libs.nccl().loaded().map(NativeLibrary.Copy::realPath).orElse(libs.nccl().copies().get(0).realPath());
        try (JnaBackend b = JnaBackend.singleProcess(libs.cudaDriver().loaded().get().realPath(), nccl, new int[] {0})) {
            Collective c = Collective.parse(collective);
            Measurement.Result r = new Measurement(b).run(new Measurement.Plan(c, DataType.FLOAT32, "sum", 0, 1024, 64L << 20, 4, 2, 5,
                    true, Measurement.Conditioning.NCCL_TESTS, 0, Duration.ofSeconds(60), Measurement.Aggregate.AVG, true));
            assertThat(r.failure().isValue()).as(r.failure().describe()).isFalse();
            assertThat(r.sizes()).hasSize(9);
            for (Measurement.SizeResult s : r.sizes()) {
                assertThat(s.row().outOfPlace().wrong().get()).isZero();
                if (c.checkedInPlace()) {
                    assertThat(s.row().inPlace().get().wrong().get()).isZero();
                }
                assertThat(s.row().outOfPlace().timeUs()).isPositive();
                assertThat(s.outOfPlaceIterations().get().minUs()).as("cuEventElapsedTime(_v2) on this driver").isPositive();
            }
        }
    }
}
