package io.nccldoctor.collectives;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.TestHosts;
import io.nccldoctor.core.libs.LibrarySearch;
import io.nccldoctor.core.libs.NativeLibrary;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LibrarySearchTest {

    @TempDir
    Path root;

    private static String ldconfigFixture() throws IOException {
        try (InputStream in = LibrarySearchTest.class.getResourceAsStream("/fixtures/ldconfig/build-vm.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void theBuildVmHasACudaRuntimeButNoDriverAndNoNccl() throws IOException {
        var host = TestHosts.at(root)
                .file("/usr/local/cuda-13.0/lib/libcudart.so.13", "")
                .stdout(LibrarySearch.LDCONFIG, ldconfigFixture())
                .nativeAnswer("cudaRuntimeGetVersion:/usr/local/cuda-13.0/lib/libcudart.so.13", Fact.of(13000))
                .host();
        Libraries libs = new LibrariesProbe().run(host);
        assertThat(libs.cudaRuntime().loaded().get().realPath()).isEqualTo("/usr/local/cuda-13.0/lib/libcudart.so.13");
        assertThat(libs.cudaRuntime().loaded().get().origin()).isEqualTo("ldconfig");
        assertThat(libs.cudaRuntime().version().get()).isEqualTo("13.0");
        assertThat(libs.cudaDriver().found()).isFalse();
        assertThat(libs.cudaDriver().version().describe()).isEqualTo("absent: CUDA driver not found (libcuda.so.1)");
        assertThat(libs.nccl().found()).isFalse();
        assertThat(libs.nccl().searched()).anyMatch(s -> s.startsWith("LD_LIBRARY_PATH (unset)"));
    }

    @Test
    void ldLibraryPathComesFirstAndWheelCopiesAreOffTheLoaderPath() {
        String wheel = "/opt/venv/lib/python3.12/site-packages/nvidia/nccl/lib";
        var host = TestHosts.at(root)
                .file("/opt/nccl-2.30.7/lib/libnccl.so.2.30.7", "")
                .link("/opt/nccl-2.30.7/lib/libnccl.so.2", "libnccl.so.2.30.7")
                .file("/usr/lib/x86_64-linux-gnu/libnccl.so.2.28.3", "")
                .link("/usr/lib/x86_64-linux-gnu/libnccl.so.2", "libnccl.so.2.28.3")
                .file(wheel + "/libnccl.so.2", "")
                .env("LD_LIBRARY_PATH", "/opt/nccl-2.30.7/lib:relative/ignored")
                .env("VIRTUAL_ENV", "/opt/venv")
                .stdout(LibrarySearch.LDCONFIG, "\tlibnccl.so.2 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libnccl.so.2\n")
                .nativeAnswer("ncclGetVersion:/opt/nccl-2.30.7/lib/libnccl.so.2.30.7", Fact.of(23007))
                .nativeAnswer("ncclGetVersion:/usr/lib/x86_64-linux-gnu/libnccl.so.2.28.3", Fact.of(22803))
                .nativeAnswer("ncclGetVersion:" + wheel + "/libnccl.so.2", Fact.of(22705))
                .host();
        NativeLibrary nccl = new LibrariesProbe().run(host).nccl();
        assertThat(nccl.copies()).extracting(NativeLibrary.Copy::origin).containsExactly("LD_LIBRARY_PATH", "ldconfig", "python");
        assertThat(nccl.copies()).extracting(c -> c.version().get()).containsExactly("2.30.7", "2.28.3", "2.27.5");
        assertThat(nccl.copies().get(0).fileVersion().get()).isEqualTo("2.30.7");
        assertThat(nccl.copies().get(2).onLoaderPath()).isFalse();
        assertThat(nccl.copies().get(2).fileVersion().isAbsent()).as("pip wheels ship libnccl.so.2 without a version suffix").isTrue();
        assertThat(nccl.version().get()).as("the loader picks LD_LIBRARY_PATH first").isEqualTo("2.30.7");
    }

    @Test
    void aCopyOnlyInAWheelIsFoundButNotLoaded() {
        var host = TestHosts.at(root)
                .file("/usr/local/lib/python3.10/dist-packages/nvidia/nccl/lib/libnccl.so.2", "")
                .host();
        NativeLibrary nccl = new LibrariesProbe().run(host).nccl();
        assertThat(nccl.found()).isTrue();
        assertThat(nccl.loaded().reason()).startsWith("NCCL found only off the loader path");
        assertThat(nccl.searched()).anyMatch(s -> s.contains("/usr/local/lib/python3.10/dist-packages"));
    }
}
