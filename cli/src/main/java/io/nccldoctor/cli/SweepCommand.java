package io.nccldoctor.cli;

import io.nccldoctor.collectives.Libraries;
import io.nccldoctor.collectives.LibrariesProbe;
import io.nccldoctor.collectives.launch.Readiness;
import io.nccldoctor.collectives.sweep.ChildSpec;
import io.nccldoctor.collectives.sweep.Orchestrator;
import io.nccldoctor.collectives.sweep.SweepPlan;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.InputException;
import io.nccldoctor.gdr.GpuProbe;
import io.nccldoctor.reports.sweep.PlanValidator;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
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
            "PLAN is a file, or the name of one in configs/sweeps (quick, proto, gdr-levels, ab-nccl).",
            "",
            "Examples:",
            "  nccl-doctor sweep quick --dry-run             each child, its command and environment",
            "  nccl-doctor sweep configs/sweeps/proto.yaml -o proto.jsonl",
            "  nccl-doctor sweep ab-nccl -o ab.jsonl --resume",
            "  nccl-doctor compare ab.jsonl -o ab.html        then: did b help, where, and is it real",
            "",
            "Exit codes: 0 every point finished, 1 a point failed or this node cannot run the plan, 2 bad plan or usage, 3 the tool failed."})
final class SweepCommand implements Callable<Integer> {

    @Parameters(paramLabel = "PLAN", description = "A plan file, or a name from configs/sweeps.")
    String planName;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "The JSONL result file (default: sweep-NAME.jsonl); its "
            + "children's folders go to FILE.d/.")
    Path output;

    @Option(names = "--resume", description = "Continue the sweep in FILE: skip every point it holds.")
    boolean resume;

    @Option(names = "--force", description = "Start over: delete FILE and FILE.d/ first.")
    boolean force;

    @Option(names = "--dry-run", description = "Validate, then print every child with its command and environment; run nothing.")
    boolean dryRun;

    @Option(names = "--nccl-version", paramLabel = "X.Y.Z", description = "Validate against this NCCL (default: the library each "
            + "arm names, else the NCCL this node loads, else the plan's ncclVersion).")
    String ncclVersion;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException, InterruptedException {
        Path file = planFile(planName);
        SweepPlan plan = SweepPlan.load(file);
        Host host = HostOptions.liveHost();
        Libraries libs = new LibrariesProbe().run(host);
        String version = ncclVersion != null ? ncclVersion : libs.nccl().version().isValue() ? libs.nccl().version().get()
                : plan.ncclVersion() != null ? plan.ncclVersion() : null;
        PrintWriter out = spec.commandLine().getOut();
        String against = version != null ? version : "2.30.7";
        if (version == null) {
            out.println("validating against NCCL " + against + " (no NCCL found here and the plan names no ncclVersion)");
        }
        PlanValidator.check(plan, against, file);
        Path results = (output != null ? output : Path.of("sweep-" + plan.name() + ".jsonl")).toAbsolutePath();
        List<ChildSpec> children = plan.children();
        List<String> childCommand = childCommand();
        if (dryRun) {
            out.printf("plan %s: %d children x %d collectives = %d points; results to %s%n", plan.name(), children.size(),
                    plan.collectives().size(), children.size() * plan.collectives().size(), results);
            Map<String, String> parent = System.getenv();
            for (int i = 0; i < children.size(); i++) {
                ChildSpec c = children.get(i);
                Path dir = results.resolveSibling(results.getFileName() + ".d").resolve(c.id().replaceAll("[^A-Za-z0-9._=,+-]", "_"));
                List<String> argv = new ArrayList<>(plan.launcherPrefix());
                argv.addAll(childCommand);
                argv.addAll(List.of("--request", dir.resolve("request.json").toString(), "--result", dir.resolve("result.jsonl").toString()));
                out.printf("%n[%d/%d] %s (arm %s, %s, repetition %d): %s%n", i + 1, children.size(), c.id(), c.arm(), c.envLabel(),
                        c.repeat() + 1, String.join(", ", c.collectives()));
                out.println("  argv: " + String.join(" ", argv));
                out.println("  limit: " + (plan.timeoutOr() * c.collectives().size()) + " s");
                Map<String, String> env = c.environment(parent, dir);
                for (Map.Entry<String, String> e : new TreeMap<>(env).entrySet()) {
                    if (!e.getValue().equals(parent.get(e.getKey()))) {
                        out.println("  set   " + e.getKey() + "=" + e.getValue());
                    }
                }
                for (String k : new TreeMap<>(parent).keySet()) {
                    if (!env.containsKey(k)) {
                        out.println("  unset " + k);
                    }
                }
            }
            out.flush();
            return 0;
        }
        if (plan.launcherPrefix().isEmpty()) { // children run here: this node must be able to
            List<String> missing = Readiness.missing(libs, new GpuProbe().run(host).gpus().map(List::size), plan.gpusOr(), System.getenv());
            if (!missing.isEmpty()) {
                out.println("nccl-doctor sweep " + plan.name() + ": the plan is valid, but cannot run here; missing:");
                missing.forEach(m -> out.println("  - " + m));
                out.flush();
                return 1;
            }
        }
        Orchestrator.Summary s = new Orchestrator(plan, new Orchestrator.Options(results, resume, force, childCommand, System.getenv(),
                line -> {
                    out.println(line);
                    out.flush();
                })).run();
        out.printf("%s: %d points in %d children (%d skipped as done) in %.1f s%s%n", results, s.points(), s.childrenRun(),
                s.childrenSkipped(), s.wallMs() / 1000.0, s.failures().isEmpty() ? "" : "; failed: " + s.failures());
        out.flush();
        return s.failures().isEmpty() ? 0 : 1;
    }

    /** A file, or NAME from configs/sweeps (the repository's folder, else the copy inside the jar). */
    static Path planFile(String name) throws IOException {
        Path p = Path.of(name);
        if (Files.isRegularFile(p)) {
            return p;
        }
        if (name.contains("/") || name.endsWith(".yaml")) {
            throw new InputException(name + ": no such plan file");
        }
        String home = System.getProperty("nccldoctor.home");
        if (home != null && Files.isRegularFile(Path.of(home, "configs", "sweeps", name + ".yaml"))) {
            return Path.of(home, "configs", "sweeps", name + ".yaml");
        }
        try (InputStream in = SweepCommand.class.getResourceAsStream("/configs/sweeps/" + name + ".yaml")) {
            if (in == null) {
                throw new InputException(name + ": no such plan; plans are the files in configs/sweeps (quick, proto, gdr-levels, "
                        + "ab-nccl), or give a path");
            }
            Path tmp = Files.createTempFile("nccl-doctor-plan-" + name + "-", ".yaml");
            tmp.toFile().deleteOnExit();
            Files.copy(in, tmp, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            return tmp;
        }
    }

    /** This same program, as the child: java -jar THIS.jar sweep-child. */
    static List<String> childCommand() {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        try {
            Path jar = Path.of(SweepCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (Files.isRegularFile(jar)) {
                return List.of(java, "-jar", jar.toString(), "sweep-child");
            }
            return List.of(java, "-cp", System.getProperty("java.class.path"), Main.class.getName(), "sweep-child");
        } catch (java.net.URISyntaxException | SecurityException e) {
            return List.of(java, "-cp", System.getProperty("java.class.path"), Main.class.getName(), "sweep-child");
        }
    }
}
