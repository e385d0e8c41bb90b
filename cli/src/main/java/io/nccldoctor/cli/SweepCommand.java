package io.nccldoctor.cli;

import io.nccldoctor.collectives.Libraries;
import io.nccldoctor.collectives.LibrariesProbe;
import io.nccldoctor.collectives.launch.Readiness;
import io.nccldoctor.collectives.sweep.Orchestrator;
import io.nccldoctor.collectives.sweep.SweepPlan;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.output.JsonDocument;
import io.nccldoctor.gdr.GpuProbe;
import io.nccldoctor.reports.sweep.DryRun;
import io.nccldoctor.reports.sweep.PlanValidator;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "sweep", mixinStandardHelpOptions = true,
        description = {
            "Runs a sweep plan: collectives x sizes across NCCL_PROTO, NCCL_ALGO, NCCL_NET_GDR_LEVEL, other variables and "
                + "NCCL libraries, one child process per environment and library (NCCL caches most settings per process).",
            "",
            "The plan is validated first against the NCCL version it will meet (a value NCCL would ignore, such as "
                + "NCCL_NET_GDR_LEVEL=phb, is an error). A/B arms run interleaved. Every finished point is appended to the "
                + "JSONL result file and forced to disk; --resume continues a sweep that stopped. A child past its time is "
                + "killed with its process tree and recorded as a hang with the tail of its output and NCCL log; a crash is "
                + "recorded the same way, and the sweep goes on."},
        footer = {"",
            "PLAN is a file, or the name of one in configs/sweeps (quick, proto, gdr-levels, ab-nccl, tune). --dry-run shows the plan "
                + "and warns about library folders this machine lacks (a real run refuses them).",
            "",
            "Examples:",
            "  nccl-doctor sweep quick --dry-run             each child, its command and environment",
            "  nccl-doctor sweep configs/sweeps/ab-nccl.yaml --dry-run --json",
            "  nccl-doctor sweep configs/sweeps/proto.yaml --results proto.jsonl",
            "  nccl-doctor sweep ab-nccl --results ab.jsonl --resume",
            "  nccl-doctor compare ab.jsonl -o ab.html        then: did b help, where, and is it real",
            "",
            "Exit codes: 0 every point finished, 1 a point failed or this node cannot run the plan, 2 bad plan or usage, 3 the tool failed."})
final class SweepCommand implements Callable<Integer> {

    /** The lines the orchestrator prints per child: "[3/12] ID …". */
    private static final Pattern CHILD_LINE = Pattern.compile("^\\[(\\d+)/(\\d+)]");

    @Parameters(paramLabel = "PLAN", description = "A plan file, or a name from configs/sweeps.")
    String planName;

    @Option(names = "--results", paramLabel = "FILE", description = "The JSONL result file (default: sweep-NAME.jsonl); its "
            + "children's folders go to FILE.d/.")
    Path results;

    /** The earlier spelling of --results, kept working: -o means a report file on every other verb. */
    @Option(names = {"-o", "--output"}, hidden = true, paramLabel = "FILE")
    Path oldResults;

    @Option(names = "--resume", description = "Continue the sweep in FILE: skip every point it holds.")
    boolean resume;

    @Option(names = "--force", description = "Start over: delete FILE and FILE.d/ first.")
    boolean force;

    @Option(names = "--dry-run", description = "Validate, then print every child with its command and environment; run nothing.")
    boolean dryRun;

    @Option(names = "--json", description = "With --dry-run: print the plan as JSON. (A sweep's results are the JSONL file.)")
    boolean json;

    @Option(names = "--nccl-version", paramLabel = "X.Y.Z", description = "Validate against this NCCL (default: the library each "
            + "arm names, else the NCCL this node loads, else the plan's ncclVersion).")
    String ncclVersion;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (results != null && oldResults != null) {
            throw new InputException("--results and -o name the same file: give --results");
        }
        if (json && !dryRun) {
            throw new InputException("--json prints the plan of --dry-run; a sweep's results are the JSONL file (--results FILE)");
        }
        Path file = Configs.sweepPlan(planName);
        SweepPlan plan = SweepPlan.load(file);
        Host host = HostOptions.liveHost();
        Libraries libs = new LibrariesProbe().run(host);
        String version = ncclVersion != null ? ncclVersion : libs.nccl().version().isValue() ? libs.nccl().version().get()
                : plan.ncclVersion() != null ? plan.ncclVersion() : null;
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String against = version != null ? version : "2.30.7";
        if (version == null) {
            err.println("validating against NCCL " + against + " (no NCCL found here and the plan names no ncclVersion)");
        }
        Path resultFile = (results != null ? results : oldResults != null ? oldResults : Path.of("sweep-" + plan.name() + ".jsonl"))
                .toAbsolutePath();
        List<String> childCommand = JavaSelf.argv(List.of("sweep-child"));
        if (dryRun) {
            DryRun d = DryRun.of(plan, against, DryRun.validate(plan, against, file), resultFile, childCommand, System.getenv());
            out.print(json ? JsonDocument.write(d) : d.text()); // not wrapped: each argv line is a command to copy
            out.flush();
            return 0;
        }
        PlanValidator.check(plan, against, file);
        if (plan.launcherPrefix().isEmpty()) { // children run here: this node must be able to
            List<String> missing = Readiness.missing(libs, new GpuProbe().run(host).gpus().map(List::size), plan.gpusOr(), System.getenv());
            if (!missing.isEmpty()) {
                out.println("nccl-doctor sweep " + plan.name() + ": the plan is valid, but cannot run here; missing:");
                missing.forEach(m -> out.println("  - " + m));
                out.flush();
                return 1;
            }
        }
        Orchestrator.Summary s;
        try (Progress p = Progress.onStderr(err, "sweep " + plan.name(), plan.children().size(), "children")) {
            s = new Orchestrator(plan, new Orchestrator.Options(resultFile, resume, force, childCommand, System.getenv(), line -> {
                Matcher m = CHILD_LINE.matcher(line);
                if (m.find()) {
                    p.set(Long.parseLong(m.group(1)));
                }
                p.println(out, line);
            })).run();
        }
        out.printf("%s: %d points in %d children (%d skipped as done) in %.1f s%s%n", resultFile, s.points(), s.childrenRun(),
                s.childrenSkipped(), s.wallMs() / 1000.0, s.failures().isEmpty() ? "" : "; failed: " + s.failures());
        out.flush();
        return s.failures().isEmpty() ? 0 : 1;
    }
}
