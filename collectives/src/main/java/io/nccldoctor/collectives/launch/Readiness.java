package io.nccldoctor.collectives.launch;

import io.nccldoctor.collectives.Libraries;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.libs.NativeLibrary;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a native NCCL run on this node lacks, one line per missing piece with the loader's or the driver's reason:
 * the CUDA driver library, NCCL, and enough GPUs. Shared by `run`, `sweep`, the sweep's children and
 * `preflight --quick`.
 */
public final class Readiness {

    private Readiness() {
    }

    /**
     * @param gpus   how many GPUs the CUDA driver sees, or why that is unknown
     * @param needed the highest device ordinal this process will open, plus one (local rank × -g + -g)
     * @param env    for CUDA_VISIBLE_DEVICES in the message
     */
    public static List<String> missing(Libraries libs, Fact<Integer> gpus, int needed, Map<String, String> env) {
        List<String> missing = new ArrayList<>();
        lib(libs.cudaDriver(), "the CUDA driver library libcuda.so.1", missing);
        lib(libs.nccl(), "NCCL (libnccl.so.2)", missing);
        String visible = "CUDA_VISIBLE_DEVICES=" + env.getOrDefault("CUDA_VISIBLE_DEVICES", "unset");
        if (!gpus.isValue()) {
            missing.add("a GPU: " + gpus.reason());
        } else if (gpus.get() == 0) {
            missing.add("a GPU: the CUDA driver sees none (" + visible + ")");
        } else if (gpus.get() < needed) {
            missing.add(needed + " GPUs: this process would open device " + (needed - 1) + ", the CUDA driver sees " + gpus.get()
                    + " (" + visible + "; -g GPUs per process after those of lower local ranks)");
        }
        return missing;
    }

    private static void lib(NativeLibrary lib, String what, List<String> missing) {
        Fact<NativeLibrary.Copy> loaded = lib.loaded();
        if (!loaded.isValue()) {
            String searched = String.join(", ", lib.searched().stream().map(w -> w.replaceAll(" /\\S+", "")).toList());
            missing.add(what + ": " + loaded.reason() + (lib.found() ? "" : " (searched " + searched + ")"));
        } else if (!loaded.get().version().isValue()) {
            missing.add(what + ": found at " + loaded.get().realPath() + " but it does not load: " + loaded.get().version().reason());
        }
    }
}
