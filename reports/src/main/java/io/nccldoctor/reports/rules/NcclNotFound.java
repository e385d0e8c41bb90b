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

/** A GPU node where no libnccl.so.2 can be found at all. */
public final class NcclNotFound implements Rule {

    static final RuleInfo INFO = new RuleInfo("NCCL_NOT_FOUND", Severity.WARN,
            "no NCCL library found on this GPU node",
            "Neither the loader (LD_LIBRARY_PATH, ldconfig cache, default folders) nor the usual pip wheel folders "
                    + "(site-packages/nvidia/nccl/lib) hold libnccl.so.2. A job that brings its own NCCL (a container, a "
                    + "virtual environment not active here) is unaffected, which is why this is a warning; but "
                    + "nccl-tests and the collective checks of this tool cannot run.",
            "the NCCL library search and the places it looked",
            "Install NCCL (the libnccl2 package, or `pip install nvidia-nccl-cu13` / -cu12 in the job's environment), "
                    + "or run preflight inside the job's container or virtual environment.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        if (!NodeFacts.hasGpu(s)) {
            return Outcome.waived("no NVIDIA GPU");
        }
        var lib = Sections.libraries(s).map(Libraries::nccl);
        if (lib.isEmpty()) {
            return Outcome.waived("the native libraries were not probed");
        }
        NativeLibrary nccl = lib.get();
        if (nccl.found()) {
            return Outcome.pass();
        }
        List<String> evidence = new ArrayList<>();
        nccl.searched().forEach(p -> evidence.add("searched: " + p));
        return Outcome.flag(finding("libnccl.so.2", INFO.title(), evidence));
    }
}
