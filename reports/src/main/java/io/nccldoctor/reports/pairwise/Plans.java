package io.nccldoctor.reports.pairwise;

import java.util.ArrayList;
import java.util.List;

/** The jobs of a run: every pair of the nodes, or a bisection group, each with its launch and result file. */
final class Plans {

    private Plans() {
    }

    /** n(n−1)/2 pairs in the order the nodes were given: (1,2), (1,3) … (n−1,n). */
    static List<Job> pairs(PairwiseOptions o) {
        List<Job> jobs = new ArrayList<>();
        List<String> n = o.nodes();
        for (int i = 0; i < n.size(); i++) {
            for (int j = i + 1; j < n.size(); j++) {
                jobs.add(job(o, PairFiles.pairName(n.get(i), n.get(j)), List.of(n.get(i), n.get(j))));
            }
        }
        return jobs;
    }

    static Job pair(PairwiseOptions o, String a, String b) {
        return job(o, PairFiles.pairName(a, b), List.of(a, b));
    }

    /** A bisection half as one job; a half of two nodes is a pair, named as one. */
    static Job group(PairwiseOptions o, List<String> nodes) {
        return job(o, nodes.size() == 2 ? PairFiles.pairName(nodes.get(0), nodes.get(1)) : PairFiles.groupName(nodes), nodes);
    }

    /** A group's two halves, the first the smaller when the count is odd. */
    static List<List<String>> halves(List<String> group) {
        int mid = group.size() / 2;
        return List.of(List.copyOf(group.subList(0, mid)), List.copyOf(group.subList(mid, group.size())));
    }

    private static Job job(PairwiseOptions o, String name, List<String> nodes) {
        return new Job(name, nodes, o.launcher().argv(nodes, o.gpusPerNode(), o.launcherArgs(), o.command(),
                JobRunner.hostfile(o.results(), name)), o.launcher().hostfile(nodes, o.gpusPerNode()));
    }
}
