package io.nccldoctor.reports.rules;

import io.nccldoctor.collectives.Libraries;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Sections;
import io.nccldoctor.reports.Severity;
import java.util.List;

/**
 * The CUDA runtime is newer than the CUDA version the driver supports. Across a major version that fails
 * outright (cudaErrorInsufficientDriver, 35); within one major version CUDA's minor-version compatibility lets
 * most programs run, but PTX that needs the newer driver does not JIT, so it is a warning.
 */
public final class CudaDriverTooOld implements Rule {

    static final RuleInfo INFO = new RuleInfo("CUDA_DRIVER_TOO_OLD", Severity.ERROR,
            "the CUDA runtime is newer than the driver supports",
            "cuDriverGetVersion says which CUDA version the installed driver supports; cudaRuntimeGetVersion says which "
                    + "runtime the job loads. A CUDA 13 runtime on a CUDA 12 driver fails every call with "
                    + "cudaErrorInsufficientDriver (35). A newer minor version of the same major usually runs "
                    + "(minor-version compatibility) but cannot JIT PTX built for the newer driver.",
            "the versions reported by libcudart (cudaRuntimeGetVersion) and libcuda.so.1 (cuDriverGetVersion)",
            "Upgrade the driver to one that supports the runtime (see the CUDA release notes' driver table), or use a "
                    + "runtime of the driver's major version (for the JavaCPP presets: build with the CUDA 12 profile).");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        var libs = Sections.libraries(s);
        if (libs.isEmpty()) {
            return Outcome.waived("the native libraries were not probed");
        }
        Libraries l = libs.get();
        Fact<String> runtime = l.cudaRuntime().version();
        Fact<String> driver = l.cudaDriver().version();
        if (!runtime.isValue() || !driver.isValue()) {
            return Outcome.waived("needs both versions: runtime " + runtime.describe() + "; driver " + driver.describe());
        }
        int[] rt = majorMinor(runtime.get());
        int[] dr = majorMinor(driver.get());
        if (rt[0] < dr[0] || (rt[0] == dr[0] && rt[1] <= dr[1])) {
            return Outcome.pass();
        }
        List<String> evidence = List.of("CUDA runtime " + runtime.get() + " (" + l.cudaRuntime().loaded().map(c -> c.realPath()).orElse("off the loader path") + ")",
                "driver supports CUDA " + driver.get());
        if (rt[0] == dr[0]) {
            return Outcome.flag(finding("CUDA", "CUDA runtime " + runtime.get() + " is newer than the driver's CUDA "
                    + driver.get() + " (minor-version compatibility only)", evidence).withSeverity(Severity.WARN));
        }
        return Outcome.flag(finding("CUDA", "CUDA runtime " + runtime.get() + " needs a newer driver than CUDA "
                + driver.get(), evidence));
    }

    private static int[] majorMinor(String version) {
        String[] p = version.split("\\.");
        return new int[] {Integer.parseInt(p[0]), p.length > 1 ? Integer.parseInt(p[1]) : 0};
    }
}
