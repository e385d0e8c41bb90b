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

/** The NCCL a process would load is older than the site's configured minimum (thresholds.ncclMinimumVersion). */
public final class NcclBelowSiteMinimum implements Rule {

    static final RuleInfo INFO = new RuleInfo("NCCL_BELOW_SITE_MINIMUM", Severity.ERROR,
            "NCCL is older than this site's minimum version",
            "Sites pin a minimum NCCL after a bug costs them a week: 2.27 cached NCCL_COLLNET_ENABLE after its first "
                    + "read until 2.27.5 (NVIDIA/nccl#1741); 2.16-2.21 put a random magic into ids made from "
                    + "NCCL_COMM_ID. The minimum is a policy set in configs/rules.yaml; without one this rule is waived.",
            "the version ncclGetVersion reports for the libnccl.so.2 on the loader path, and thresholds.ncclMinimumVersion",
            "Upgrade NCCL on this node (or in the job's image), or lower the site minimum if the old version is intended.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        var minimum = ctx.config().thresholds().ncclMinimum();
        if (minimum.isEmpty()) {
            return Outcome.waived("no site minimum (thresholds.ncclMinimumVersion in configs/rules.yaml)");
        }
        Fact<String> version = Sections.libraries(s).map(Libraries::nccl).map(n -> n.version())
                .orElse(Fact.absent("the native libraries were not probed"));
        if (!version.isValue()) {
            return Outcome.waived("NCCL version unknown: " + version.reason());
        }
        if (Versions.compare(version.get(), minimum.get()) >= 0) {
            return Outcome.pass();
        }
        return Outcome.flag(finding("libnccl.so.2", "NCCL " + version.get() + " is older than the site minimum "
                + minimum.get(), List.of("ncclGetVersion: " + version.get(), "thresholds.ncclMinimumVersion: " + minimum.get())));
    }
}
