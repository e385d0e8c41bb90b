package io.nccldoctor.cli;

import io.nccldoctor.reports.NetworkCheck;
import io.nccldoctor.reports.QuickCheck;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.cluster.Cluster;
import io.nccldoctor.reports.counters.CounterRules;
import io.nccldoctor.reports.results.Reports;
import io.nccldoctor.reports.rules.Registry;
import java.util.ArrayList;
import java.util.List;

/** Every finding code any verb can report, in the order explain --list shows them: one configs/rules.yaml serves them all. */
final class RuleCatalog {

    private RuleCatalog() {
    }

    static List<RuleInfo> all() {
        List<RuleInfo> all = new ArrayList<>(Registry.nodeRules().stream().map(Rule::info).toList());
        Reports.resultRules().forEach(r -> all.add(r.info()));
        all.add(QuickCheck.FAILED);
        all.add(QuickCheck.SLOW);
        all.addAll(NetworkCheck.infos());
        CounterRules.all().forEach(r -> all.add(r.info()));
        all.addAll(Cluster.checks());
        return all;
    }
}
