package io.nccldoctor.gdr;

import static org.assertj.core.api.Assertions.assertThat;
import io.nccldoctor.core.StubLibraries;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `gdr --active` registration against stub libibverbs and libcuda built here with gcc, with the signatures of
 * verbs.h and cuda.h and the errno conventions the kernel uses: two HCAs, the first accepts DMA-BUF MRs (EBADF on
 * NCCL's fd -1 probe), the second does not (EOPNOTSUPP); no peer-memory client (ibv_reg_mr on GPU memory: EFAULT).
 */
class RegistrationCallsTest {

    @TempDir
    Path tmp;

    static final String IBVERBS = """
            #include <errno.h>
            #include <stdlib.h>
            #include <stddef.h>
            static int devs[2];
            static int mr;
            void **ibv_get_device_list(int *n) { void **l = calloc(3, sizeof(void *)); l[0] = &devs[0]; l[1] = &devs[1]; *n = 2; return l; }
            void ibv_free_device_list(void **l) { free(l); }
            const char *ibv_get_device_name(void *d) { return d == &devs[0] ? "mlx5_0" : "mlx5_1"; }
            void *ibv_open_device(void *d) { return d; }
            int ibv_close_device(void *c) { return 0; }
            void *ibv_alloc_pd(void *c) { return c; }
            int ibv_dealloc_pd(void *p) { return 0; }
            void *ibv_reg_dmabuf_mr(void *pd, unsigned long off, size_t len, unsigned long iova, int fd, int access) {
              if (pd == &devs[1]) { errno = EOPNOTSUPP; return NULL; }
              if (fd < 0) { errno = EBADF; return NULL; }
              if (len == 2097152 && iova == 0x7f0000000000UL && access == 7) return &mr;
              errno = EINVAL; return NULL;
            }
            void *ibv_reg_mr(void *pd, void *addr, size_t len, int access) { errno = EFAULT; return NULL; }
            int ibv_dereg_mr(void *m) { return 0; }
            """;
    static final String CUDA = """
            #include <string.h>
            #include <stddef.h>
            #include <fcntl.h>
            int cuInit(unsigned int f) { return 0; }
            int cuDeviceGetByPCIBusId(int *d, const char *b) { *d = 0; return strcmp(b, "0000:18:00.0") == 0 ? 0 : 101; }
            int cuDevicePrimaryCtxRetain(void **c, int d) { *c = (void *) 1; return 0; }
            int cuDevicePrimaryCtxRelease_v2(int d) { return 0; }
            int cuCtxSetCurrent(void *c) { return 0; }
            int cuMemAlloc_v2(unsigned long long *p, size_t s) { *p = 0x7f0000000000ULL; return 0; }
            int cuMemFree_v2(unsigned long long p) { return 0; }
            int cuMemGetHandleForAddressRange(void *h, unsigned long long p, size_t s, int type, unsigned long long flags) {
              if (type != 1 || s != 2097152) return 1;
              *(int *) h = open("/dev/null", O_RDONLY);
              return 0;
            }
            """;

    private Path build(String name, String source) throws IOException, InterruptedException {
        return StubLibraries.build(tmp, name, source);
    }

    @Test
    void ncclsProbeAndRealRegistrationsPerGpuAndHca() throws Exception {
        Path ibv = build("libibverbs.so.1", IBVERBS);
        Path cuda = build("libcuda.so.1", CUDA);
        Registration r = RegistrationCalls.run(ibv.toString(), cuda.toString(), List.of("0000:18:00.0", "0000:3b:00.0"));
        assertThat(r.ncclProbe().get()).extracting(Registration.HcaProbe::hca).containsExactly("mlx5_0", "mlx5_1");
        assertThat(r.ncclProbe().get().get(0).dmabufSupport().get()).isEqualTo("supported (EBADF for fd -1, as NCCL expects)");
        assertThat(r.ncclProbe().get().get(1).dmabufSupport().get()).startsWith("not supported (errno 95");
        List<Registration.PairResult> pairs = r.pairs().get();
        assertThat(pairs).hasSize(4);
        Registration.PairResult ok = pairs.get(0);
        assertThat(ok.gpuBusId()).isEqualTo("0000:18:00.0");
        assertThat(ok.dmabuf().get()).isEqualTo("registered");
        assertThat(ok.peermem().get()).isEqualTo("failed: errno 14 (EFAULT: the NIC cannot pin this GPU memory: no peer-memory "
                + "client, or a GPU without GPUDirect RDMA)");
        assertThat(pairs.get(1).dmabuf().reason()).as("an unknown bus id").contains("CUDA_ERROR_INVALID_DEVICE (101)");
        assertThat(pairs.get(2).dmabuf().get()).as("the second HCA refuses DMA-BUF").startsWith("failed: errno 95");
    }

    @Test
    void noLibraryNoCrash() {
        Registration r = RegistrationCalls.run(tmp.resolve("libibverbs.so.1").toString(), tmp.resolve("libcuda.so.1").toString(), List.of());
        assertThat(r.ncclProbe().isError()).isTrue();
    }
}
