package io.nccldoctor.collectives.reference;

import io.nccldoctor.core.InputException;
import java.util.List;
import java.util.Locale;

/**
 * One nccl-tests binary (src/Makefile BIN_FILES_LIST of NVIDIA/nccl-tests: all_reduce all_gather broadcast
 * reduce_scatter reduce alltoall alltoallv scatter gather sendrecv hypercube, each NAME_perf).
 *
 * @param name    the name nccl-doctor uses ("allreduce", "gather")
 * @param binary  the binary without suffix; MPI builds may add "_mpi"
 * @param reduces whether it takes -o (a reduction operation)
 * @param rooted  whether it takes -r (a root rank): broadcast, reduce, gather, scatter
 */
public record ReferenceTest(String name, String binary, boolean reduces, boolean rooted) {

    static final List<ReferenceTest> ALL = List.of(
            new ReferenceTest("allreduce", "all_reduce_perf", true, false),
            new ReferenceTest("allgather", "all_gather_perf", false, false),
            new ReferenceTest("alltoall", "alltoall_perf", false, false),
            new ReferenceTest("reducescatter", "reduce_scatter_perf", true, false),
            new ReferenceTest("broadcast", "broadcast_perf", false, true),
            new ReferenceTest("reduce", "reduce_perf", true, true),
            new ReferenceTest("sendrecv", "sendrecv_perf", false, false),
            new ReferenceTest("gather", "gather_perf", false, true),
            new ReferenceTest("scatter", "scatter_perf", false, true),
            new ReferenceTest("alltoallv", "alltoallv_perf", false, false),
            new ReferenceTest("hypercube", "hypercube_perf", false, false));

    /** "gather", "gather_perf" and "all_reduce" style names alike. */
    public static ReferenceTest parse(String s) {
        String k = s.strip().toLowerCase(Locale.ROOT).replace("_", "").replace("-", "").replace("perf", "");
        return ALL.stream().filter(t -> t.name.equals(k)).findFirst().orElseThrow(() -> new InputException("unknown collective '" + s
                + "'; nccl-tests has " + String.join(" ", ALL.stream().map(ReferenceTest::name).toList())));
    }
}
