package io.nccldoctor.collectives.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.collectives.coll.DataType;
import org.junit.jupiter.api.Test;

/** The failure paths that need no GPU: a library that does not load, and one that lacks the symbol called. */
class JnaBackendTest {

    @Test
    void aLibraryThatDoesNotLoadIsAFailureWithTheLoadersMessage() {
        assertThatThrownBy(() -> JnaBackend.singleProcess("/nonexistent/libcuda.so.1", "/nonexistent/libnccl.so.2", new int[] {0}))
                .isInstanceOf(Backend.Failure.class).hasMessageStartingWith("cannot load /nonexistent/libcuda.so.1");
    }

    @Test
    void aMissingSymbolIsAFailureNotACrash() {
        // libc loads, and has neither cuInit nor ncclGetVersion
        assertThatThrownBy(() -> JnaBackend.singleProcess("libc.so.6", "libc.so.6", new int[] {0}))
                .isInstanceOf(Backend.Failure.class).hasMessageContaining("has no ncclGetVersion");
    }

    @Test
    void enumsFollowNcclH() {
        assertThat(NcclCalls.type(DataType.FLOAT32)).isEqualTo(7);
        assertThat(NcclCalls.type(DataType.BFLOAT16)).isEqualTo(9);
        assertThat(NcclCalls.op("avg")).isEqualTo(4);
        assertThat(NcclCalls.op("min")).isEqualTo(3);
    }
}
