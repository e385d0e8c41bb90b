package io.nccldoctor.cli;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

@Command(name = "nccl-doctor",
        versionProvider = VersionInfo.class,
        mixinStandardHelpOptions = true,
        description = {
            "Diagnoses NCCL / GPUDirect RDMA nodes and explains what it finds.",
            "",
            "Reads the host through /sys, /proc and a few commands (or a capture with --from DIR), records typed "
                + "facts, judges them with rules, and prints findings with evidence and remedy."},
        footer = {"",
            "Exit codes: 0 no error-level finding, 1 an error-level finding, 2 bad usage or input, 3 the tool failed.",
            "-o FILE writes a verb's result (format by extension) and replaces only its own earlier output without --force; "
                + "--json prints it as JSON (docs/outputs.md, docs/json.md).",
            "Start with: nccl-doctor preflight"})
final class RootCommand implements Runnable {

    /**
     * The verbs by name, in the order --help lists them. Cli adds only the one a command line names (building every
     * verb's model costs about 140 ms of start-up), or all of them for --help and for tests. The names are those of each
     * verb's @Command (a test holds them alike), written here as well so that finding the verb reads no annotation:
     * reading the @Command of the verbs listed before it cost up to 40 ms of every start.
     */
    static final Map<String, Class<?>> VERBS_BY_NAME = verbs(
            "preflight", PreflightCommand.class, "topo", TopoCommand.class, "gdr", GdrCommand.class, "align", AlignCommand.class,
            "run", RunCommand.class, "parse", ParseCommand.class, "report", ReportCommand.class, "sweep", SweepCommand.class,
            "compare", CompareCommand.class, "tune", TuneCommand.class, "rulezero", RuleZeroCommand.class,
            "counters", CountersCommand.class, "cluster", ClusterCommand.class, "sweep-child", SweepChildCommand.class,
            "capture", CaptureCommand.class, "explain", ExplainCommand.class);

    static final List<Class<?>> VERBS = List.copyOf(VERBS_BY_NAME.values());

    private static Map<String, Class<?>> verbs(Object... nameThenClass) {
        Map<String, Class<?>> verbs = new LinkedHashMap<>();
        for (int i = 0; i < nameThenClass.length; i += 2) {
            verbs.put((String) nameThenClass[i], (Class<?>) nameThenClass[i + 1]);
        }
        return Collections.unmodifiableMap(verbs);
    }

    @Option(names = "--stacktrace", scope = ScopeType.INHERIT,
            description = "On failure, print the Java stack trace as well as the one-line message.")
    boolean stacktrace;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
