package io.nccldoctor.cli;

import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Snapshots;
import io.nccldoctor.core.capture.Capture;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RulesConfig;
import io.nccldoctor.reports.chart.Chart;
import io.nccldoctor.reports.results.Report;
import io.nccldoctor.reports.results.ReportCharts;
import io.nccldoctor.reports.results.Reports;
import io.nccldoctor.reports.results.ResultInputs;
import io.nccldoctor.reports.results.ResultSet;
import io.nccldoctor.reports.rules.Registry;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "report", mixinStandardHelpOptions = true,
        description = {
            "Judges measured results and renders them: the verdict, findings with evidence and remedy, charts.",
            "",
            "INPUT is any of: nccl-tests output (text, or the -J JSON file), or a folder of them; `nccl-doctor run --json` "
                + "output; NCCL_DEBUG=INFO logs (with or without NCCL's line prefix); nvidia-smi topo -m or -p2p, lspci -tv "
                + "or -vvv text and NCCL's topology XML of the machine; perftest runs; pasted RDMA state (ibv_devinfo, "
                + "ibstat, show_gids, ibdev2netdev, mlnx_qos, ethtool -S; `nccl-doctor parse --help` lists every kind); the --json of "
                + "preflight, topo or gdr, or a capture folder (`nccl-doctor capture DIR`), for the node facts the "
                + "ceilings come from; a bundle folder whose report.yaml names all of these with labels, NCCL_* settings, a "
                + "perftest matrix, extra ceilings and per-link traffic (docs/report.md).",
            "",
            "Each run is judged against the published figure for its hardware (configs/baselines.yaml: GPU model, GPUs per "
                + "node, NICs, read from the input), against what its links can physically carry, and against the other runs "
                + "of the same hardware given with it.",
            "",
            "The pattern detectors (nccl-doctor explain --list) look for a constant ceiling, a plateau at a narrow link, "
                + "a sweep far below its ceiling, wrong elements, one collective far below allreduce that a pinned protocol "
                + "lifts, misaligned sizes that fall off a cliff, in-place against out-of-place, repeated runs that scatter, "
                + "uneven link traffic, and single-rank runs; thresholds in configs/rules.yaml."},
        footer = {"",
            "Formats (from the extension of -o, or --format): html (one self-contained file), md (Markdown for a ticket), "
                + "json, xml (JUnit, a test case per check), prom (Prometheus textfile, docs/metrics.md), png or svg "
                + "(one chart, --chart NAME), txt. Without -o: the terminal form on stdout; --json prints the JSON form. "
                + "-o replaces its own earlier output, any other file only with --force (docs/outputs.md).",
            "",
            "Examples:",
            "  nccl-doctor report all_reduce.txt all_gather.txt",
            "  nccl-doctor report run.json --json",
            "  nccl-doctor report configs/examples/field-report-cluster -o example.html",
            "  nccl-doctor report run.json node1-capture -o results.xml",
            "  nccl-doctor report configs/examples/field-report-cluster --list-charts",
            "  nccl-doctor report configs/examples/field-report-cluster -o busbw.svg --chart busbw",
            "",
            "Exit codes: 0 no error-level finding, 1 an error-level finding, 2 bad usage or input, 3 the tool failed."})
final class ReportCommand implements Callable<Integer> {

    @Mixin
    OutputOptions o;

    @Mixin
    ChartOption chart;

    @Mixin
    RulesOption rules;

    @Parameters(arity = "1..*", paramLabel = "INPUT", description = "Result files, snapshots, capture folders or bundles.")
    List<String> inputs;

    @Option(names = "--json", description = "Print the report as JSON (the form of -o FILE.json).")
    boolean json;

    @Option(names = "--list-charts", description = "Name the charts these inputs give, and stop.")
    boolean listCharts;

    @Option(names = "--size", paramLabel = "WxH", defaultValue = "1100x560", description = "For png and svg: pixels. Default: ${DEFAULT-VALUE}.")
    String size;

    @Option(names = "--baselines", paramLabel = "FILE", description = "Published figures to judge against (default: configs/baselines.yaml).")
    Path baselines;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        OutputFormat fmt = Outputs.format(o, json, OutputFormat.ALL, "report");
        Outputs.check(o);
        RulesConfig config = Configs.rules(rules.file, Registry.nodeRules());
        ResultSet data;
        try (Progress p = Progress.elapsed(spec.commandLine().getErr(), "report: reading " + inputs.size() + " input"
                + (inputs.size() == 1 ? "" : "s"))) {
            data = new ResultInputs(dir -> Snapshots.take(Capture.open(dir).host(), Probes.withGpus(), List.of("report", dir.toString()),
                    VersionInfo.toolVersion(), Clock.systemUTC())).read(inputs, Instant.now().truncatedTo(ChronoUnit.SECONDS).toString())
                    .withBaselines(BaselineFiles.load(baselines));
        }
        Report report = Reports.judge(data, Registry.nodeRules(), new RuleContext(config, NodeShape.none()));
        PrintWriter out = spec.commandLine().getOut();
        Map<String, Chart> charts = null;
        if (listCharts || fmt == OutputFormat.PNG || fmt == OutputFormat.SVG) {
            charts = ReportCharts.all(report, config.thresholds().results());
        }
        if (listCharts) {
            if (charts.isEmpty()) {
                out.println("no chart: these inputs hold no sweep, perftest matrix, node topology or link traffic");
            }
            charts.keySet().forEach(out::println);
            out.flush();
            return 0;
        }
        byte[] bytes = fmt == OutputFormat.PNG || fmt == OutputFormat.SVG ? chart(charts, fmt)
                : ReportDocuments.render(report, fmt, config.thresholds().results());
        Outputs.emit(out, o, fmt, bytes, "report", report.verdictLine());
        return report.exitCode();
    }

    private byte[] chart(Map<String, Chart> charts, OutputFormat fmt) {
        String[] wh = size.toLowerCase(Locale.ROOT).split("x");
        int w;
        int h;
        try {
            w = Integer.parseInt(wh[0]);
            h = Integer.parseInt(wh[1]);
        } catch (RuntimeException e) {
            throw new InputException("--size " + size + ": give WIDTHxHEIGHT in pixels, e.g. 1100x560");
        }
        if (w < 100 || h < 100 || w > 8192 || h > 8192) {
            throw new InputException("--size " + size + ": each side from 100 to 8192 pixels");
        }
        return Outputs.chart(charts, chart.name == null ? "busbw" : chart.name, fmt, w, h, "these inputs give no chart");
    }
}
