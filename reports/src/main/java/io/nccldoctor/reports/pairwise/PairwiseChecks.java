package io.nccldoctor.reports.pairwise;

import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The findings of `cluster --pairwise` and `--bisect`: a slow node, a slow path, what the runs cannot tell, failed runs. */
public final class PairwiseChecks {

    static final RuleInfo SLOW_NODE = new RuleInfo("PAIRWISE_SLOW_NODE", Severity.WARN,
            "A node makes every pair it is in slow",
            "A two-node nccl-tests run is as fast as its slower node allows. A node whose every pair is slow, while pairs "
                    + "without it are fast, is the node a slow multi-node job waits for (nccl-tests issue 106; the "
                    + "pairwise checks of GCP's check-nccl and SuperBench). A pair counts as slow below a fraction of the "
                    + "fastest pair (--slow-below, 0.8), not below a median: a slow node is in 2 of every N pairs of N nodes, "
                    + "the majority for three nodes.",
            "the peak out-of-place bus bandwidth of each pair's nccl-tests output (one file per pair), the fastest pair, "
                    + "and which nodes appear in fast pairs",
            "Drain the node, run `nccl-doctor preflight` and `gdr` on it (links, MTU, GPUDirect, NIC firmware), and compare it "
                    + "with a fast node in `nccl-doctor cluster`; then measure its pairs again.");
    static final RuleInfo SLOW_PATH = new RuleInfo("PAIRWISE_SLOW_PATH", Severity.WARN,
            "A pair is slow although both its nodes are fast with others",
            "When two nodes are each fast in other pairs, their slow pair points at what lies between them: a cable, a "
                    + "switch port, an uplink or spine the two share on that route, or a run disturbed by other traffic.",
            "the pair's bus bandwidth against the fastest pair, and other pairs of each of its nodes",
            "Measure the pair again; if it stays slow, check the switch ports and the route between the two (ibtracert, LLDP, "
                    + "switch counters).");
    static final RuleInfo INCONCLUSIVE = new RuleInfo("PAIRWISE_INCONCLUSIVE", Severity.INFO,
            "The pair results cannot tell which of some nodes is slow",
            "Nodes that are in no fast pair, but in no slow pair with a node shown fast, cannot be told apart: two nodes only, "
                    + "several slow nodes paired with each other, or every pair slow (a fabric-wide problem, or the "
                    + "benchmark's own setting).",
            "the pairs of these nodes and which nodes appear in fast pairs",
            "Pair each of them with a node shown fast (add one to the node list), or run on more nodes.");
    static final RuleInfo RUN_FAILED = new RuleInfo("PAIRWISE_RUN_FAILED", Severity.WARN,
            "A pair's run did not give a result",
            "A run that hung, failed to launch, printed no table or reported wrong data says something about its nodes, but "
                    + "not a bandwidth; its pair is left out of the comparison.",
            "the pair's result file: nccl-tests' table and footer, #wrong, and NCCL's last error",
            "Read the pair's file, rerun the pair (a resumed run repeats only incomplete pairs), and check the nodes it names.");

    private PairwiseChecks() {
    }

    public static List<RuleInfo> all() {
        return List.of(SLOW_NODE, SLOW_PATH, INCONCLUSIVE, RUN_FAILED);
    }

    static List<Finding> of(Blame.Verdict v, List<PairResult> results) {
        List<Finding> out = new ArrayList<>();
        for (Blame.Suspect s : v.slow()) {
            out.add(finding(SLOW_NODE, s.node(), String.format(Locale.ROOT, "slow in all %d of its pairs (below %.2f GB/s)",
                    s.pairs().size(), v.thresholdGBps()), List.of(v.evidence().get(0), Blame.suspectLine(s, measured(results)))));
        }
        for (PairResult p : v.slowPaths()) {
            out.add(finding(SLOW_PATH, p.label(), String.format(Locale.ROOT, "%.2f GB/s, both nodes fast in other pairs",
                    p.busBwGBps().get()), List.of(v.evidence().get(0))));
        }
        if (!v.unresolved().isEmpty()) {
            out.add(finding(INCONCLUSIVE, String.join(", ", v.unresolved()), "in no fast pair, and not told apart by the runs",
                    v.evidence()));
        }
        for (PairResult p : results) {
            if (p.status() != PairResult.Status.MEASURED) {
                out.add(finding(RUN_FAILED, p.label(), p.status().name().toLowerCase(Locale.ROOT) + ": " + p.file(), List.of(p.why())));
            }
        }
        return out;
    }

    static List<PairResult> measured(List<PairResult> results) {
        return results.stream().filter(p -> p.status() == PairResult.Status.MEASURED).toList();
    }

    private static Finding finding(RuleInfo i, String subject, String title, List<String> evidence) {
        return new Finding(i.code(), i.severity(), subject, title, evidence, i.remedy());
    }
}
