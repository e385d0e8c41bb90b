package io.nccldoctor.cli;

import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import io.nccldoctor.core.Snapshots;
import io.nccldoctor.core.capture.Capture;
import io.nccldoctor.reports.RulesConfig;
import io.nccldoctor.reports.results.ResultInputs;
import io.nccldoctor.reports.results.ResultSet;
import io.nccldoctor.core.Fact;
import io.nccldoctor.reports.rulezero.BaselineReference;
import io.nccldoctor.reports.rulezero.RuleZero;
import io.nccldoctor.reports.rulezero.RuleZeroCharts;
import io.nccldoctor.reports.rulezero.RuleZeroHtml;
import io.nccldoctor.reports.rulezero.RuleZeroMarkdown;
import io.nccldoctor.reports.rulezero.SuspectTable;
import io.nccldoctor.reports.rulezero.Verdict;
import io.nccldoctor.reports.rules.Registry;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
            "  nccl-doctor rulezero run.json --reference nccl-tests/ --node node17-capture -o rulezero.html",
            "  nccl-doctor rulezero suspect.csv --gpu \"NVIDIA H100 80GB HBM3\" --nodes 1   against the published baseline",
            "  nccl-doctor rulezero configs/examples/field-report-cluster/suspect-alltoall.csv \\",
            "      --reference configs/examples/field-report-cluster/alltoall-nccl-tests.txt --node configs/examples/field-report-cluster/arrowlake-ws",
            "",
            "Formats by the extension of -o: html, md, json, png/svg (--chart NAME), txt. Exit codes: 0 consistent (or no reference), "
                + "1 a harness artifact, both below the ceiling, or below the baseline, 2 bad input."})
final class RuleZeroCommand implements Callable<Integer> {

    @Mixin
    OutputOptions o;

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

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        String fmt = ReportCommand.format(o.format, o.output);
        if (fmt.equals("junit") || fmt.equals("prom")) {
            throw new InputException("--format " + fmt + ": rulezero writes html, md, json, png, svg or txt");
        }
        Outputs.refuseOverwrite(o.output, o.force);
        RulesConfig config = Configs.rules(o.rulesFile, Registry.nodeRules());
        List<String> inputs = new ArrayList<>(references);
        inputs.addAll(nodes);
        ResultSet set = new ResultInputs(dir -> Snapshots.take(Capture.open(dir).host(), Probes.withGpus(), List.of("rulezero"),
                VersionInfo.toolVersion(), Clock.systemUTC())).read(inputs, "");
        BaselineReference baseline = new BaselineReference(BaselineFiles.load(baselines),
                gpu == null ? Fact.absent("no --gpu given") : Fact.of(gpu),
                nodeCount == null ? Fact.absent("no --nodes given") : Fact.of(nodeCount), set.nics().stream().findFirst());
        RuleZero z = RuleZero.of(SuspectTable.parse(suspect), set.sweeps(), set.ceilings(), config.thresholds().results(), baseline);
        PrintWriter out = spec.commandLine().getOut();
        byte[] bytes = switch (fmt) {
            case "html" -> utf8(RuleZeroHtml.render(z));
            case "md" -> utf8(RuleZeroMarkdown.render(z));
            case "json" -> utf8(Json.write(z));
            case "png", "svg" -> Outputs.chart(RuleZeroCharts.all(z), o.chart, fmt, 1100, 560, "no chart: no suspect row has a reference");
            default -> utf8(text(z));
        };
        Outputs.emit(out, o.output, fmt, bytes, z.verdictLine());
        return z.verdict() == Verdict.HARNESS_ARTIFACT || z.verdict() == Verdict.FABRIC || z.verdict() == Verdict.BELOW_BASELINE ? 1 : 0;
    }

    /** The verdict first, then a line per measurement. */
    static String text(RuleZero z) {
        StringBuilder s = new StringBuilder("nccl-doctor rulezero: " + z.verdictLine() + "\n\n");
        for (var j : z.rows()) {
            s.append(String.format(Locale.ROOT, "  %-16s %-10s %14s B  %s: %s%n", j.suspect().collective(), j.suspect().dtype(),
                    String.format(Locale.ROOT, "%,d", j.suspect().bytes()), j.verdict(), j.why()));
        }
        s.append("\nThe audit and the chart: -o FILE.md or FILE.html\n");
        return s.toString();
    }

    private static byte[] utf8(String s) {
        return Outputs.utf8(s);
    }
}
