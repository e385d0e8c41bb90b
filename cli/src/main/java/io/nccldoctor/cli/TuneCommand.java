package io.nccldoctor.cli;

import io.nccldoctor.collectives.sweep.SweepPlan;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Json;
import io.nccldoctor.reports.compare.CompareThresholds;
import io.nccldoctor.reports.rules.Registry;
import io.nccldoctor.reports.tune.OwnedFile;
import io.nccldoctor.reports.tune.TuneOutputs;
import io.nccldoctor.reports.tune.TuneText;
import io.nccldoctor.reports.tune.Tuner;
import io.nccldoctor.reports.tune.Tuning;
import io.nccldoctor.reports.tune.VerifyPlan;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "tune", mixinStandardHelpOptions = true,
        description = {
            "From a sweep to a per-size configuration NCCL can use: rows for NCCL's example tuner plugin (NCCL_TUNER_CONFIG_FILE).",
            "",
            "Per collective, rank count, node count and size, the setting with the best median bus bandwidth replaces NCCL's own "
                + "choice (read from the runs' TUNING log lines) only where compare's statistics call the gain real: the 95 %% "
                + "interval of the ratio above 1 + --min-gain and the Mann-Whitney p below --alpha. Adjacent sizes with the same "
                + "choice become one row; sizes not measured stay with NCCL. Sizes with too few runs are named, never judged."},
        footer = {"",
            "RESULTS: sweep results (JSONL, with their children's NCCL logs beside them in RESULTS.d/), `run --json` outputs, "
                + "nccl-tests outputs or report bundles with their environments. The sweep should pin NCCL_PROTO / NCCL_ALGO "
                + "(configs/sweeps/tune.yaml) with 'default' among the values, and set NCCL_DEBUG_SUBSYS=INIT,ENV,TUNING.",
            "",
            "Examples:",
            "  nccl-doctor sweep tune -o tune.jsonl && nccl-doctor tune tune.jsonl",
            "  nccl-doctor tune tune.jsonl -o nccl_tuner.conf --verify-plan verify.yaml",
            "  nccl-doctor sweep verify.yaml -o verify.jsonl && nccl-doctor compare verify.jsonl",
            "  nccl-doctor tune tune.jsonl --as-env               what each measured NCCL_PROTO/NCCL_ALGO pin would cost",
            "  nccl-doctor tune tune.jsonl --json > tune.json",
            "",
            "Files are replaced only when their first line is this tool's marker, else with --force; see docs/tune.md for "
                + "building the example plugin. Exit codes: 0 done (a pin --as-env refuses is a warning, NCCL_GLOBAL_PIN), 2 bad "
                + "input, 3 the tool failed."})
final class TuneCommand implements Callable<Integer> {

    @Parameters(arity = "1..*", paramLabel = "RESULTS", description = "Sweep results, `run --json` or nccl-tests outputs, bundles.")
    List<String> inputs;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write the tuner configuration (nccl_tuner.conf) here.")
    Path output;

    @Option(names = "--verify-plan", paramLabel = "FILE", description = "Write a two-arm sweep plan: NCCL's defaults against the tuner file.")
    Path verifyPlan;

    @Option(names = "--plugin", paramLabel = "NAME|PATH", defaultValue = "example",
            description = "NCCL_TUNER_PLUGIN in the plan's tuned arm (default: ${DEFAULT-VALUE}, libnccl-tuner-example.so on the library path).")
    String plugin;

    @Option(names = "--library", paramLabel = "PATH", description = "The libnccl both arms of the plan load (default: the one the runs recorded).")
    String library;

    @Option(names = "--plan", paramLabel = "FILE", description = "The sweep plan RESULTS came from: the verification runs as it ran.")
    Path plan;

    @Option(names = "--repetitions", paramLabel = "N", description = "Runs per arm in the plan (default: the plan's, at least 5).")
    Integer repetitions;

    @Option(names = "--as-env", description = "Also say what each measured environment would cost as a global pin; refuse one that loses.")
    boolean asEnv;

    @Option(names = "--min-gain", paramLabel = "F", description = "Minimum gain, a fraction (default: thresholds.compare.minChange, 0.03).")
    Double minGain;

    @Option(names = "--alpha", paramLabel = "P", description = "Significance level (default: thresholds.compare.alpha, 0.05).")
    Double alpha;

    @Option(names = "--nodes", paramLabel = "N", description = "The node count of runs that do not record it (no NCCL log).")
    Integer nodes;

    @Option(names = "--arm", paramLabel = "NAME", description = "The arm of a sweep of several NCCL libraries to tune for.")
    String arm;

    @Option(names = "--force", description = "Replace -o and --verify-plan files that this tool did not write.")
    boolean force;

    @Option(names = "--json", description = "Print the decisions as JSON (schemaVersion, kind \"tune\").")
    boolean json;

    @Option(names = "--rules", paramLabel = "FILE", description = "Rule configuration (default: configs/rules.yaml).")
    Path rulesFile;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (verifyPlan != null && output == null) {
            throw new InputException("--verify-plan needs -o FILE: the plan points NCCL_TUNER_CONFIG_FILE at the tuner file");
        }
        if (output != null) {
            OwnedFile.refuse(output, force, "-o");
        }
        if (verifyPlan != null) {
            OwnedFile.refuse(verifyPlan, force, "--verify-plan");
        }
        CompareThresholds base = Configs.rules(rulesFile, Registry.nodeRules()).thresholds().compare().withDefaults();
        CompareThresholds t;
        try {
            t = new CompareThresholds(minGain != null ? minGain : base.minChange(), alpha != null ? alpha : base.alpha(), base.bootstrap(),
                    base.seed(), base.minSamples());
        } catch (IllegalArgumentException e) {
            throw new InputException("--min-gain/--alpha: " + e.getMessage(), e);
        }
        Tuning tuning = Tuner.tune(inputs, new Tuner.Options(t, nodes), arm, asEnv);
        String planText = verifyPlan == null ? null : VerifyPlan.render(tuning, new VerifyPlan.Options(output.toAbsolutePath(), plugin, library,
                plan == null ? null : SweepPlan.load(plan), repetitions), tuning.ncclVersion().orElse("2.30.7"));
        PrintWriter out = spec.commandLine().getOut();
        List<String> wrote = TuneOutputs.write(tuning, output, verifyPlan, planText, force);
        if (json) {
            out.print(Json.write(tuning));
        } else {
            out.print(TuneText.render(tuning));
            out.println();
            wrote.forEach(out::println);
        }
        out.flush();
        return 0;
    }
}
