package io.nccldoctor.gdr;

import static io.nccldoctor.gdr.StandInEnv.with;
import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.StandInBuild;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * NvmlHealthCalls against the NVML stand-in (collectives/src/test/c/nvml.c, with nvml.h's signatures and struct
 * layouts): every query of a healthy H100 read back field by field, then each fault the stand-in can inject read as
 * NVML reports it. The stand-in reads its switches with getenv at each call, so they are set in this process's C
 * environment and removed again.
 */
class NvmlHealthCallsTest {

    private static String nvml() {
        Path dir = StandInBuild.make(Path.of("../collectives/src/test/c"), Path.of("target/standins"));
        return dir.resolve("nvml/libnvidia-ml.so.1").toString();
    }

    @Test
    void aHealthyH100ReadsBackEveryField() {
        String lib = nvml();
        Fact<NvmlHealthCalls.Answer> a = with(Map.of("STANDIN_CUDA_DEVICES", "2"), () -> NvmlHealthCalls.survey(lib));
        List<GpuHealth.Gpu> gpus = a.get().gpus();
        assertThat(gpus).hasSize(2);
        GpuHealth.Gpu g = gpus.get(1);
        assertThat(g.busId().get()).as("nvmlPciInfo_t.busId at offset 36, 8-digit domain normalised").isEqualTo("0000:19:00.0");
        assertThat(g.name().get()).isEqualTo("NVIDIA H100 80GB HBM3");
        assertThat(g.persistenceMode().get()).isTrue();
        assertThat(g.mig().get()).isEqualTo(new GpuHealth.Mig(false, false));
        GpuHealth.Ecc ecc = g.ecc().get();
        assertThat(ecc.enabled()).isTrue();
        assertThat(List.of(ecc.volatileCorrected(), ecc.volatileUncorrected(), ecc.aggregateCorrected(), ecc.aggregateUncorrected()))
                .allMatch(f -> f.get() == 0L);
        assertThat(g.retiredPages().get().pending().get()).isFalse();
        assertThat(g.rowRemap().get()).isEqualTo(new GpuHealth.RowRemap(0, 0, false, false));
        assertThat(g.nvlinks().get()).as("links past the 18th answer INVALID_ARGUMENT: not this GPU's").hasSize(18)
                .allMatch(GpuHealth.NvLink::active).allMatch(l -> l.replay().get() == 0 && l.crcFlit().get() == 0);
        assertThat(GpuHealth.reasonNames(g.clocksEventReasons().get())).containsExactly("GpuIdle");
        assertThat(g.clocks().get().smMHz().get()).isEqualTo(1980);
        GpuHealth.Fabric f = g.fabric().get();
        assertThat(f.state()).isEqualTo("COMPLETED");
        assertThat(f.status().get()).isEqualTo("SUCCESS");
        assertThat(f.healthSummary().get()).as("the v3 struct's healthSummary at offset 36").isEqualTo("HEALTHY");
        assertThat(g.pcieReplays().get()).isZero();
    }

    @Test
    void eachInjectedFaultReadsAsNvmlReportsIt() {
        String lib = nvml();
        String faults = "0:remap-pending,0:retired-pending,1:remap-failed,1:dbe=3,2:nvlink-down=7,2:nvlink-errors=12,"
                + "3:throttle=0x48,3:persistence-off,4:fabric=in-progress,4:pcie-replays=412,5:no-nvlink,5:mig,6:lost";
        List<GpuHealth.Gpu> gpus = with(Map.of("STANDIN_CUDA_DEVICES", "7", "STANDIN_NVML_FAULTS", faults),
                () -> NvmlHealthCalls.survey(lib)).get().gpus();
        assertThat(gpus.get(0).rowRemap().get().pending()).isTrue();
        assertThat(gpus.get(0).retiredPages().get().pending().get()).isTrue();
        assertThat(gpus.get(0).retiredPages().get().doubleBitEcc().get()).isEqualTo(1);
        assertThat(gpus.get(1).rowRemap().get().failed()).isTrue();
        assertThat(gpus.get(1).ecc().get().volatileUncorrected().get()).isEqualTo(3L);
        GpuHealth.NvLink down = gpus.get(2).nvlinks().get().get(7);
        assertThat(down.link()).isEqualTo(7);
        assertThat(down.active()).isFalse();
        assertThat(gpus.get(2).nvlinks().get().get(0).recovery().get()).isEqualTo(12L);
        assertThat(GpuHealth.reasonNames(gpus.get(3).clocksEventReasons().get())).containsExactly("HwSlowdown", "HwThermalSlowdown");
        assertThat(gpus.get(3).clocks().get().smMHz().get()).isEqualTo(990);
        assertThat(gpus.get(3).persistenceMode().get()).isFalse();
        assertThat(gpus.get(4).fabric().get().state()).isEqualTo("IN_PROGRESS");
        assertThat(gpus.get(4).fabric().get().status().isAbsent()).as("status counts only once COMPLETED").isTrue();
        assertThat(gpus.get(4).pcieReplays().get()).isEqualTo(412L);
        assertThat(gpus.get(5).nvlinks().isAbsent()).as("NOT_SUPPORTED is a property, not an error").isTrue();
        assertThat(gpus.get(5).nvlinks().reason()).startsWith("not supported on this GPU");
        assertThat(gpus.get(5).mig().get().enabled()).isTrue();
        assertThat(gpus.get(6).busId().isError()).isTrue();
        assertThat(gpus.get(6).busId().reason()).contains("NVML_ERROR_GPU_IS_LOST (15)");
    }

    @Test
    void aLibraryThatDoesNotLoadIsAFact() {
        Fact<NvmlHealthCalls.Answer> a = NvmlHealthCalls.survey("/nonexistent/libnvidia-ml.so.1");
        assertThat(a.isError()).isTrue();
        assertThat(a.reason()).startsWith("cannot load /nonexistent/libnvidia-ml.so.1");
    }
}
