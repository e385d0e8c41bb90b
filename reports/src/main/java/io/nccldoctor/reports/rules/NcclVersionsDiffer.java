package io.nccldoctor.reports.rules;

import io.nccldoctor.collectives.Libraries;
import io.nccldoctor.core.libs.NativeLibrary;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import io.nccldoctor.reports.Sections;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** Several NCCL copies of different versions: which one a job loads depends on how it was started. */
public final class NcclVersionsDiffer implements Rule {

    static final RuleInfo INFO = new RuleInfo("NCCL_VERSIONS_DIFFER", Severity.WARN,
            "more than one NCCL version on this node",
            "PyTorch loads the NCCL of its pip wheel (site-packages/nvidia/nccl/lib), nccl-tests loads whatever the "
                    + "loader finds, and LD_LIBRARY_PATH or a RUNPATH can change either. With two versions present, "
                    + "'the same job' can run two different NCCLs, and an A/B comparison or a fix verified with one "
                    + "proves nothing about the other.",
            "every libnccl.so.2 found, with the version it reports and where it was found",
            "Decide which NCCL jobs should use, remove or pin the others (LD_LIBRARY_PATH, the wheel version), and check "
                    + "what a job really loaded in its NCCL_DEBUG=INFO banner ('NCCL version 2.x.y').");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        var lib = Sections.libraries(s).map(Libraries::nccl);
        if (lib.isEmpty() || lib.get().copies().size() < 2) {
            return Outcome.waived(lib.isEmpty() ? "the native libraries were not probed" : "fewer than two NCCL copies");
        }
        TreeSet<String> versions = new TreeSet<>();
        List<String> evidence = new ArrayList<>();
        for (NativeLibrary.Copy c : lib.get().copies()) {
            String v = c.version().isValue() ? c.version().get() : c.fileVersion().orElse("unknown");
            if (!v.equals("unknown")) {
                versions.add(v);
            }
            evidence.add(c.realPath() + " version " + v + " (" + c.origin() + (c.onLoaderPath() ? ", on the loader path" : "") + ")");
        }
        if (versions.size() < 2) {
            return Outcome.pass();
        }
        return Outcome.flag(finding("libnccl.so.2", "NCCL versions " + String.join(", ", versions) + " on one node", evidence));
    }
}
