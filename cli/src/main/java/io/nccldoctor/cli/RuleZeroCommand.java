package io.nccldoctor.cli;

import io.nccldoctor.core.Snapshots;
import io.nccldoctor.core.capture.Capture;
import io.nccldoctor.core.output.JsonDocument;
import io.nccldoctor.reports.RulesConfig;
import io.nccldoctor.reports.results.ResultInputs;
import io.nccldoctor.reports.results.ResultSet;
import io.nccldoctor.core.Fact;
import io.nccldoctor.reports.rulezero.BaselineReference;
import io.nccldoctor.reports.rulezero.RuleZero;
import io.nccldoctor.reports.rulezero.RuleZeroCharts;
import io.nccldoctor.reports.rulezero.RuleZeroHtml;
import io.nccldoctor.reports.rulezero.RuleZeroMarkdown;
import io.nccldoctor.reports.rulezero.RuleZeroText;
import io.nccldoctor.reports.rulezero.SuspectTable;
import io.nccldoctor.reports.rulezero.Verdict;
import io.nccldoctor.reports.rules.Registry;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "rulezero", mixinStandardHelpOptions = true,
        description = {
            "The rule-zero reference report: is it the hardware or the harness?",
            "",
            "For every measurement of a suspect harness: how its buffer splits into per-peer or per-rank chunks (16-byte "
                + "aligned or not) and what nccl-tests would use instead, its bus bandwidth against nccl-tests at the same "
                + "size and against the physical ceiling from topology, and a verdict: harness artifact, below the ceiling "
                + "in both (look at the fabric), consistent, or no reference. Without nccl-tests, --gpu and --nodes hold "
                + "each size against the published baseline for that hardware (configs/baselines.yaml), and the verdict "
                + "says so: below or at the baseline."},
        footer = {"",
            "SUSPECT: a CSV or JSON table (collective, dtype, count or bytes, ranks, time_us or busbw or algbw; docs/rulezero.md), "
                + "or `nccl-doctor run --json --conditioning none` output. REF: nccl-tests outputs (text or -J), folders or bundles. "
                + "NODE: a capture folder or preflight/topo/gdr --json, for the ceiling.",
            "",
            "Examples:",
            "  nccl-doctor rulezero suspect.csv --reference alltoall_perf.txt",
            "  nccl-doctor rulezero suspect.csv --reference run.json --json      REF: the --json of run --reference",
            "  nccl-doctor rulezero run.json --reference nccl-tests/ --node node17-capture -o rulezero.html",
            "  nccl-doctor rulezero suspect.csv --gpu \"NVIDIA H100 80GB HBM3\" --nodes 1   against the published baseline",
            "  nccl-doctor rulezero configs/examples/field-report-cluster/suspect-alltoall.csv \\",
            "      --reference configs/examples/field-report-cluster/alltoall-nccl-tests.txt \\",
            "      --node configs/examples/field-report-cluster/arrowlake-ws",
            "",
            "Formats by the extension of -o (or --format): html, md, json, png/svg (--chart NAME), txt; --json prints the JSON form. "
                + "-o replaces its own earlier output, any other file only with --force.",
            "",
            "Exit codes: 0 consistent (or no reference), 1 a harness artifact, both below the ceiling, or below the baseline, "
                + "2 bad input, 3 the tool failed."})
final class RuleZeroCommand implements Callable<Integer> {

    private static final Set<OutputFormat> FORMATS = EnumSet.of(OutputFormat.TEXT, OutputFormat.HTML, OutputFormat.MD,
            OutputFormat.JSON, OutputFormat.PNG, OutputFormat.SVG);

    @Mixin
    OutputOptions o;

    @Mixin
    ChartOption chart;

    @Mixin
    RulesOption rules;

    @Parameters(paramLabel = "SUSPECT", description = "The suspect measurements: a CSV/JSON table or `run --json` output.")
    Path suspect;

    @Option(names = "--reference", paramLabel = "REF", description = "nccl-tests outputs on the same sizes (repeat the option or give a folder).")
    List<String> references = new ArrayList<>();

    @Option(names = "--node", paramLabel = "NODE", description = "A node snapshot for the ceiling (capture folder, or preflight/topo/gdr --json).")
    List<String> nodes = new ArrayList<>();

    @Option(names = "--gpu", paramLabel = "NAME", description = "Without --reference: the GPU as nccl-tests names it (\"NVIDIA H100 80GB HBM3\"), "
            + "to hold the numbers against its published baseline.")
    String gpu;

    @Option(names = "--nodes", paramLabel = "N", description = "With --gpu: how many nodes the ranks span (GPUs per node = ranks / N).")
    Integer nodeCount;

    @Option(names = "--baselines", paramLabel = "FILE", description = "Published figures (default: configs/baselines.yaml).")
    Path baselines;

    @Option(names = "--json", description = "Print the rule-zero report as JSON (the form of -o FILE.json).")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        OutputFormat fmt = Outputs.format(o, json, FORMATS, "rulezero");
        Outputs.check(o);
        RulesConfig config = Configs.rules(rules.file, Registry.nodeRules());
        List<String> inputs = new ArrayList<>(references);
        inputs.addAll(nodes);
        ResultSet set = new ResultInputs(dir -> Snapshots.take(Capture.open(dir).host(), Probes.withGpus(), List.of("rulezero"),
                VersionInfo.toolVersion(), Clock.systemUTC())).read(inputs, "");
        BaselineReference baseline = new BaselineReference(BaselineFiles.load(baselines),
                gpu == null ? Fact.absent("no --gpu given") : Fact.of(gpu),
                nodeCount == null ? Fact.absent("no --nodes given") : Fact.of(nodeCount), set.nics().stream().findFirst());
        RuleZero z = RuleZero.of(SuspectTable.parse(suspect), set.sweeps(), set.ceilings(), config.thresholds().results(), baseline);
        byte[] bytes = switch (fmt) {
            case HTML -> Outputs.utf8(RuleZeroHtml.render(z));
            case MD -> Outputs.utf8(RuleZeroMarkdown.render(z));
            case JSON -> Outputs.utf8(JsonDocument.write(z));
            case PNG, SVG -> Outputs.chart(RuleZeroCharts.all(z), chart.name, fmt, 1100, 560, "no chart: no suspect row has a reference");
            default -> Outputs.utf8(RuleZeroText.render(z));
        };
        Outputs.emit(spec.commandLine().getOut(), o, fmt, bytes, "rulezero", z.verdictLine());
        return z.verdict() == Verdict.HARNESS_ARTIFACT || z.verdict() == Verdict.FABRIC || z.verdict() == Verdict.BELOW_BASELINE ? 1 : 0;
    }
}
