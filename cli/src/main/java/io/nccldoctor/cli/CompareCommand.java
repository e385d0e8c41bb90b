package io.nccldoctor.cli;

import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import io.nccldoctor.reports.RulesConfig;
import io.nccldoctor.reports.compare.CompareCharts;
import io.nccldoctor.reports.compare.CompareHtml;
import io.nccldoctor.reports.compare.CompareMarkdown;
import io.nccldoctor.reports.compare.Comparison;
import io.nccldoctor.reports.compare.Verdict;
import io.nccldoctor.reports.chart.Chart;
import io.nccldoctor.reports.results.ResultInputs;
import io.nccldoctor.reports.results.Sweep;
import io.nccldoctor.reports.results.SweepResults;
import io.nccldoctor.reports.rules.Registry;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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
                + "then a line per collective saying where it changed."},
        footer = {"",
            "A and B: a sweep result (JSONL) or one arm of it (FILE#ARM), nccl-tests outputs (files, a folder), `run --json` "
                + "outputs, or a report bundle. With one sweep result that holds two arms: compare RESULTS.jsonl.",
            "",
            "Examples:",
            "  nccl-doctor compare ab.jsonl                           the two arms of an A/B sweep",
            "  nccl-doctor compare ab.jsonl#a ab.jsonl#b -o ab.html",
            "  nccl-doctor compare runs-2.28/ runs-2.30.7/ -o ab.md    folders of nccl-tests outputs",
            "",
            "Formats by the extension of -o: html, md, json, png/svg (--chart NAME, --list-charts), txt. Exit codes: 0 B is nowhere "
                + "slower, 1 B is slower somewhere (a regression), 2 bad input."})
final class CompareCommand implements Callable<Integer> {

    @Mixin
    OutputOptions o;

    @Parameters(arity = "1..2", paramLabel = "A [B]", description = "The two result sets (or one sweep result with two arms).")
    List<String> inputs;




    @Option(names = "--list-charts", description = "Name the charts, and stop.")
    boolean listCharts;



    @Spec
    CommandSpec spec;

    /** @param decisions what NCCL decided in this arm's children, when they are sweep results with NCCL logs; else empty */
    record Arm(String name, List<Sweep> sweeps, String decisions) {
        Arm(String name, List<Sweep> sweeps) {
            this(name, sweeps, "");
        }
    }

    @Override
    public Integer call() {
        String fmt = ReportCommand.format(o.format, o.output);
        if (fmt.equals("junit") || fmt.equals("prom")) {
            throw new InputException("--format " + fmt + ": compare writes html, md, json, png, svg or txt");
        }
        Outputs.refuseOverwrite(o.output, o.force);
        RulesConfig config = Configs.rules(o.rulesFile, Registry.nodeRules());
        Arm a;
        Arm b;
        if (inputs.size() == 1) {
            Path file = Path.of(inputs.get(0));
            List<String> arms = sweepArms(file);
            if (arms.size() != 2) {
                throw new InputException(file + ": compare with one input needs a sweep result with exactly two arms (it has "
                        + (arms.isEmpty() ? "none" : String.join(", ", arms)) + "); give A and B, or FILE#ARM twice");
            }
            a = new Arm(arms.get(0), SweepResults.sweeps(file, arms.get(0)), decisions(file, arms.get(0)));
            b = new Arm(arms.get(1), SweepResults.sweeps(file, arms.get(1)), decisions(file, arms.get(1)));
        } else {
            a = arm(inputs.get(0));
            b = arm(inputs.get(1));
        }
        Comparison c = Comparison.of(a.name(), a.sweeps(), b.name(), b.sweeps(), config.thresholds().compare());
        boolean regression = c.rows().stream().anyMatch(r -> r.verdict() == Verdict.SLOWER);
        PrintWriter out = spec.commandLine().getOut();
        Map<String, ? extends Chart> charts = CompareCharts.all(c);
        if (listCharts) {
            charts.keySet().forEach(out::println);
            out.flush();
            return 0;
        }
        byte[] bytes = switch (fmt) {
            case "html" -> utf8(CompareHtml.render(c));
            case "md" -> utf8(CompareMarkdown.render(c) + decisionsMarkdown(a, b));
            case "json" -> utf8(Json.write(c));
            case "png", "svg" -> Outputs.chart(charts, o.chart, fmt, 1100, 560, "no chart: the two sets share no collective and size");
            default -> utf8(text(c) + decisionsText(a, b));
        };
        Outputs.emit(out, o.output, fmt, bytes, "");
        if (o.output != null) {
            c.summaries().forEach(s -> out.println("  " + s.line()));
            out.flush();
        }
        return regression ? 1 : 0;
    }

    /** The arms of a sweep result; empty when the file is not one. */
    private static List<String> sweepArms(Path file) {
        try {
            if (Files.isRegularFile(file) && SweepResults.isSweepFile(Files.readString(file, StandardCharsets.UTF_8))) {
                return SweepResults.arms(file);
            }
        } catch (java.io.IOException e) {
            throw new InputException(file + ": cannot read (" + e.getMessage() + ")", e);
        }
        throw new InputException(file + ": not a sweep result (JSONL from `nccl-doctor sweep`); give A and B");
    }

    /** FILE#ARM (one arm of a sweep result), or anything `report` reads (its sweeps). */
    private static Arm arm(String spec) {
        int hash = spec.lastIndexOf('#');
        if (hash > 0 && !Files.exists(Path.of(spec))) {
            Path file = Path.of(spec.substring(0, hash));
            String arm = spec.substring(hash + 1);
            List<String> arms = sweepArms(file);
            if (!arms.contains(arm)) {
                throw new InputException(spec + ": no arm '" + arm + "' in " + file + " (arms: " + String.join(", ", arms) + ")");
            }
            return new Arm(arm, SweepResults.sweeps(file, arm), decisions(file, arm));
        }
        List<Sweep> sweeps = new ResultInputs(dir -> {
            throw new InputException(dir + ": a capture holds no measurements; compare needs results");
        }).read(List.of(spec), "").sweeps();
        if (sweeps.isEmpty()) {
            throw new InputException(spec + ": no measured sweep in it");
        }
        Path p = Path.of(spec);
        return new Arm(p.getFileName() == null ? spec : p.getFileName().toString(), sweeps);
    }

    /** Transports and algorithm/protocol choices NCCL logged in an arm's children, added up; "" without logs. */
    static String decisions(Path file, String arm) {
        java.util.Map<String, Long> transports = new java.util.TreeMap<>();
        java.util.Map<String, Long> algorithms = new java.util.TreeMap<>();
        java.util.Set<String> children = new java.util.HashSet<>();
        for (var r : io.nccldoctor.collectives.sweep.ResultLog.read(file)) {
            if (r.isPoint() && arm.equals(r.arm()) && children.add(r.child())) { // a child's log is on each of its points
                if (r.transports() != null) {
                    r.transports().forEach((k, v) -> transports.merge(k, v, Long::sum));
                }
                if (r.algorithms() != null) {
                    r.algorithms().forEach((k, v) -> algorithms.merge(k, v, Long::sum));
                }
            }
        }
        if (transports.isEmpty() && algorithms.isEmpty()) {
            return "";
        }
        return "transports " + (transports.isEmpty() ? "none logged" : join(transports)) + "; algorithm/protocol "
                + (algorithms.isEmpty() ? "not logged (NCCL_DEBUG_SUBSYS=TUNING logs them)" : join(algorithms));
    }

    private static String join(java.util.Map<String, Long> m) {
        return String.join(", ", m.entrySet().stream().map(e -> e.getKey() + " x" + e.getValue()).toList());
    }

    static String decisionsText(Arm a, Arm b) {
        if (a.decisions().isEmpty() && b.decisions().isEmpty()) {
            return "";
        }
        return "\nWhat NCCL decided (from the children's NCCL_DEBUG=INFO logs):\n  A " + a.name() + ": "
                + (a.decisions().isEmpty() ? "no log" : a.decisions()) + "\n  B " + b.name() + ": "
                + (b.decisions().isEmpty() ? "no log" : b.decisions()) + "\n";
    }

    static String decisionsMarkdown(Arm a, Arm b) {
        if (a.decisions().isEmpty() && b.decisions().isEmpty()) {
            return "";
        }
        return "\n## What NCCL decided\n\nFrom the children's NCCL_DEBUG=INFO logs.\n\n- A "
                + io.nccldoctor.reports.render.MarkdownReport.text(a.name()) + ": "
                + io.nccldoctor.reports.render.MarkdownReport.text(a.decisions().isEmpty() ? "no log" : a.decisions()) + "\n- B "
                + io.nccldoctor.reports.render.MarkdownReport.text(b.name()) + ": "
                + io.nccldoctor.reports.render.MarkdownReport.text(b.decisions().isEmpty() ? "no log" : b.decisions()) + "\n";
    }

    /** The terminal form: who against whom, the notes, and a line per collective. */
    static String text(Comparison c) {
        StringBuilder s = new StringBuilder("nccl-doctor compare: B = " + c.b().name() + " (NCCL " + c.b().versions() + ") against A = "
                + c.a().name() + " (NCCL " + c.a().versions() + ")\n\n");
        c.summaries().forEach(x -> s.append("  ").append(x.line()).append('\n'));
        if (!c.notes().isEmpty()) {
            s.append('\n');
            c.notes().forEach(n -> s.append("note: ").append(n).append('\n'));
        }
        s.append("\nPer size, with intervals and p-values: -o FILE.md or FILE.html\n");
        return s.toString();
    }

    private static byte[] utf8(String s) {
        return Outputs.utf8(s);
    }
}
