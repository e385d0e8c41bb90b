package io.nccldoctor.reports.run;

import io.nccldoctor.collectives.launch.CommIdPolicy;
import io.nccldoctor.collectives.launch.LaunchEnv;
import io.nccldoctor.collectives.launch.WatchedChild;
import io.nccldoctor.collectives.measure.Measurement;
import io.nccldoctor.collectives.measure.NcclTestsFormat;
import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.collectives.parse.NcclLogSet;
import io.nccldoctor.collectives.reference.ReferenceRun;
import io.nccldoctor.reports.parsed.NcclLogText;
import io.nccldoctor.reports.parsed.NcclTestsText;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The human form of `run`: the nccl-tests table with our lines as '#' comments, or what is missing, or what failed. */
public final class RunText {

    private RunText() {
    }

    public static String launchLine(LaunchEnv l) {
        return "rank " + l.rank() + " of " + l.worldSize() + " (local rank " + l.localRank() + "), from " + l.source()
                + (l.ignored().isEmpty() ? "" : "; also present and not used: " + String.join(", ", l.ignored()));
    }

    static String missing(String collective, LaunchEnv launch, List<String> missing) {
        return "nccl-doctor run " + collective + ": " + launchLine(launch) + "\ncannot run here; missing:\n"
                + String.join("", missing.stream().map(m -> "  - " + m + "\n").toList());
    }

    static String failed(String collective, LaunchEnv launch, String failure, String logsNote, Map<String, NcclLog> logs) {
        return "nccl-doctor run " + collective + ": " + launchLine(launch) + "\nFAILED: " + failure + "\n" + logs(logsNote, logs);
    }

    /** The child of an NCCL without non-blocking initialisation stayed in one step past the limit and was killed. */
    static String stalled(String ncclVersion, WatchedChild.Stalled s) {
        return "NCCL " + ncclVersion + " has no non-blocking initialisation (ncclCommInitRankConfig, NCCL 2.14), so the run went to "
                + "a child process; it stayed in \"" + s.lastStep() + "\" for more than " + s.limitSeconds() + " s (a hang) and was "
                + "killed with its process tree";
    }

    /** The nccl-tests table, with our own lines as '#' comments so that scripts reading nccl-tests output skip them. */
    public static String nativeRun(LaunchEnv launch, Measurement.Result r) {
        Measurement.Plan p = r.plan();
        StringBuilder s = new StringBuilder("# nccl-doctor run " + p.collective().name() + ": " + launchLine(launch) + "\n");
        s.append("# counts conditioned ").append(p.conditioning() == Measurement.Conditioning.NCCL_TESTS
                        ? "as nccl-tests does (16-byte chunks)" : "as given (no trimming, like a hand-sized tensor)")
                .append(p.offsetBytes() > 0 ? ", base pointers offset by " + p.offsetBytes() + " bytes" : "").append('\n');
        s.append(NcclTestsFormat.render(r));
        for (Measurement.SizeResult z : r.sizes()) {
            if (!z.chunksAligned()) {
                s.append(String.format(Locale.ROOT, "# misaligned: at %,d bytes each chunk is %,d bytes or starts off a 16-byte "
                        + "boundary (NCCL leaves its vectorised path)%n", z.row().sizeBytes(), z.chunkBytes()));
            }
        }
        for (Measurement.SizeResult z : r.sizes()) {
            if (z.outOfPlaceIterations().isValue()) {
                s.append(iterations(z)).append('\n');
            }
        }
        r.asNcclTestsOutput().failures().forEach(f -> s.append("# FAILED: ").append(f).append('\n'));
        if (r.failure().isValue()) {
            s.append("# FAILED: ").append(r.failure().get()).append('\n');
        }
        return s.toString();
    }

    private static String iterations(Measurement.SizeResult z) {
        Measurement.IterationStats o = z.outOfPlaceIterations().get();
        String s = String.format(Locale.ROOT, "# per iteration at %,d bytes (cudaEvent, %d iterations): out-of-place min %.2f max %.2f "
                + "p99 %.2f us, cv %.1f %%", z.row().sizeBytes(), o.iterations(), o.minUs(), o.maxUs(), o.p99Us(), o.cvPercent());
        if (z.inPlaceIterations().isValue()) {
            Measurement.IterationStats i = z.inPlaceIterations().get();
            s += String.format(Locale.ROOT, "; in-place min %.2f max %.2f p99 %.2f us, cv %.1f %%", i.minUs(), i.maxUs(), i.p99Us(),
                    i.cvPercent());
        }
        return s;
    }

    /**
     * "# NCCL logs: …", a line per process log (version, network, transports), IB completion errors, and what differs
     * between the processes where they should agree (a rank on sockets, one without GPU Direct RDMA, two NCCL versions).
     */
    public static String logs(String note, Map<String, NcclLog> logs) {
        StringBuilder s = new StringBuilder("# NCCL logs: " + note + "\n");
        logs.forEach((file, log) -> {
            s.append("#   ").append(file).append(": ").append(NcclLogText.summary(log)).append('\n');
            log.ibErrors().forEach(e -> s.append("# FAILED: ").append(file).append(": IB completion error status ").append(e.status())
                    .append(" (").append(e.statusName()).append(")\n"));
        });
        if (!logs.isEmpty()) {
            NcclLogSet.of(logs, Map.of()).differences().forEach(d -> s.append("# DIFFERS: ").append(d).append('\n'));
        }
        logs.forEach((file, log) -> log.differences().forEach(d -> s.append("# DIFFERS in ").append(file).append(": ").append(d)
                .append('\n')));
        return s.toString();
    }

    public static String reference(LaunchEnv launch, ReferenceRun r) {
        StringBuilder s = new StringBuilder("nccl-doctor run --reference nccl-tests: " + launchLine(launch) + "\n");
        s.append("  command: ").append(String.join(" ", r.argv())).append('\n');
        s.append("  ended: ").append(r.exitCode().map(code -> "exit status " + code).describe()).append(" after ")
                .append(r.durationMs()).append(" ms\n");
        if (r.output().isValue()) {
            s.append(NcclTestsText.render(r.output().get(), "its stdout"));
            if (launch.multiProcess() && r.output().get().ncclLibrary().isValue()) {
                s.append("  NCCL_COMM_ID: ").append(CommIdPolicy.why(r.output().get().ncclLibrary().get())).append('\n');
            }
        } else {
            s.append("  output: ").append(r.output().reason()).append('\n');
        }
        s.append("  NCCL logs: ").append(r.logsNote()).append('\n');
        r.ncclLogs().forEach((file, log) -> {
            s.append("    ").append(file).append(": ").append(NcclLogText.summary(log)).append('\n');
            log.ibErrors().forEach(e -> s.append("FAILED: ").append(file).append(": IB completion error status ").append(e.status())
                    .append(" (").append(e.statusName()).append(")\n"));
        });
        if (r.problem().isValue()) {
            s.append("FAILED: ").append(r.problem().get()).append('\n');
        }
        if (r.problem().isValue() && !r.stderrTail().isEmpty()) {
            s.append("  last lines of its stderr:\n");
            r.stderrTail().forEach(l -> s.append("    ").append(l).append('\n'));
        }
        return s.toString();
    }
}
