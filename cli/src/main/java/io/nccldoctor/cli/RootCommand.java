package io.nccldoctor.cli;

import java.util.List;
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
     * The verbs, in the order --help lists them. Cli adds only the one a command line names (building every verb's
     * model costs about 140 ms of start-up), or all of them for --help and for tests.
     */
    static final List<Class<?>> VERBS = List.of(PreflightCommand.class, TopoCommand.class, GdrCommand.class, AlignCommand.class,
            RunCommand.class, ParseCommand.class, ReportCommand.class, SweepCommand.class, CompareCommand.class, TuneCommand.class,
            RuleZeroCommand.class, CountersCommand.class, ClusterCommand.class, SweepChildCommand.class, CaptureCommand.class, ExplainCommand.class);

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
