package io.nccldoctor.reports.results;

import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.ResultThresholds;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import io.nccldoctor.reports.baseline.Note;
import io.nccldoctor.reports.baseline.Run;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/** Runs of the same hardware given together, one far below the best of them at the sizes they share. */
public final class RunBelowPeers implements ResultRule {

    static final RuleInfo INFO = new RuleInfo("RUN_BELOW_PEERS", Severity.WARN,
            "a run far below another run of the same hardware",
            "Two runs of the same collective on the same GPU model, ranks and nodes should land within the run-to-run "
                    + "spread of each other. When one sits far below, the hardware can do more and something about that run "
                    + "differs: a virtual machine against bare metal, a network plugin that did not load and fell back to "
                    + "sockets, GPU Direct RDMA off, a pinned algorithm. The ratio is taken at the sizes both runs have; "
                    + "where their size grids differ, a size one run skipped is read on the straight line in log2(size) "
                    + "between its neighbours, and the finding says which sizes were read so.",
            "runs grouped by collective, ranks, nodes, GPU model (nccl-tests' device lines), NCCL version and pinned NCCL_ALGO and "
                    + "NCCL_PROTO; per run the median ratio to "
                    + "the group's best run over the sizes they share from thresholds.results.minBytes up",
            "Look at what differs between the runs: the causes listed for the slow one (its NCCL log, its command line, "
                    + "the platform), then run it again with the fast run's settings.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(ResultSet results, RuleContext context) {
        ResultThresholds t = context.config().thresholds().results();
        double maxFactor = context.config().thresholds().compare().interpolateMaxFactor();
        Map<String, List<Run>> groups = new LinkedHashMap<>();
        for (Run r : Runs.of(results)) {
            if (r.repeat() > 0) {
                continue; // a repeat of a label is the same setting: UNSTABLE_RESULTS judges their scatter
            }
            key(r).ifPresent(k -> groups.computeIfAbsent(k, x -> new ArrayList<>()).add(r));
        }
        if (groups.values().stream().noneMatch(g -> g.size() > 1)) {
            return Outcome.waived("no two runs of the same collective, ranks, nodes, GPU model and NCCL version among the inputs");
        }
        List<Finding> found = new ArrayList<>();
        for (List<Run> g : groups.values()) {
            if (g.size() < 2) {
                continue;
            }
            Run best = g.stream().max(Comparator.comparingDouble(r -> level(r, t.minBytes()))).orElseThrow();
            for (Run r : g) {
                if (r != best) {
                    PeerRatio.of(r, best, t.minBytes(), maxFactor).filter(p -> p.median() < t.peerFraction())
                            .ifPresent(p -> found.add(finding(r, best, p, t, g.size())));
                }
            }
        }
        return Outcome.flag(found);
    }

    private Finding finding(Run slow, Run best, PeerRatio p, ResultThresholds t, int groupSize) {
        List<String> evidence = new ArrayList<>();
        evidence.add("median ratio " + SweepMath.num(p.median()) + " ('" + slow.label() + "' / '" + best.label() + "') over " + p.sizes()
                + " sizes from " + SweepMath.size(p.from()) + " to " + SweepMath.size(p.to()) + "; at " + SweepMath.size(p.to()) + ": "
                + SweepMath.gb(p.slowAtLargest()) + " against " + SweepMath.gb(p.bestAtLargest()));
        evidence.add(p.interpolated().isEmpty() ? "every compared size was measured by both runs"
                : "interpolated in log2(size): " + String.join(", ", p.interpolated()));
        evidence.add("same hardware: " + slow.collective().orElse("collective unknown") + ", " + slow.hardware().summary() + " in both ("
                + groupSize + " runs in the group, the same busbw/algbw factor)" + unknowns(slow));
        evidence.add("threshold: below " + SweepMath.pct(t.peerFraction()) + " of the best run");
        Set<String> fastNotes = best.notes().stream().map(Note::text).collect(Collectors.toSet());
        List<Note> differ = slow.causes().stream().filter(n -> !fastNotes.contains(n.text())).toList();
        differ.forEach(n -> evidence.add("only in the slow run, " + n.kind() + ": " + n.text() + " (" + n.source() + ")"));
        if (differ.isEmpty()) {
            evidence.add("the inputs show no difference between the runs: compare their command lines, NCCL logs and platforms");
        }
        String likely = differ.isEmpty() ? "" : "; likely: " + differ.stream().map(n -> n.kind().name()).distinct()
                .collect(Collectors.joining(", "));
        return new Finding(INFO.code(), INFO.severity(), slow.label(), slow.describe() + " runs at " + SweepMath.pct(p.median()) + " of '"
                + best.label() + "' on the same hardware (ratio " + SweepMath.num(p.median()) + ")" + likely, evidence, INFO.remedy());
    }

    /**
     * collective|ranks|nodes|GPU model|busbw factor|NCCL version|NCCL_ALGO|NCCL_PROTO. What an output does not show is
     * "?", and matches only runs that do not show it either. Runs of two NCCL versions, or with another algorithm or
     * protocol pinned, are an A/B of that choice (`compare` and PROTOCOL_PATHOLOGY judge them); the factor (busbw/algbw,
     * which nccl-tests derives from the collective and the ranks) keeps runs of different shapes apart. Empty for a run
     * without a row to read the factor from.
     */
    static Optional<String> key(Run r) {
        Optional<Double> factor = r.rows().stream().filter(x -> x.outOfPlace().algBwGBps() >= 1)
                .max(Comparator.comparingDouble(x -> x.outOfPlace().algBwGBps()))
                .map(x -> x.outOfPlace().busBwGBps() / x.outOfPlace().algBwGBps());
        if (factor.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(r.collective().orElse("?") + "|" + r.hardware().ranks().fold(String::valueOf, why -> "?") + "|"
                + r.hardware().nodes().fold(String::valueOf, why -> "?") + "|" + r.hardware().gpuModel().orElse("?") + "|"
                + String.format(Locale.ROOT, "%.2f", factor.get()) + "|" + r.ncclVersion().orElse("?") + "|"
                + r.env().getOrDefault("NCCL_ALGO", "") + "|" + r.env().getOrDefault("NCCL_PROTO", ""));
    }

    /** What neither output shows, said: the runs are then taken as one hardware because they were given together. */
    private static String unknowns(Run r) {
        List<String> missing = new ArrayList<>();
        r.collective().fold(c -> null, why -> missing.add("the collective"));
        r.hardware().ranks().fold(c -> null, why -> missing.add("the ranks"));
        r.hardware().gpuModel().fold(c -> null, why -> missing.add("the GPU model"));
        return missing.isEmpty() ? "" : "; " + String.join(", ", missing) + (missing.size() == 1 ? " is" : " are") + " in neither output: "
                + "the runs are taken as the same hardware because they were given together";
    }

    /** The median busbw from minBytes up: which run of a group is the reference. */
    private static double level(Run r, long minBytes) {
        double[] v = r.rows().stream().filter(x -> x.sizeBytes() >= minBytes).mapToDouble(x -> x.outOfPlace().busBwGBps()).toArray();
        return v.length == 0 ? 0 : SweepMath.median(v);
    }
}
