package io.nccldoctor.cli;

import io.nccldoctor.core.InputException;
import io.nccldoctor.reports.NetworkCheck;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.rules.Registry;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "explain", mixinStandardHelpOptions = true,
        description = "Prints what a finding code means: the story behind it, the evidence it reads, and the remedy.",
        footer = {"", "Examples:", "  nccl-doctor explain NO_NVIDIA_GPU", "  nccl-doctor explain --list"})
final class ExplainCommand implements Callable<Integer> {

    @Parameters(arity = "0..1", paramLabel = "CODE", description = "A finding code, as printed by preflight (case does not matter).")
    String code;

    @Option(names = "--list", description = "List every finding code with its default severity and title.")
    boolean list;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        List<RuleInfo> all = new java.util.ArrayList<>(Registry.nodeRules().stream().map(Rule::info).toList());
        io.nccldoctor.reports.results.Reports.resultRules().forEach(r -> all.add(r.info()));
        all.add(io.nccldoctor.reports.QuickCheck.FAILED);
        all.add(io.nccldoctor.reports.QuickCheck.SLOW);
        all.addAll(NetworkCheck.infos());
        io.nccldoctor.reports.counters.CounterRules.all().forEach(r -> all.add(r.info()));
        all.addAll(io.nccldoctor.reports.cluster.Cluster.checks());
        if (list || code == null) {
            for (RuleInfo i : all) {
                out.printf("%-28s %-5s %s%n", i.code(), i.severity().label(), i.title());
            }
            return 0;
        }
        String wanted = code.toUpperCase(Locale.ROOT).replace('-', '_');
        Optional<RuleInfo> info = all.stream().filter(i -> i.code().equals(wanted)).findFirst();
        RuleInfo i = info.orElseThrow(() -> new InputException("explain: no finding code " + code + "; 'nccl-doctor explain --list' lists them"));
        out.println(i.code() + " (" + i.severity().label() + "): " + i.title());
        out.println();
        out.println(Wrap.paragraph("What it means: " + i.story(), 100));
        out.println();
        out.println(Wrap.paragraph("Evidence read: " + i.evidence(), 100));
        out.println();
        out.println(Wrap.paragraph("Remedy: " + i.remedy(), 100));
        out.flush();
        return 0;
    }
}
