package io.nccldoctor.reports;

import io.nccldoctor.core.Snapshot;
import java.util.List;

/**
 * The JSON document of {@code preflight --json}: the snapshot, what was expected, the findings, what could not
 * be checked, and a summary whose exitCode is the process's. Documented in docs/snapshot.md.
 */
public record PreflightReport(int schemaVersion, String kind, Snapshot snapshot, NodeShape expected,
                              List<Finding> findings, List<Evaluation.NotChecked> notChecked, List<String> passed,
                              Summary summary) {

    public record Summary(long errors, long warnings, long infos, int exitCode) {
    }

    public static PreflightReport of(Snapshot snapshot, NodeShape expected, Evaluation e) {
        return new PreflightReport(Snapshot.SCHEMA_VERSION, "preflight", snapshot, expected, e.findings(),
                e.notChecked(), e.passed(),
                new Summary(e.count(Severity.ERROR), e.count(Severity.WARN), e.count(Severity.INFO), e.exitCode()));
    }
}
