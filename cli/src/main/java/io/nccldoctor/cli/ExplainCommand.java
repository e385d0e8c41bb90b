package io.nccldoctor.cli;

import io.nccldoctor.core.InputException;
import io.nccldoctor.core.output.JsonDocument;
import io.nccldoctor.reports.RuleInfo;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "explain", mixinStandardHelpOptions = true,
        description = "Prints what a finding code means: the story behind it, the evidence it reads, and the remedy.",
        footer = {"", "Examples:", "  nccl-doctor explain NO_NVIDIA_GPU", "  nccl-doctor explain --list",
            "  nccl-doctor explain GDR_DISABLED_BY_DISTANCE --json", "",
            "Exit codes: 0 the code is known (or the list), 2 no such code."})
final class ExplainCommand implements Callable<Integer> {

    /** The JSON form: the codes asked for (one, or every one with --list). */
    record Explained(int schemaVersion, String kind, List<RuleInfo> codes) {
    }

    @Parameters(arity = "0..1", paramLabel = "CODE", description = "A finding code, as printed by preflight (case does not matter).")
    String code;

    @Option(names = "--list", description = "List every finding code with its default severity and title.")
    boolean list;

    @Option(names = "--json", description = "Print the code (or, with --list, every code) as JSON: code, severity, title, story, "
            + "evidence, remedy.")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        List<RuleInfo> all = RuleCatalog.all();
        List<RuleInfo> shown = list || code == null ? all : List.of(find(all, code));
        if (json) {
            out.print(JsonDocument.write(new Explained(1, "explain", shown)));
        } else if (list || code == null) {
            shown.forEach(i -> out.printf("%-28s %-5s %s%n", i.code(), i.severity().label(), i.title()));
        } else {
            RuleInfo i = shown.get(0);
            out.print(Terminal.show(i.code() + " (" + i.severity().label() + "): " + i.title() + "\n\n"
                    + Wrap.paragraph("What it means: " + i.story(), 100) + "\n\n"
                    + Wrap.paragraph("Evidence read: " + i.evidence(), 100) + "\n\n"
                    + Wrap.paragraph("Remedy: " + i.remedy(), 100) + "\n"));
        }
        out.flush();
        return 0;
    }

    private static RuleInfo find(List<RuleInfo> all, String code) {
        String wanted = code.toUpperCase(Locale.ROOT).replace('-', '_');
        return all.stream().filter(i -> i.code().equals(wanted)).findFirst()
                .orElseThrow(() -> new InputException("explain: no finding code " + code + "; 'nccl-doctor explain --list' lists them"));
    }
}
