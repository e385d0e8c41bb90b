package io.nccldoctor.reports.rules;

import io.nccldoctor.collectives.Libraries;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.KnownIssues;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Sections;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;

/** The NCCL this node loads is in the range of a known issue (configs/known-issues.yaml). */
public final class KnownNcclIssue implements Rule {

    static final RuleInfo INFO = new RuleInfo("KNOWN_NCCL_ISSUE", Severity.WARN,
            "the NCCL this node loads has a known issue",
            "Some NCCL releases carry problems that look like hardware faults: an algorithm choice that leaves "
                    + "3-node allgather at a fifth of allreduce, ranks that never meet because each built its own "
                    + "unique id, a setting read once per process. configs/known-issues.yaml lists them with the "
                    + "affected versions, the symptom, a workaround and the source; workarounds must be re-tested "
                    + "against every new version.",
            "the version ncclGetVersion reports for the libnccl.so.2 on the loader path, against configs/known-issues.yaml",
            "Apply the entry's workaround for the jobs it affects, or move to a release outside its range (and re-test "
                    + "the workaround there).");

    private final KnownIssues table;

    public KnownNcclIssue() {
        this(KnownIssues.atRunTime());
    }

    public KnownNcclIssue(KnownIssues table) {
        this.table = table;
    }

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        var version = Sections.libraries(s).map(Libraries::nccl).map(n -> n.version());
        if (version.isEmpty() || !version.get().isValue()) {
            return Outcome.waived("no NCCL version known (" + version.map(v -> v.reason()).orElse("libraries not probed") + ")");
        }
        String v = version.get().get();
        List<Finding> out = new ArrayList<>();
        for (KnownIssues.Issue i : table.affecting(v)) {
            out.add(new Finding(INFO.code(), INFO.severity(), "NCCL " + v, i.id() + ": " + i.symptom(),
                    List.of("NCCL " + v + " is in the affected range " + i.range(), "source: " + i.source()),
                    i.workaround()));
        }
        return Outcome.flag(out);
    }
}
