package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.GdrLevel;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.List;

/** NCCL_NET_GDR_LEVEL set to a value NCCL silently ignores (lower case, a typo). */
public final class GdrLevelIgnored implements Rule {

    static final RuleInfo INFO = new RuleInfo("NCCL_GDR_LEVEL_IGNORED", Severity.WARN,
            "NCCL_NET_GDR_LEVEL has a value NCCL ignores",
            "NCCL compares the value case-sensitively with its path type names (LOC, NVL, NVB, C2C, PIX, PXB, P2C, PXN, "
                    + "PHB, SYS, depending on the version) and otherwise accepts only a number (legacy 0-4). 'phb' or "
                    + "'Phb' matches nothing and is dropped without a log line: the default PXB applies, and GPUDirect "
                    + "RDMA stays off for the pairs the setting was meant to enable (nccl-internals §4.1).",
            "the NCCL_NET_GDR_LEVEL of the environment and the NCCL version's path type names",
            "Write the level in upper case (NCCL_NET_GDR_LEVEL=PHB) or as a legacy number (3 = PHB).");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        String raw = s.env().get("NCCL_NET_GDR_LEVEL");
        if (raw == null) {
            return Outcome.waived("NCCL_NET_GDR_LEVEL is not set");
        }
        String version = GpuNicPaths.topology(s, ctx).map(t -> t.ncclVersion()).orElse(io.nccldoctor.pcie.NcclPathTypes.NEWEST);
        GdrLevel level = GdrLevel.parse(raw, version);
        if (level.ignored() == null) {
            return Outcome.pass();
        }
        return Outcome.flag(finding("NCCL_NET_GDR_LEVEL", "NCCL_NET_GDR_LEVEL=" + raw + " is ignored by NCCL " + version,
                List.of(level.ignored(), "NCCL uses " + level.source())));
    }
}
