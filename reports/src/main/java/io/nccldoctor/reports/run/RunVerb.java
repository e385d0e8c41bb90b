package io.nccldoctor.reports.run;

import io.nccldoctor.collectives.Libraries;
import io.nccldoctor.collectives.LibrariesProbe;
import io.nccldoctor.collectives.coll.ByteSizes;
import io.nccldoctor.collectives.coll.Collective;
import io.nccldoctor.collectives.coll.DataType;
import io.nccldoctor.collectives.launch.CommIdPolicy;
import io.nccldoctor.collectives.launch.LaunchEnv;
import io.nccldoctor.collectives.launch.NativeLaunch;
import io.nccldoctor.collectives.launch.NativeRun;
import io.nccldoctor.collectives.launch.Readiness;
import io.nccldoctor.collectives.launch.Rendezvous;
import io.nccldoctor.collectives.launch.WatchedChild;
import io.nccldoctor.collectives.measure.JnaBackend;
import io.nccldoctor.collectives.measure.Measurement;
import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.collectives.reference.NcclDebugCapture;
import io.nccldoctor.collectives.reference.ReferenceRun;
import io.nccldoctor.collectives.reference.ReferenceRunner;
import io.nccldoctor.collectives.reference.ReferenceTest;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.output.JsonDocument;
import io.nccldoctor.gdr.GpuProbe;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * `run`: the reference binary, or the native launcher in this process, or, for an NCCL whose initialisation cannot
 * be bounded in this process, in a child that is killed when it stays in one step past --timeout. Prints the table
 * (or JSON) and returns the exit code: 0 correct data, 1 a failed run or a missing piece.
 */
public final class RunVerb {

    /** This command again, for the watched child: its argv given the progress file and a log folder to add, if any. */
    @FunctionalInterface
    public interface Relaunch {
        List<String> argv(Path progressFile, Optional<Path> logDir);
    }

    private final RunOptions o;
    private final Map<String, String> env;
    private final PrintWriter out;
    private final PrintWriter err;
    private final LaunchEnv launch;

    private RunVerb(RunOptions o, Map<String, String> env, PrintWriter out, PrintWriter err) {
        this.o = o;
        this.env = env;
        this.out = out;
        this.err = err;
        this.launch = LaunchEnv.from(env);
    }

    public static int reference(RunOptions o, Map<String, String> env, PrintWriter out, PrintWriter err) {
        RunVerb v = new RunVerb(o, env, out, err);
        o.rendezvous().ifPresent(Rendezvous::parse);
        ReferenceTest test = ReferenceTest.parse(o.collective());
        ReferenceRunner.Plan plan = new ReferenceRunner.Plan(test, DataType.parse(o.type()), o.op(), o.root(), o.minBytes(), o.maxBytes(),
                o.stepFactor(), o.gpus(), o.warmup(), o.iters(), o.check(), o.timeout(), o.average(), o.perIteration(), o.flags());
        ReferenceRunner.binary(o.ncclTestsDir().orElseThrow(), test); // a missing binary is reported before any folder is made
        ReferenceRun r = new ReferenceRunner(env).run(o.ncclTestsDir().get(), plan, v.logFolder());
        return v.print(v.doc("reference", r), RunText.reference(v.launch, r), r.failed());
    }

    public static int nativeRun(RunOptions o, Host host, Map<String, String> env, PrintWriter out, PrintWriter err, Relaunch relaunch) {
        return new RunVerb(o, env, out, err).nativeRun(host, relaunch);
    }

    private int nativeRun(Host host, Relaunch relaunch) {
        Collective c = Collective.parse(o.collective());
        Measurement.Plan plan = new Measurement.Plan(c, DataType.parse(o.type()), o.op(), o.root(), ByteSizes.parse(o.minBytes(), "-b"),
                ByteSizes.parse(o.maxBytes(), "-e"), o.stepFactor(), o.warmup(), o.iters(), o.check() > 0, o.conditioning(),
                o.offsetBytes(), o.timeout(), Measurement.Aggregate.ofNcclTestsFlag(o.average()), o.perIteration());
        Optional<Rendezvous> share = o.rendezvous().map(Rendezvous::parse);
        Libraries libs = new LibrariesProbe().run(host);
        Fact<Integer> gpus = new GpuProbe().run(host).gpus().map(List::size);
        List<String> missing = new ArrayList<>(Readiness.missing(libs, gpus, (launch.localRank() + 1) * o.gpus(), env));
        boolean commIdUsable = env.get("NCCL_COMM_ID") != null;
        if (launch.multiProcess() && libs.nccl().version().isValue()) {
            String v = libs.nccl().version().get();
            commIdUsable = commIdUsable && CommIdPolicy.commIdSafe(v);
            if (!commIdUsable && share.isEmpty()) {
                missing.add("a way to share the NCCL unique id: " + (env.get("NCCL_COMM_ID") == null ? "NCCL_COMM_ID is not set"
                        : CommIdPolicy.why(v)) + "; give --rendezvous file:PATH or tcp://HOST:PORT");
            }
        }
        if (!missing.isEmpty()) {
            return print(doc("missing", missing), RunText.missing(c.name(), launch, missing), true);
        }
        String libnccl = libs.nccl().loaded().get().realPath();
        NativeLaunch nl = new NativeLaunch(libs.cudaDriver().loaded().get().realPath(), libnccl, o.gpus(), launch, share, commIdUsable,
                o.timeout());
        Path logs = logFolder();
        if (o.progressFile().isEmpty() && !JnaBackend.boundedInit(libnccl)) {
            return watched(c, libs.nccl().version().orElse("?"), logs, relaunch);
        }
        NativeRun.Outcome r = NativeRun.run(nl, plan, logs, env, o.progressFile().map(WatchedChild::progressTo).orElse(step -> { }));
        if (r.result().isValue()) {
            Map<String, Object> d = doc("result", r.result().get());
            return print(withLogs(d, r.logsNote(), r.logs()), RunText.nativeRun(launch, r.result().get()) + RunText.logs(r.logsNote(), r.logs()),
                    r.failed());
        }
        return print(withLogs(doc("failure", r.failure().get()), r.logsNote(), r.logs()),
                RunText.failed(c.name(), launch, r.failure().get(), r.logsNote(), r.logs()), true);
    }

    /** The run in a child killed when it stays in one step past --timeout: its output, or the hang. */
    private int watched(Collective c, String version, Path logs, Relaunch relaunch) {
        try {
            Path work = Files.createTempDirectory("nccl-doctor-run-child-");
            Path progress = work.resolve("progress.txt");
            List<String> argv = relaunch.argv(progress, o.logDir().isPresent() ? Optional.empty() : Optional.of(logs));
            WatchedChild.Ended ended = WatchedChild.run(argv, env, work, progress, o.timeout());
            if (ended instanceof WatchedChild.Exited x) {
                out.print(x.stdout());
                out.flush();
                x.stderrTail().forEach(err::println);
                err.flush();
                return x.exitCode();
            }
            WatchedChild.Stalled s = (WatchedChild.Stalled) ended;
            NcclDebugCapture capture = NcclDebugCapture.plan(env, logs);
            Map<String, NcclLog> read = capture.read();
            String failure = RunText.stalled(version, s);
            Map<String, Object> d = withLogs(doc("failure", failure), capture.note(), read);
            d.put("childStderrTail", s.stderrTail());
            return print(d, RunText.failed(c.name(), launch, failure, capture.note(), read), true);
        } catch (IOException e) {
            throw new IllegalStateException("run: cannot start the child process: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("run: interrupted while its child ran", e);
        }
    }

    private Map<String, Object> doc(String key, Object value) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("schemaVersion", 1);
        d.put("kind", "run");
        d.put("launch", launch);
        d.put(key, value);
        return d;
    }

    private static Map<String, Object> withLogs(Map<String, Object> d, String note, Map<String, NcclLog> logs) {
        d.put("ncclLogsNote", note);
        d.put("ncclLogs", logs);
        return d;
    }

    private int print(Map<String, Object> doc, String text, boolean failed) {
        out.print(o.json() ? JsonDocument.write(doc) : text);
        out.flush();
        return failed ? 1 : 0;
    }

    /** The log folder: a fresh temporary one, or the user's, which must be empty unless --force. */
    private Path logFolder() {
        Path dir = o.logDir().orElse(null);
        try {
            if (dir == null) {
                return Files.createTempDirectory("nccl-doctor-run-");
            }
            if (Files.isDirectory(dir)) {
                try (Stream<Path> in = Files.list(dir)) {
                    if (in.findAny().isPresent() && !o.force()) {
                        throw new InputException("--log-dir " + dir + " already holds files; give an empty or new folder, or --force "
                                + "to add this run's logs to it");
                    }
                }
                return dir;
            }
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new InputException("--log-dir " + dir + ": cannot create (" + e.getMessage() + ")", e);
        }
    }
}
