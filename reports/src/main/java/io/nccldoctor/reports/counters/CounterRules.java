package io.nccldoctor.reports.counters;

import io.nccldoctor.gdr.CounterDelta;
import io.nccldoctor.reports.Evaluation;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;

/** The counter rules, in the order their findings are shown. One explicit list: no class-path scanning. */
public final class CounterRules {

    private CounterRules() {
    }

    public static List<CounterRule> all() {
        return List.of(
                new Inconsistent(),
                new PfcPauses(),
                new PauseStorm(),
                new EcnWithoutCnpHandling(),
                new OutOfSequence(),
                new Retransmissions(),
                new AckTimeouts(),
                new Discards(),
                new LinkErrors(),
                new RailImbalance());
    }

    public static Evaluation evaluate(CounterDelta delta, RuleContext context) {
        return evaluate(delta, all(), context);
    }

    /** Runs {@code rules} in order, applying the site's disabled list and severity overrides (as Evaluation.of does). */
    public static Evaluation evaluate(CounterDelta delta, List<CounterRule> rules, RuleContext context) {
        List<Finding> findings = new ArrayList<>();
        List<Evaluation.NotChecked> notChecked = new ArrayList<>();
        List<String> passed = new ArrayList<>();
        for (CounterRule rule : rules) {
            RuleInfo info = rule.info();
            if (context.config().disabled().contains(info.code())) {
                notChecked.add(new Evaluation.NotChecked(info.code(), info.title(), "disabled in configs/rules.yaml"));
                continue;
            }
            Outcome outcome = rule.check(delta, context);
            if (outcome.isWaived()) {
                notChecked.add(new Evaluation.NotChecked(info.code(), info.title(), outcome.waivedBecause()));
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
}
