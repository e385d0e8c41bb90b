package io.nccldoctor.gdr;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Host;
import io.nccldoctor.core.NativeQueries;
import io.nccldoctor.core.capture.Capture;
import io.nccldoctor.core.exec.CommandResult;
import io.nccldoctor.core.exec.RecordedCommandRunner;
import io.nccldoctor.core.host.HostRoot;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The GPU health probe replaying the health captures (fixtures/health, built by scripts/make-health-fixtures.py). */
class GpuHealthProbeTest {

    static final Path HEALTH = Path.of("src/test/resources/fixtures/health");

    @TempDir
    Path tmp;

    private static GpuHealth replay(String name) {
        return new GpuHealthProbe().run(Capture.open(HEALTH.resolve(name)).host());
    }

    @Test
    void aHealthyDgxH100ReadsEightGpusAndAnEmptyKernelLog() {
        GpuHealth h = replay("dgx-h100-healthy");
        assertThat(h.gpus().get()).hasSize(8).allMatch(g -> g.nvlinks().get().size() == 18)
                .allMatch(g -> g.retiredPages().reason().startsWith("not supported on this GPU"));
        assertThat(h.gpus().get().get(7).busId().get()).isEqualTo("0000:ac:00.0");
        assertThat(h.kernelXids().get().events()).isEmpty();
        assertThat(h.kernelXids().get().source()).isEqualTo("journalctl -k --since=-120min -o short-iso --no-pager");
    }

    @Test
    void theFaultyDgxH100KeepsEachFaultAndItsXids() {
        GpuHealth h = replay("dgx-h100-faulty");
        List<GpuHealth.Gpu> g = h.gpus().get();
        assertThat(g.get(0).rowRemap().get().pending()).isTrue();
        assertThat(g.get(1).rowRemap().get().failed()).isTrue();
        assertThat(GpuHealth.reasonNames(g.get(2).clocksEventReasons().get())).containsExactly("HwSlowdown", "HwThermalSlowdown");
        assertThat(g.get(4).fabric().get().state()).isEqualTo("IN_PROGRESS");
        assertThat(g.get(5).nvlinks().get().get(7).active()).isFalse();
        assertThat(h.kernelXids().get().events()).extracting(e -> e.busId() + " " + e.xid())
                .containsExactly("0000:18:00.0 94", "0000:18:00.0 63", "0000:19:00.0 64", "0000:2a:00.0 45");
    }

    @Test
    void withoutDriverOrNvmlNothingIsAskedAndTheLogIsNotRead() {
        Host bare = new Host(HostRoot.at(tmp), new RecordedCommandRunner(List.<CommandResult>of()), NativeQueries.live(), Map.of(), "test");
        GpuHealth h = new GpuHealthProbe().run(bare);
        assertThat(h.gpus().isAbsent()).isTrue();
        assertThat(h.gpus().reason()).startsWith("no NVIDIA driver");
        assertThat(h.kernelXids().isAbsent()).as("only the NVIDIA driver writes Xids").isTrue();
    }
}
