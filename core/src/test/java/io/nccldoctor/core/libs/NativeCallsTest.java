package io.nccldoctor.core.libs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The native edge: decoding, and every failure path as a fact (no GPU or NCCL needed). */
class NativeCallsTest {

    @TempDir
    Path tmp;

    @Test
    void ncclVersionCodesOfBothEncodings() {
        assertThat(NativeCalls.ncclVersion(23007)).isEqualTo("2.30.7");
        assertThat(NativeCalls.ncclVersion(22803)).isEqualTo("2.28.3");
        assertThat(NativeCalls.ncclVersion(2708)).as("up to 2.8 the code was X*1000+Y*100+Z").isEqualTo("2.7.8");
        assertThat(NativeCalls.cudaVersion(12040)).isEqualTo("12.4");
        assertThat(NativeCalls.cudaVersion(13000)).isEqualTo("13.0");
    }

    @Test
    void aMissingLibraryIsAnErrorFactNotACrash() {
        var f = NativeCalls.intOut(tmp.resolve("libnccl.so.2").toString(), "ncclGetVersion");
        assertThat(f.isError()).isTrue();
        assertThat(f.reason()).startsWith("cannot load " + tmp.resolve("libnccl.so.2"));
    }

    @Test
    void aMissingSymbolIsAnErrorFact() {
        Path libc = Path.of("/lib/x86_64-linux-gnu/libc.so.6");
        assumeTrue(Files.exists(libc), "needs glibc at its Debian path");
        var f = NativeCalls.intOut(libc.toString(), "ncclGetVersion");
        assertThat(f.isError()).isTrue();
        assertThat(f.reason()).contains("ncclGetVersion");
    }

    /** A stub libnccl.so.2, built here with gcc, answers through the same call path as a real one. */
    @Test
    void aStubNcclAnswersItsVersionCode() throws Exception {
        Path src = tmp.resolve("stub.c");
        Files.writeString(src, "int ncclGetVersion(int *v) { *v = 22803; return 0; }\n"
                + "int cudaRuntimeGetVersion(int *v) { *v = 12040; return 35; }\n");
        Path lib = io.nccldoctor.core.StubLibraries.build(tmp, "libnccl.so.2", Files.readString(src));
        assertThat(NativeCalls.intOut(lib.toString(), "ncclGetVersion").map(NativeCalls::ncclVersion).get()).isEqualTo("2.28.3");
        assertThat(NativeCalls.intOut(lib.toString(), "cudaRuntimeGetVersion").describe())
                .as("a non-zero return code (35, insufficient driver) must not pass the garbage out-param on")
                .isEqualTo("error: cudaRuntimeGetVersion returned 35 in " + lib);
    }
}
