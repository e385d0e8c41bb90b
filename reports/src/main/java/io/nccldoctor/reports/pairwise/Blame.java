package io.nccldoctor.reports.pairwise;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Which node makes its pairs slow. A two-node run is as fast as its slower node allows, so:
 * <ul>
 *   <li>a node in at least one fast pair is fine (as far as these runs show);</li>
 *   <li>a node in a slow pair with a fine node is slow: that is its evidence;</li>
 *   <li>a node whose pairs are all slow, but none with a node shown fine, is a suspect the runs cannot separate from
 *       its partners (two nodes only, or every pair slow);</li>
 *   <li>a slow pair of two fine nodes points at the path between them (a cable, a switch port, a spine), or a noisy
 *       run.</li>
 * </ul>
 * Slow means below a fraction of the fastest pair, not below a median: a slow node is in 2 of every N pairs of N
 * nodes, the majority for N = 3, which a median would take as normal.
 */
final class Blame {

    enum Kind { NO_PAIRS, NO_SLOW_PAIR, SLOW_NODE, SLOW_NODES, SLOW_PATHS, INCONCLUSIVE }

    /**
     * @param node     the slow node
     * @param pairs    every measured pair of the node, all slow
     * @param provenBy its slow pairs with a node shown fine
     */
    record Suspect(String node, List<PairResult> pairs, List<PairResult> provenBy) {
    }

    /**
     * @param referenceGBps the fastest pair's bus bandwidth
     * @param thresholdGBps slow below this: slowBelow × the reference
     * @param test          the test compared ("all_reduce_perf")
     * @param slow          nodes shown slow, each with its evidence
     * @param unresolved    nodes in no fast pair that no pair with a fine node shows slow
     * @param slowPaths     slow pairs between two nodes shown fine
     * @param fine          nodes in at least one fast pair
     */
    record Verdict(Kind kind, double referenceGBps, double thresholdGBps, String test, List<Suspect> slow, List<String> unresolved,
                   List<PairResult> slowPaths, List<String> fine, List<String> evidence) {
    }

    private Blame() {
    }

    static Verdict judge(List<PairResult> measured, double slowBelow) {
        if (measured.isEmpty()) {
            return new Verdict(Kind.NO_PAIRS, 0, 0, "", List.of(), List.of(), List.of(), List.of(), List.of("no pair has a finished, "
                    + "validated result"));
        }
        double reference = measured.stream().mapToDouble(p -> p.busBwGBps().get()).max().orElse(0);
        double threshold = slowBelow * reference;
        String test = measured.get(0).test().orElse("nccl-tests");
        if (measured.size() == 1) {
            return new Verdict(Kind.INCONCLUSIVE, reference, threshold, test, List.of(), measured.get(0).nodes(), List.of(), List.of(),
                    List.of(String.format(Locale.ROOT, "one measured pair (%s): nothing to compare it with", figure(measured.get(0)))));
        }
        Set<String> nodes = new LinkedHashSet<>();
        measured.forEach(p -> nodes.addAll(p.nodes()));
        Set<String> fine = new LinkedHashSet<>();
        measured.stream().filter(p -> p.busBwGBps().get() >= threshold).forEach(p -> fine.addAll(p.nodes()));
        List<Suspect> slow = new ArrayList<>();
        List<String> unresolved = new ArrayList<>();
        for (String n : nodes) {
            if (fine.contains(n)) {
                continue;
            }
            List<PairResult> mine = measured.stream().filter(p -> p.nodes().contains(n)).toList();
            List<PairResult> proven = mine.stream().filter(p -> p.nodes().stream().anyMatch(o -> !o.equals(n) && fine.contains(o))).toList();
            if (proven.isEmpty()) {
                unresolved.add(n);
            } else {
                slow.add(new Suspect(n, mine, proven));
            }
        }
        List<PairResult> paths = measured.stream().filter(p -> p.busBwGBps().get() < threshold && fine.containsAll(p.nodes())).toList();
        boolean anySlow = measured.stream().anyMatch(p -> p.busBwGBps().get() < threshold);
        Kind kind = !anySlow ? Kind.NO_SLOW_PAIR : !unresolved.isEmpty() ? Kind.INCONCLUSIVE
                : slow.size() == 1 ? Kind.SLOW_NODE : slow.size() > 1 ? Kind.SLOW_NODES : Kind.SLOW_PATHS;
        Verdict v = new Verdict(kind, reference, threshold, test, slow, unresolved, paths, List.copyOf(fine), List.of());
        return new Verdict(kind, reference, threshold, test, slow, unresolved, paths, List.copyOf(fine), evidence(v, measured, slowBelow));
    }

    private static List<String> evidence(Verdict v, List<PairResult> measured, double slowBelow) {
        List<String> out = new ArrayList<>();
        out.add(String.format(Locale.ROOT, "%d measured pairs of %s; the fastest at %.2f GB/s busbw; slow below %.2f GB/s (%.2f × the "
                + "fastest)", measured.size(), v.test(), v.referenceGBps(), v.thresholdGBps(), slowBelow));
        for (Suspect s : v.slow()) {
            out.add(suspectLine(s, measured));
        }
        if (!v.unresolved().isEmpty()) {
            out.add("in no fast pair, and in no slow pair with a node shown fine: " + String.join(", ", v.unresolved())
                    + " (the runs cannot tell which of them is slow: pair each with a node shown fine)");
        }
        for (PairResult p : v.slowPaths()) {
            out.add(String.format(Locale.ROOT, "%s slow at %.2f GB/s though both nodes are fast in other pairs: the path between "
                    + "them (cable, switch port, spine), or a noisy run", p.label(), p.busBwGBps().get()));
        }
        return out;
    }

    /** "gpu03: all 3 of its pairs slow (…); the 3 pairs without it at 120.10–122.57 GB/s". */
    static String suspectLine(Suspect s, List<PairResult> measured) {
        List<PairResult> without = measured.stream().filter(p -> !p.nodes().contains(s.node())).toList();
        String others = without.isEmpty() ? "no pair without it was measured"
                : String.format(Locale.ROOT, "the %d pair%s without it at %s GB/s", without.size(), without.size() == 1 ? "" : "s",
                range(without));
        return s.node() + ": all " + s.pairs().size() + " of its pairs slow (" + String.join(", ", s.pairs().stream()
                .sorted(Comparator.comparing(PairResult::label)).map(Blame::figure).toList()) + "); " + others;
    }

    static String figure(PairResult p) {
        return String.format(Locale.ROOT, "%s %.2f", p.label(), p.busBwGBps().get());
    }

    private static String range(List<PairResult> pairs) {
        double lo = pairs.stream().mapToDouble(p -> p.busBwGBps().get()).min().orElse(0);
        double hi = pairs.stream().mapToDouble(p -> p.busBwGBps().get()).max().orElse(0);
        return lo == hi ? String.format(Locale.ROOT, "%.2f", lo) : String.format(Locale.ROOT, "%.2f–%.2f", lo, hi);
    }

    /** The measured pairs of the test most pairs ran; the others are counted in a note by the caller. */
    static Map<String, List<PairResult>> byTest(List<PairResult> measured) {
        Map<String, List<PairResult>> out = new LinkedHashMap<>();
        measured.forEach(p -> out.computeIfAbsent(p.test().orElse("(test not named)"), k -> new ArrayList<>()).add(p));
        return out;
    }
}
