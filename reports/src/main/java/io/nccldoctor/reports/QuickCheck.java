package io.nccldoctor.reports;

import io.nccldoctor.collectives.Libraries;
import io.nccldoctor.collectives.launch.Readiness;
import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.collectives.sweep.Orchestrator;
import io.nccldoctor.collectives.sweep.ResultLog;
import io.nccldoctor.collectives.sweep.SweepPlan;
import io.nccldoctor.collectives.sweep.SweepRecord;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.GpuSurvey;
import io.nccldoctor.pcie.DeviceKind;
import io.nccldoctor.pcie.LinkCeiling;
import io.nccldoctor.pcie.Topology;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * `preflight --quick`: a short NCCL allreduce, allgather and alltoall on the node's GPUs in one child process (the
 * sweep child, a few sizes, a hard time limit), judged against the ceiling of the narrowest PCIe link between the
 * node's GPUs. A child that hangs, crashes or fails is an error; a busbw below half the ceiling a warning.
 */
public final class QuickCheck {

    public static final String CODE_FAILED = "QUICK_CHECK_FAILED";
    public static final String CODE_SLOW = "QUICK_CHECK_SLOW";

    public static final RuleInfo FAILED = new RuleInfo(CODE_FAILED, Severity.ERROR,
            "the quick NCCL check on this node's GPUs did not complete",
            "preflight --quick runs allreduce, allgather and alltoall on the node's GPUs in one child process with a hard "
                    + "time limit. A child that hangs, crashes or reports an NCCL error means the next job will too: a GPU "
                    + "that does not answer, P2P that deadlocks (ACS or the IOMMU in the way), a broken NCCL install.",
            "the child's result, exit status, the tail of its output and of its NCCL log",
            "Read the NCCL log tail in the evidence; try NCCL_P2P_DISABLE=1 to tell P2P problems from others; check "
                    + "`nccl-doctor topo` (ACS) and `nvidia-smi`.");
    public static final RuleInfo SLOW = new RuleInfo(CODE_SLOW, Severity.WARN,
            "the quick NCCL check ran far below the node's PCIe ceiling",
            "On one node NCCL moves data between GPUs over NVLink or PCIe; busbw below half of the narrowest PCIe link "
                    + "between them (NVLink only raises the real ceiling) means P2P is off or detoured: through host "
                    + "memory (SHM), through the IOMMU, or over a link trained down.",
            "the quick check's peak busbw per collective against the narrowest link between the node's GPUs",
            "Check `nccl-doctor topo` (links, ACS), the NCCL log (P2P/IPC or SHM?), and NCCL_P2P_LEVEL.");

    /** What the quick check found, and what it could not do. */
    public record Result(List<Finding> findings, Optional<String> skipped, List<String> lines) {
    }

    private QuickCheck() {
    }

    /**
     * `preflight --quick` on this node: the check's findings added to the evaluation, or why it did not run added to
     * what was not checked.
     *
     * @param gpus      what the CUDA driver sees: the child drives every GPU it sees
     * @param cannotRun why it cannot run at all (a capture is not a live node), if so
     * @param lines     told one line per collective (peak bus bandwidth, or the failure)
     */
    public static Evaluation addTo(Evaluation e, Snapshot s, Libraries libs, GpuSurvey gpus, Optional<String> cannotRun,
                                   List<String> childCommand, int timeoutSeconds, Map<String, String> env, Consumer<String> lines)
            throws IOException, InterruptedException {
        List<Evaluation.NotChecked> notChecked = new ArrayList<>(e.notChecked());
        List<Finding> findings = new ArrayList<>(e.findings());
        Fact<Integer> count = gpus.gpus().map(List::size);
        List<String> missing = cannotRun.map(List::of).orElseGet(() -> Readiness.missing(libs, count, 1, env));
        if (!missing.isEmpty()) {
            notChecked.add(new Evaluation.NotChecked(CODE_FAILED, "quick NCCL check (--quick)", "cannot run here: " + String.join("; ", missing)));
            return new Evaluation(findings, notChecked, e.passed());
        }
        Result r = run(s, childCommand, count.get(), timeoutSeconds, env, Files.createTempDirectory("nccl-doctor-quick-"));
        r.skipped().ifPresent(why -> notChecked.add(new Evaluation.NotChecked(CODE_FAILED, "quick NCCL check (--quick)", why)));
        findings.addAll(r.findings());
        r.lines().forEach(lines);
        return new Evaluation(findings, notChecked, e.passed());
    }

    /** The narrowest usable bandwidth (GB/s) on any path between two of the node's GPUs; empty with fewer than two. */
    static Optional<LinkCeiling> ceiling(Snapshot s) {
        Optional<Topology> t = TopologyView.of(s, Optional.empty());
        if (t.isEmpty()) {
            return Optional.empty();
        }
        List<Topology.Endpoint> gpus = t.get().endpoints().stream().filter(e -> e.kind() == DeviceKind.GPU).toList();
        Optional<LinkCeiling> narrowest = Optional.empty();
        for (int i = 0; i < gpus.size(); i++) {
            for (int j = i + 1; j < gpus.size(); j++) {
                var n = t.get().pair(gpus.get(i).label(), gpus.get(j).label()).narrowest();
                if (n.isValue() && (narrowest.isEmpty() || n.get().bestGbps() < narrowest.get().bestGbps())) {
                    narrowest = Optional.of(n.get());
                }
            }
        }
        return narrowest;
    }

    /**
     * @param childCommand the sweep child (java -jar … sweep-child, or a stand-in in tests)
     * @param gpus         the node's GPU count: one process drives them all
     */
    public static Result run(Snapshot s, List<String> childCommand, int gpus, int timeoutSeconds, Map<String, String> env, Path work)
            throws IOException, InterruptedException {
        if (gpus < 2) {
            return new Result(List.of(), Optional.of(gpus == 0 ? "no GPU" : "one GPU: bus bandwidth is 0 by definition"), List.of());
        }
        List<SweepRecord> records = measure("quick-check", "preflight --quick", List.of("allreduce", "allgather", "alltoall"), Map.of(),
                gpus, timeoutSeconds, childCommand, env, work);
        List<Finding> findings = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        Optional<LinkCeiling> ceiling = ceiling(s);
        for (SweepRecord r : records) {
            if (!r.isPoint()) {
                findings.add(failure(FAILED, r, gpus));
                lines.add(r.collective() + ": FAILED (" + r.failure() + ")");
                continue;
            }
            Optional<NcclTestsOutput.Row> peak = peak(r);
            if (peak.isEmpty()) {
                continue;
            }
            double bus = peak.get().outOfPlace().busBwGBps();
            lines.add(String.format(Locale.ROOT, "%s: peak busbw %.2f GB/s at %d bytes (NCCL %s)", r.collective(), bus,
                    peak.get().sizeBytes(), r.ncclVersion()));
            if (ceiling.isPresent() && bus < 0.5 * ceiling.get().bestGBps()) {
                findings.add(new Finding(CODE_SLOW, SLOW.severity(), r.collective(), String.format(Locale.ROOT,
                        "%s on %d GPUs peaks at %.2f GB/s, under half of the %.2f GB/s of the narrowest GPU link (%s at %s)", r.collective(),
                        gpus, bus, ceiling.get().bestGBps(), ceiling.get().label(), ceiling.get().device()), List.of(
                        "peak busbw " + String.format(Locale.ROOT, "%.2f", bus) + " GB/s at " + peak.get().sizeBytes() + " bytes",
                        "NCCL " + r.ncclVersion() + " from " + r.ncclLibrary()), SLOW.remedy()));
            }
        }
        return new Result(findings, Optional.empty(), lines);
    }

    /**
     * Runs the collectives on the node's GPUs in one sweep child, 1 MiB to 64 MiB, with the plan's own variables on
     * top of {@code env}; the child's records (a point per collective, or its failure).
     */
    static List<SweepRecord> measure(String name, String description, List<String> collectives, Map<String, String> planEnv, int gpus,
                                     int timeoutSeconds, List<String> childCommand, Map<String, String> env, Path work)
            throws IOException, InterruptedException {
        SweepPlan plan = new SweepPlan(name, description, collectives, new SweepPlan.Sizes("1M", "64M", 8), "float", "sum", 2, 5, 1, 1,
                gpus, Map.of(), planEnv, Map.of(), "local", timeoutSeconds, null);
        Path results = work.resolve(name + ".jsonl");
        Files.deleteIfExists(results);
        new Orchestrator(plan, new Orchestrator.Options(results, false, true, childCommand, env, line -> { })).run();
        return ResultLog.read(results);
    }

    /** The row with the highest out-of-place bus bandwidth. */
    static Optional<NcclTestsOutput.Row> peak(SweepRecord r) {
        return r.rows().stream().max(Comparator.comparingDouble(x -> x.outOfPlace().busBwGBps()));
    }

    /** A point that failed, as a finding of {@code rule}: how it failed, the tail of its output and of its NCCL log. */
    static Finding failure(RuleInfo rule, SweepRecord r, int gpus) {
        List<String> evidence = new ArrayList<>(List.of(r.failure() + ": " + r.detail()));
        if (r.outputTail() != null) {
            r.outputTail().forEach(l -> evidence.add("output: " + l));
        }
        if (r.ncclLogTail() != null) {
            r.ncclLogTail().stream().skip(Math.max(0, r.ncclLogTail().size() - 5)).forEach(l -> evidence.add("NCCL log: " + l));
        }
        return new Finding(rule.code(), rule.severity(), r.collective(), r.collective() + " on " + gpus + " GPUs: " + r.failure(), evidence,
                rule.remedy());
    }
}
