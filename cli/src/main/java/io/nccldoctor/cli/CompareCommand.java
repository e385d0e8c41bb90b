package io.nccldoctor.cli;

import io.nccldoctor.core.output.JsonDocument;
import io.nccldoctor.reports.RulesConfig;
import io.nccldoctor.reports.chart.Chart;
import io.nccldoctor.reports.compare.ArmInput;
import io.nccldoctor.reports.compare.CompareCharts;
import io.nccldoctor.reports.compare.CompareHtml;
import io.nccldoctor.reports.compare.CompareMarkdown;
import io.nccldoctor.reports.compare.CompareText;
import io.nccldoctor.reports.compare.Comparison;
import io.nccldoctor.reports.compare.Verdict;
import io.nccldoctor.reports.rules.Registry;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {
            "A/B of two result sets: did B help, where, and is it real.",
            "",
            "Per collective, size and environment: the median ratio B/A of the out-of-place bus bandwidth, a bootstrap "
                + "95 %% interval, an exact Mann-Whitney p-value, and a verdict (faster, slower, no detectable change, not "
                + "tested with fewer than 3 runs per arm), with thresholds in configs/rules.yaml (thresholds.compare); "
                + "then a line per collective saying where it changed. Runs on different size grids are compared at each "
                + "other's sizes, read between a run's own neighbours in log2(size); the output says which. What NCCL decided "
                + "in each arm (transports, algorithm/protocol, GPU Direct RDMA) follows, from the NCCL logs in its inputs."},
        footer = {"",
            "A and B: a sweep result (JSONL) or one arm of it (FILE#ARM), nccl-tests outputs (text or -J; a file, a folder, or "
                + "several files with --a and --b), `run --json` outputs, or a report bundle. With one sweep result that holds "
                + "two arms: compare RESULTS.jsonl.",
            "",
            "Examples:",
            "  nccl-doctor compare ab.jsonl                           the two arms of an A/B sweep",
            "  nccl-doctor compare ab.jsonl#a ab.jsonl#b -o ab.html",
            "  nccl-doctor compare runs-2.28/ runs-2.30.7/ -o ab.md    folders of nccl-tests outputs",
            "  nccl-doctor compare --a r1.txt r2.txt r3.txt --b s1.txt s2.txt s3.txt --json",
            "",
            "Formats by the extension of -o (or --format): html, md, json, png/svg (--chart NAME, --list-charts), txt; --json "
                + "prints the JSON form. -o replaces its own earlier output, any other file only with --force.",
            "",
            "Exit codes: 0 B is nowhere slower, 1 B is slower somewhere (a regression), 2 bad input, 3 the tool failed."})
final class CompareCommand implements Callable<Integer> {

    private static final Set<OutputFormat> FORMATS = EnumSet.of(OutputFormat.TEXT, OutputFormat.HTML, OutputFormat.MD,
            OutputFormat.JSON, OutputFormat.PNG, OutputFormat.SVG);

    @Mixin
    OutputOptions o;

    @Mixin
    ChartOption chart;

    @Mixin
    RulesOption rules;

    @Parameters(arity = "0..2", paramLabel = "A B", description = "The two result sets (or one sweep result with two arms).")
    List<String> inputs = new ArrayList<>();

    @Option(names = "--a", arity = "1..*", paramLabel = "FILE", description = "Arm A as several inputs: files or folders.")
    List<String> armA = new ArrayList<>();

    @Option(names = "--b", arity = "1..*", paramLabel = "FILE", description = "Arm B as several inputs: files or folders.")
    List<String> armB = new ArrayList<>();

    @Option(names = "--json", description = "Print the comparison as JSON (the form of -o FILE.json).")
    boolean json;

    @Option(names = "--list-charts", description = "Name the charts, and stop.")
    boolean listCharts;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        OutputFormat fmt = Outputs.format(o, json, FORMATS, "compare");
        Outputs.check(o);
        RulesConfig config = Configs.rules(rules.file, Registry.nodeRules());
        List<ArmInput> arms = ArmInput.resolve(inputs, armA, armB);
        Comparison c = Comparison.of(arms.get(0), arms.get(1), config.thresholds().compare());
        boolean regression = c.rows().stream().anyMatch(r -> r.verdict() == Verdict.SLOWER);
        PrintWriter out = spec.commandLine().getOut();
        Map<String, ? extends Chart> charts = CompareCharts.all(c);
        if (listCharts) {
            charts.keySet().forEach(out::println);
            out.flush();
            return 0;
        }
        byte[] bytes = switch (fmt) {
            case HTML -> Outputs.utf8(CompareHtml.render(c));
            case MD -> Outputs.utf8(CompareMarkdown.render(c));
            case JSON -> Outputs.utf8(JsonDocument.write(c));
            case PNG, SVG -> Outputs.chart(charts, chart.name, fmt, 1100, 560, "no chart: the two sets share no collective and size");
            default -> Outputs.utf8(CompareText.render(c));
        };
        Outputs.emit(out, o, fmt, bytes, "compare", "");
        if (o.output != null) {
            c.summaries().forEach(s -> out.println("  " + s.line()));
            out.flush();
        }
        return regression ? 1 : 0;
    }
}
