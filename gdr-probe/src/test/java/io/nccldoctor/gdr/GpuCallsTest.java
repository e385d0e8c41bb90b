package io.nccldoctor.gdr;

import static org.assertj.core.api.Assertions.assertThat;
import io.nccldoctor.core.StubLibraries;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JNA glue of GpuCalls against stub libcuda/libnvidia-ml built here with gcc, with the signatures of cuda.h
 * and nvml.h: two GPUs, the second a GeForce without DMA-BUF, a chipset that allows P2P writes but not reads.
 * On a real GPU the `gpu`-tagged test checks the same path against the driver.
 */
class GpuCallsTest {

    @TempDir
    Path tmp;

    static final String CUDA = """
            #include <string.h>
            int cuInit(unsigned int f) { return 0; }
            int cuDeviceGetCount(int *n) { *n = 2; return 0; }
            int cuDeviceGet(int *d, int ordinal) { *d = ordinal; return 0; }
            int cuDeviceGetPCIBusId(char *b, int len, int d) { strncpy(b, d == 0 ? "00000000:18:00.0" : "00000000:3B:00.0", len); return 0; }
            int cuDeviceGetName(char *n, int len, int d) { strncpy(n, d == 0 ? "NVIDIA H100 80GB HBM3" : "NVIDIA GeForce RTX 5090", len); return 0; }
            int cuDeviceGetAttribute(int *v, int attr, int d) {
              switch (attr) {
                case 75: *v = d == 0 ? 9 : 12; return 0;
                case 76: *v = 0; return 0;
                case 116: *v = 1; return 0;
                case 124: *v = d == 0 ? 1 : 0; return 0;
                default: return 1;
              }
            }
            int cuDeviceCanAccessPeer(int *can, int a, int b) { *can = 1; return 0; }
            """;
    static final String NVML = """
            #include <string.h>
            #include <stdint.h>
            int nvmlInit_v2(void) { return 0; }
            int nvmlDeviceGetHandleByPciBusId_v2(const char *bus, void **h) {
              if (strcmp(bus, "0000:18:00.0") == 0) { *h = (void *) 1; return 0; }
              if (strcmp(bus, "0000:3b:00.0") == 0) { *h = (void *) 2; return 0; }
              return 6;
            }
            int nvmlDeviceGetBrand(void *h, int *brand) { *brand = (intptr_t) h == 1 ? 2 : 5; return 0; }
            int nvmlDeviceGetP2PStatus(void *a, void *b, int index, int *status) { *status = index == 0 ? 1 : 0; return 0; }
            """;

    private Path build(String name, String source) throws IOException, InterruptedException {
        return StubLibraries.build(tmp, name, source);
    }

    @Test
    void surveyReadsAttributesBrandsAndSeparateReadWriteP2p() throws Exception {
        Path cuda = build("libcuda.so.1", CUDA);
        Path nvml = build("libnvidia-ml.so.1", NVML);
        GpuSurvey s = GpuCalls.survey(cuda.toString(), nvml.toString());
        assertThat(s.gpus().get()).hasSize(2);
        GpuSurvey.Gpu h100 = s.gpus().get().get(0);
        assertThat(h100.busId()).as("CUDA's 8-digit domain, as sysfs writes it").isEqualTo("0000:18:00.0");
        assertThat(h100.name().get()).isEqualTo("NVIDIA H100 80GB HBM3");
        assertThat(h100.brand().get()).isEqualTo("TESLA");
        assertThat(h100.sm().get()).isEqualTo(90);
        assertThat(h100.dmabufSupported().get()).isTrue();
        GpuSurvey.Gpu geforce = s.gpus().get().get(1);
        assertThat(geforce.busId()).isEqualTo("0000:3b:00.0");
        assertThat(geforce.brand().get()).isEqualTo("GEFORCE");
        assertThat(geforce.dmabufSupported().get()).isFalse();
        GpuSurvey.PeerStatus p = s.p2p().get().get(0);
        assertThat(p.read().get()).isEqualTo("CHIPSET_NOT_SUPPORTED");
        assertThat(p.write().get()).isEqualTo("OK");
        assertThat(p.cudaPeerAccess().get()).isTrue();
    }

    @Test
    void aDriverLibraryThatDoesNotLoadIsAFact() {
        GpuSurvey s = GpuCalls.survey(tmp.resolve("libcuda.so.1").toString(), null);
        assertThat(s.gpus().isError()).isTrue();
        assertThat(s.gpus().reason()).startsWith("cannot load ");
    }

    @Test
    void busIdsAreNormalised() {
        assertThat(GpuCalls.normalise("00000000:AB:00.0")).isEqualTo("0000:ab:00.0");
        assertThat(GpuCalls.normalise("0000:18:00.0")).isEqualTo("0000:18:00.0");
    }
}
