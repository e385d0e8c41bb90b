package io.nccldoctor.reports.results;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;

/** Wrong elements in any row: a fast result that corrupts data is no result. */
public final class DataCorruption implements ResultRule {

    static final RuleInfo INFO = new RuleInfo("DATA_CORRUPTION", Severity.ERROR,
            "the collective returned wrong elements",
            "With validation on (-c 1, nccl-tests' default), every row counts the elements that differ from the expected "
                    + "result (#wrong). Any count above zero means data was corrupted on the way: a protocol bug (LL128 "
                    + "has a history of them on some platforms and NCCL versions), a NIC or PCIe path that drops or "
                    + "reorders writes, or memory errors. The bandwidth of such a run means nothing.",
            "#wrong of every row, out-of-place and in-place, and nccl-tests' 'Out of bounds values' footer",
            "Rerun the failing size with NCCL_PROTO=Simple and then LL128 to see whether one protocol corrupts; check "
                    + "the NCCL release notes for the version in use; check AER and ECC counters (`nccl-doctor topo`, "
                    + "`nvidia-smi -q -d ECC`).");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(ResultSet results, RuleContext context) {
        List<Finding> found = new ArrayList<>();
        for (Sweep s : results.sweeps()) {
            long total = 0;
            List<String> evidence = new ArrayList<>();
            for (NcclTestsOutput.Row r : s.rows()) {
                long out = r.outOfPlace().wrong().orElse(0L);
                long in = r.inPlace().isValue() ? r.inPlace().get().wrong().orElse(0L) : 0L;
                if (out > 0 || in > 0) {
                    total += out + in;
                    evidence.add(String.format(java.util.Locale.ROOT, "%s (%,d elements %s): #wrong %,d out-of-place, %,d in-place",
                            SweepMath.size(r.sizeBytes()), r.count(), r.type(), out, in));
                }
            }
            if (total == 0) {
                continue;
            }
            String proto = s.env().getOrDefault("NCCL_PROTO", null);
            evidence.add(proto != null ? "protocol pinned: NCCL_PROTO=" + proto
                    : "protocol: NCCL's own choice per size (not pinned; the run's NCCL_DEBUG=INFO log with NCCL_DEBUG_SUBSYS=TUNING says which)");
            evidence.add("source: " + s.source());
            found.add(finding(s.label(), String.format(java.util.Locale.ROOT, "%s returned %,d wrong elements in %d size%s",
                    SweepMath.describe(s), total, evidence.size() - 2, evidence.size() == 3 ? "" : "s"), evidence));
        }
        return Outcome.flag(found);
    }
}
