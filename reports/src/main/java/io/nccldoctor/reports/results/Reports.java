package io.nccldoctor.reports.results;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/** Judges a result set: the node rules over each snapshot, then the pattern detectors over the measured results. */
public final class Reports {

    private Reports() {
    }

    /** The pattern detectors, in the order their findings are shown. One explicit list: no class-path scanning. */
    public static List<ResultRule> resultRules() {
        return List.of(new DataCorruption(), new AbovePhysicalCeiling(), new BelowBaseline(), new RunBelowPeers(), new ConstantCeiling(),
                new LinkLimited(), new FarBelowExpected(), new ProtocolPathology(),
                new AlignmentCliff(), new InPlaceDivergence(), new UnstableResults(), new LinkImbalance(), new SingleRank(),
                new NcclCompletionError(), new NcclIbAsyncFatal(), new NcclIbAsyncEvent(), new NcclWatchdogTimeout(), new NcclSocketNetwork(),
                new NcclNoGdr(), new NcclProcessesDisagree(), new NcclPluginFallback(), new NcclCallFailed(), new NcclWarnLines(), new LibfabricWarn(),
                new AtBaseline(), new PerftestFailed(), new PerftestNoResult(), new NcclTestsRanksAlone(), new NcclTestsErrors());
    }

    /** The node rules only (preflight's judgement as a report: JUnit, Prometheus …). */
    public static Report judgeNodes(ResultSet data, List<Rule> nodeRules, RuleContext context) {
        List<Check> checks = new ArrayList<>();
        for (Snapshot node : data.nodes()) {
            for (Rule r : nodeRules) {
                checks.add(check(r.info(), () -> r.check(node, context), node.hostName(), context));
            }
        }
        return new Report(data, checks, checks.stream().flatMap(c -> c.findings().stream()).toList());
    }

    public static Report judge(ResultSet data, List<Rule> nodeRules, RuleContext context) {
        List<Check> checks = new ArrayList<>();
        for (Snapshot node : data.nodes()) {
            for (Rule r : nodeRules) {
                checks.add(check(r.info(), () -> r.check(node, context), node.hostName(), context));
            }
        }
        for (ResultRule r : resultRules()) {
            checks.add(check(r.info(), () -> r.check(data, context), "results", context));
        }
        List<Finding> findings = checks.stream().flatMap(c -> c.findings().stream()).toList();
        return new Report(data, checks, findings);
    }

    /** One rule on one scope, with the site's disabled list and severity overrides applied. */
    private static Check check(RuleInfo info, Supplier<Outcome> run, String scope, RuleContext context) {
        if (context.config().disabled().contains(info.code())) {
            return new Check(info.code(), info.title(), scope, "disabled in configs/rules.yaml", List.of());
        }
        Outcome o = run.get();
        Severity override = context.config().severity().get(info.code());
        List<Finding> f = o.findings().stream().map(x -> override == null ? x : x.withSeverity(override)).toList();
        return new Check(info.code(), info.title(), scope, o.isWaived() ? o.waivedBecause() : null, f);
    }
}
