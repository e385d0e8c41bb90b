package io.nccldoctor.reports.results;

import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Severity;
import java.util.List;

/**
 * One rule applied to one scope: a node's snapshot (scope = its host name) or the measured results (scope =
 * "results"). A JUnit report has one test case per check.
 *
 * @param waivedBecause why the rule did not apply; null when it ran
 * @param findings      what it flagged; empty when it passed or was waived
 */
public record Check(String code, String title, String scope, String waivedBecause, List<Finding> findings) {

    public Check {
        findings = List.copyOf(findings);
    }

    public boolean waived() {
        return waivedBecause != null;
    }

    /** The most severe finding, or null when none. */
    public Severity worst() {
        return findings.stream().map(Finding::severity).max(Enum::compareTo).orElse(null);
    }
}
