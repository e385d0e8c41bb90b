package io.nccldoctor.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

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
            "Start with: nccl-doctor preflight"})
final class RootCommand implements Runnable {

    /**
     * The verbs, in the order --help lists them. Cli adds only the one a command line names (building every verb's
     * model costs about 140 ms of start-up), or all of them for --help and for tests.
     */
    static final java.util.List<Class<?>> VERBS = java.util.List.of(PreflightCommand.class, TopoCommand.class, GdrCommand.class, AlignCommand.class, RunCommand.class, ParseCommand.class, ReportCommand.class, SweepCommand.class, CompareCommand.class, TuneCommand.class, RuleZeroCommand.class, CountersCommand.class, ClusterCommand.class, SweepChildCommand.class, CaptureCommand.class, ExplainCommand.class);

    @Option(names = "--stacktrace", scope = ScopeType.INHERIT,
            description = "On failure, print the Java stack trace as well as the one-line message.")
    boolean stacktrace;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
