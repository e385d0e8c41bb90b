package io.nccldoctor.reports;

import io.nccldoctor.core.Snapshot;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules' verdict on one snapshot: findings, plus what could not be checked and why.
 *
 * @param notChecked one entry per waived rule
 * @param passed     codes of the rules that ran and found nothing
 */
public record Evaluation(List<Finding> findings, List<NotChecked> notChecked, List<String> passed) {

    public record NotChecked(String code, String title, String reason) {
    }

    public Evaluation {
        findings = List.copyOf(findings);
        notChecked = List.copyOf(notChecked);
        passed = List.copyOf(passed);
    }

    /** Runs {@code rules} in order, applying the site's disabled list and severity overrides. */
    public static Evaluation of(Snapshot snapshot, List<Rule> rules, RuleContext context) {
        List<Finding> findings = new ArrayList<>();
        List<NotChecked> notChecked = new ArrayList<>();
        List<String> passed = new ArrayList<>();
        for (Rule rule : rules) {
            RuleInfo info = rule.info();
            if (context.config().disabled().contains(info.code())) {
                notChecked.add(new NotChecked(info.code(), info.title(), "disabled in configs/rules.yaml"));
                continue;
            }
            Outcome outcome = rule.check(snapshot, context);
            if (outcome.isWaived()) {
                notChecked.add(new NotChecked(info.code(), info.title(), outcome.waivedBecause()));
            } else if (outcome.findings().isEmpty()) {
                passed.add(info.code());
            }
            Severity override = context.config().severity().get(info.code());
            for (Finding f : outcome.findings()) {
                findings.add(override == null ? f : f.withSeverity(override));
            }
        }
        return new Evaluation(findings, notChecked, passed);
    }

    public long count(Severity s) {
        return findings.stream().filter(f -> f.severity() == s).count();
    }

    /** 1 when any finding is at error level, else 0 (DESIGN.md: exit codes). */
    public int exitCode() {
        return count(Severity.ERROR) > 0 ? ExitCodes.FINDINGS : ExitCodes.OK;
    }
}
