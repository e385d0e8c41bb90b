package io.nccldoctor.collectives;

import io.nccldoctor.core.libs.NativeLibrary;

/** The native libraries NCCL work needs: the CUDA runtime, the CUDA driver library and NCCL itself. */
public record Libraries(NativeLibrary cudaRuntime, NativeLibrary cudaDriver, NativeLibrary nccl) {
}
