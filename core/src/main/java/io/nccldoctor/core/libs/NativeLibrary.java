package io.nccldoctor.core.libs;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.nccldoctor.core.Fact;
import java.util.List;

/**
 * One native library as a process on this node would find it.
 *
 * @param name     what it is ("NCCL", "CUDA runtime", "CUDA driver")
 * @param sonames  the file names looked for, e.g. libcudart.so.13 and libcudart.so.12
 * @param searched every place looked in, in order, so "not found" can say where
 * @param copies   every copy found; the first one on the loader path is the one a process loads
 */
@JsonIgnoreProperties(value = "version", allowGetters = true)
public record NativeLibrary(String name, List<String> sonames, List<String> searched, List<Copy> copies) {

    /**
     * @param origin       LD_LIBRARY_PATH, ldconfig, default (the loader's trusted folders), cuda (a CUDA toolkit
     *                     folder not on the loader path) or python (a pip wheel's folder)
     * @param onLoaderPath whether dlopen("soname") would find it without extra settings
     * @param fileVersion  the version in the real file's name (libnccl.so.2.28.3 → 2.28.3), when it has one
     * @param version      the version the library reports when asked (ncclGetVersion, cudaRuntimeGetVersion …)
     */
    public record Copy(String path, String realPath, String origin, boolean onLoaderPath, Fact<String> fileVersion,
                       Fact<String> version) {
    }

    /** The version reported by the copy a process would load, or by the first copy when none is on the path. */
    @JsonProperty("version")
    public Fact<String> version() {
        if (copies.isEmpty()) {
            return Fact.absent(name + " not found (" + String.join(", ", sonames) + ")");
        }
        return loaded().orElse(copies.get(0)).version();
    }

    public boolean found() {
        return !copies.isEmpty();
    }

    /** The copy that dlopen(soname) would load, if any. */
    public Fact<Copy> loaded() {
        return copies.stream().filter(Copy::onLoaderPath).findFirst().map(Fact::of)
                .orElseGet(() -> Fact.absent(copies.isEmpty() ? name + " not found"
                        : name + " found only off the loader path (" + copies.get(0).path() + ")"));
    }
}
