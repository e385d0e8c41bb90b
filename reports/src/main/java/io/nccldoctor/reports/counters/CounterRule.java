package io.nccldoctor.reports.counters;

import io.nccldoctor.gdr.CounterDelta;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.List;

/** Judges what a run did to the fabric counters, as {@link io.nccldoctor.reports.Rule} judges a snapshot. */
public interface CounterRule {

    RuleInfo info();

    Outcome check(CounterDelta delta, RuleContext context);

    /** A finding of this rule with its default severity. */
    default Finding finding(String subject, String title, List<String> evidence) {
        return new Finding(info().code(), info().severity(), subject, title, evidence, info().remedy());
    }

    /** A finding at another severity than the rule's default (a storm warning rather than a storm error). */
    default Finding finding(Severity severity, String subject, String title, List<String> evidence) {
        return new Finding(info().code(), severity, subject, title, evidence, info().remedy());
    }
}
