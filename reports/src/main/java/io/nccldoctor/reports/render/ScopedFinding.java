package io.nccldoctor.reports.render;

import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.results.Check;
import io.nccldoctor.reports.results.Report;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A finding with the scope of the check that raised it (a host name or "results"). A finding carries no scope of
 * its own; it is matched to the first unclaimed equal finding of a check, in the report's order (errors first).
 *
 * @param scope the check's scope; empty when no check holds the finding
 */
record ScopedFinding(Optional<String> scope, Finding finding) {

    static List<ScopedFinding> of(Report r) {
        Map<Finding, Deque<String>> scopes = new HashMap<>();
        for (Check c : r.checks()) {
            for (Finding f : c.findings()) {
                scopes.computeIfAbsent(f, k -> new ArrayDeque<>()).add(c.scope());
            }
        }
        return r.findings().stream()
                .map(f -> new ScopedFinding(Optional.ofNullable(scopes.getOrDefault(f, new ArrayDeque<>()).poll()), f))
                .toList();
    }
}
