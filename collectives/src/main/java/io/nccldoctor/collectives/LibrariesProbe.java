package io.nccldoctor.collectives;

import io.nccldoctor.core.Host;
import io.nccldoctor.core.Probe;
import io.nccldoctor.core.libs.LibrarySearch;
import io.nccldoctor.core.libs.NativeCalls;
import io.nccldoctor.core.libs.NativeLibrary;
import java.util.List;
import java.util.function.IntFunction;

/** Finds the CUDA runtime, the CUDA driver library and NCCL, and asks each loadable one for its version. */
public final class LibrariesProbe implements Probe<Libraries> {

    public static final String KEY = "libraries";
    /** The 13.x presets need libcudart.so.13; many clusters still run CUDA 12 (java-deps §1). */
    static final List<String> CUDART = List.of("libcudart.so.13", "libcudart.so.12");
    static final List<String> CUDA_DRIVER = List.of("libcuda.so.1");
    static final List<String> NCCL = List.of("libnccl.so.2");

    @Override
    public String key() {
        return KEY;
    }

    @Override
    public String description() {
        return "CUDA runtime, CUDA driver library and NCCL: where they are and which version they report";
    }

    @Override
    public Libraries run(Host host) {
        LibrarySearch search = new LibrarySearch(host);
        return new Libraries(
                withVersion(host, search.find("CUDA runtime", CUDART), "cudaRuntimeGetVersion", NativeCalls::cudaVersion),
                withVersion(host, search.find("CUDA driver", CUDA_DRIVER), "cuDriverGetVersion", NativeCalls::cudaVersion),
                withVersion(host, search.find("NCCL", NCCL), "ncclGetVersion", NativeCalls::ncclVersion));
    }

    /** Asks every copy for its version, through the host's natives (so a capture records the answers). */
    private static NativeLibrary withVersion(Host host, NativeLibrary lib, String function, IntFunction<String> decode) {
        List<NativeLibrary.Copy> asked = lib.copies().stream().map(c -> new NativeLibrary.Copy(c.path(), c.realPath(),
                c.origin(), c.onLoaderPath(), c.fileVersion(),
                host.natives().query(function + ":" + c.realPath(), Integer.class,
                        () -> NativeCalls.intOut(c.realPath(), function)).map(decode::apply))).toList();
        return new NativeLibrary(lib.name(), lib.sonames(), lib.searched(), asked);
    }
}
