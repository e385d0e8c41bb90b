package io.nccldoctor.reports.rules;

import io.nccldoctor.collectives.Libraries;
import io.nccldoctor.core.libs.NativeLibrary;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Sections;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;

/** NVIDIA GPUs present but libcuda.so.1, the driver's user-space library, is not where the loader looks. */
public final class CudaDriverLibraryMissing implements Rule {

    static final RuleInfo INFO = new RuleInfo("CUDA_DRIVER_LIBRARY_MISSING", Severity.ERROR,
            "NVIDIA GPUs present but libcuda.so.1 is not on the loader path",
            "libcuda.so.1 ships with the driver, not with the CUDA toolkit or a pip wheel. Without it every CUDA "
                    + "program, PyTorch and NCCL included, fails at its first call with 'CUDA driver version is "
                    + "insufficient' or 'libcuda.so.1: cannot open shared object file'. Containers get it from the "
                    + "NVIDIA container toolkit; on the host it comes from the driver package.",
            "the CUDA driver library search: LD_LIBRARY_PATH, the ldconfig cache and the loader's default folders",
            "Install the driver's user-space package matching the kernel module (e.g. libnvidia-compute-NNN), run "
                    + "ldconfig, or in a container start it with the NVIDIA runtime (--gpus / nvidia-container-toolkit).");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        if (!NodeFacts.hasGpu(s)) {
            return Outcome.waived("no NVIDIA GPU");
        }
        var lib = Sections.libraries(s).map(Libraries::cudaDriver);
        if (lib.isEmpty()) {
            return Outcome.waived("the native libraries were not probed");
        }
        NativeLibrary driver = lib.get();
        if (driver.loaded().isValue()) {
            return Outcome.pass();
        }
        List<String> evidence = new ArrayList<>();
        evidence.add(driver.loaded().reason());
        driver.searched().forEach(p -> evidence.add("searched: " + p));
        return Outcome.flag(finding("libcuda.so.1", INFO.title(), evidence));
    }
}
