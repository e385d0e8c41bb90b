package io.nccldoctor.reports;

import io.nccldoctor.core.Snapshot;

/** Reads facts from a snapshot and judges them. Typed Java, never an expression evaluated from a string. */
public interface Rule {

    RuleInfo info();

    Outcome check(Snapshot snapshot, RuleContext context);

    /** A finding of this rule with its default severity. */
    default Finding finding(String subject, String title, java.util.List<String> evidence) {
        return new Finding(info().code(), info().severity(), subject, title, evidence, info().remedy());
    }
}
