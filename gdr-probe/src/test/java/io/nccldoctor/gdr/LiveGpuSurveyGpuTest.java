package io.nccldoctor.gdr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.nccldoctor.core.Environment;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.NativeQueries;
import io.nccldoctor.core.exec.ProcessCommandRunner;
import io.nccldoctor.core.host.HostRoot;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The CUDA/NVML survey against a real driver (scripts/device-check.sh); skipped where there is none. */
@Tag("gpu")
class LiveGpuSurveyGpuTest {

    @Test
    void everyGpuAnswersBusIdBrandComputeCapabilityAndAttributes() {
        assumeTrue(Files.exists(Path.of("/proc/driver/nvidia/version")), "no NVIDIA driver on this machine");
        Host live = new Host(HostRoot.live(), new ProcessCommandRunner(), NativeQueries.live(),
                Environment.relevant(System.getenv()), "live");
        GpuSurvey s = new GpuProbe().run(live);
        assertThat(s.gpus().isValue()).as("survey: %s", s.gpus().describe()).isTrue();
        assertThat(s.gpus().get()).isNotEmpty().allSatisfy(g -> {
            assertThat(g.busId()).matches("[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]");
            assertThat(g.name().get()).startsWith("NVIDIA");
            assertThat(g.brand().isValue()).as("brand: %s", g.brand().describe()).isTrue();
            assertThat(g.sm().get()).isGreaterThanOrEqualTo(70);
            assertThat(g.gdrSupported().isValue()).isTrue();
            assertThat(g.dmabufSupported().isValue()).isTrue();
        });
    }
}
