package io.nccldoctor.core.libs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A library that does not load keeps the loader's reason; CUDA codes are named with what to do. */
class JnaLoaderTest {

    @Test
    void theReasonIsTheLoadersLineNotJnasHeadline(@TempDir Path dir) throws Exception {
        Path notElf = Files.writeString(dir.resolve("libnccl.so.2"), "not a shared object, only text: ".repeat(8));
        assertThatThrownBy(() -> JnaLoader.open(notElf.toString())).isInstanceOf(UnsatisfiedLinkError.class)
                .hasMessageContaining(notElf + ": invalid ELF header").hasMessageNotContaining("Unable to load library")
                .hasMessageNotContaining("resource path");
        assertThat(JnaLoader.reason(new UnsatisfiedLinkError("Error looking up function 'x'"))).isEqualTo("Error looking up function 'x'");
    }

    @Test
    void aPathThatDoesNotExistSaysSo() {
        assertThat(NativeCalls.intOut("/nonexistent/libnccl.so.2", "ncclGetVersion").reason())
                .startsWith("cannot load /nonexistent/libnccl.so.2: ").contains("No such file or directory");
    }

    @Test
    void cudaCodesAreNamedWithWhatToDo() {
        assertThat(CudaErrors.describe(34)).startsWith("CUDA_ERROR_STUB_LIBRARY (34): the libcuda.so.1 loaded is the CUDA toolkit's stub");
        assertThat(CudaErrors.describe(46)).startsWith("CUDA_ERROR_DEVICE_UNAVAILABLE (46): ");
        assertThat(CudaErrors.describe(804)).startsWith("CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE (804): ");
        assertThat(CudaErrors.describe(35)).as("a runtime API code, not the driver's").isEqualTo("CUDA error (35)");
        assertThat(CudaErrors.describe(912, Optional.of("CUDA_ERROR_INVALID_CLUSTER_SIZE")))
                .isEqualTo("CUDA_ERROR_INVALID_CLUSTER_SIZE (912)");
    }
}
