package io.nccldoctor.reports.pairwise;

import java.util.List;
import java.util.Optional;

/**
 * One launch: its nodes, the name its result file takes (NAME.txt in the results folder), the argument array, and
 * the hostfile an MPI launch reads.
 *
 * @param name "gpu01_gpu02" for a pair, "group_gpu01_to_gpu04_4" for a bisection half
 */
public record Job(String name, List<String> nodes, List<String> argv, Optional<String> hostfile) {

    public Job {
        nodes = List.copyOf(nodes);
        argv = List.copyOf(argv);
    }

    public String file() {
        return name + PairFiles.EXTENSION;
    }
}
