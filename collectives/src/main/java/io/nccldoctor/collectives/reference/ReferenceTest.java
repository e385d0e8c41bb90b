package io.nccldoctor.collectives.reference;

import io.nccldoctor.core.InputException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

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

    /**
     * The test a binary's name names, as an output gives it ("gather_perf", an MPI build's "all_reduce_perf_mpi"); empty
     * for a name that is none of nccl-tests' binaries.
     */
    public static Optional<ReferenceTest> ofBinary(String binary) {
        String b = binary.strip().replaceFirst("_mpi$", "");
        for (ReferenceTest t : ALL) {
            if (t.binary.equals(b)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    /** The test nccl-doctor names {@code name} ("allreduce", "gather"); empty for any other name. */
    public static Optional<ReferenceTest> named(String name) {
        for (ReferenceTest t : ALL) {
            if (t.name.equals(name)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    /** "gather", "gather_perf" and "all_reduce" style names alike. */
    public static ReferenceTest parse(String s) {
        String k = s.strip().toLowerCase(Locale.ROOT).replace("_", "").replace("-", "").replace("perf", "");
        return named(k).orElseThrow(() -> new InputException("unknown collective '" + s
                + "'; nccl-tests has " + String.join(" ", ALL.stream().map(ReferenceTest::name).toList())));
    }
}
