package io.nccldoctor.gdr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.nccldoctor.core.Environment;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.NativeQueries;
import io.nccldoctor.core.exec.ProcessCommandRunner;
import io.nccldoctor.core.host.HostRoot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * GPU health against a real driver's NVML (scripts/device-check.sh); skipped where there is none. Every query answers
 * a value or "not supported on this GPU": an error would be a signature or layout the real NVML does not share with
 * nvml.h as read here.
 */
@Tag("gpu")
class LiveGpuHealthGpuTest {

    @Test
    void everyGpuAnswersEachQueryOrSaysItIsNotSupported() {
        assumeTrue(Files.exists(Path.of("/proc/driver/nvidia/version")), "no NVIDIA driver on this machine");
        Host live = new Host(HostRoot.live(), new ProcessCommandRunner(), NativeQueries.live(), Environment.relevant(System.getenv()), "live");
        GpuHealth h = new GpuHealthProbe().run(live);
        assertThat(h.gpus().isValue()).as("NVML: %s", h.gpus().describe()).isTrue();
        assertThat(h.gpus().get()).isNotEmpty().allSatisfy(g -> {
            assertThat(g.busId().get()).matches("[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]");
            assertThat(g.name().get()).startsWith("NVIDIA");
            for (Fact<?> f : List.of(g.persistenceMode(), g.mig(), g.ecc(), g.retiredPages(), g.rowRemap(), g.nvlinks(),
                    g.clocksEventReasons(), g.clocks(), g.fabric(), g.pcieReplays())) {
                assertThat(f.isError()).as("%s: %s", g.label(), f.describe()).isFalse();
            }
            assertThat(g.clocks().get().smMaxMHz().get()).isPositive();
        });
        assertThat(h.kernelXids().isAbsent()).as("the module is loaded: the log is read or its error said").isFalse();
    }
}
