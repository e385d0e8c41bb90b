package io.nccldoctor.reports.results;

import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import java.util.List;

/** Judges measured results (sweeps, ceilings, traffic), as {@link io.nccldoctor.reports.Rule} judges a snapshot. */
public interface ResultRule {

    RuleInfo info();

    Outcome check(ResultSet results, RuleContext context);

    default Finding finding(String subject, String title, List<String> evidence) {
        return new Finding(info().code(), info().severity(), subject, title, evidence, info().remedy());
    }
}
