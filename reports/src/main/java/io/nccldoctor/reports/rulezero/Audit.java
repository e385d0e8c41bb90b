package io.nccldoctor.reports.rulezero;

import io.nccldoctor.collectives.coll.Alignment;
import java.util.List;
import java.util.stream.Collectors;

/**
 * How the harness conditioned its input, against how nccl-tests conditions the same request. NCCL copies with 16-byte
 * vector loads and stores only where each rank's (allgather, reducescatter) or peer's (alltoall) chunk starts on a
 * 16-byte boundary; nccl-tests trims every count so that it does (alltoall.cu: count & ~(16/eltSize - 1)), a harness
 * that writes n -= n % world does not. In the field report that difference alone was a factor of 5.
 *
 * @param asGiven             the suspect's count split as the harness splits it: count / ranks, untrimmed
 * @param asNcclTests         the count nccl-tests would use for the same request, split the same way
 * @param ncclTestsBytes      the size nccl-tests prints for that count
 * @param conditioningDiffers a chunk of the suspect starts off a 16-byte boundary and none of nccl-tests' does
 */
public record Audit(Alignment asGiven, Alignment asNcclTests, long ncclTestsBytes, boolean conditioningDiffers) {

    static Audit of(SuspectRow r) {
        Alignment given = Alignment.of(r.coll(), r.type(), r.count(), r.ranks());
        Alignment tests = Alignment.of(r.coll(), r.type(), given.ncclTestsCount(), r.ranks());
        long testsBytes = r.coll().sizing(r.count(), r.type().size(), r.ranks()).sizeBytes();
        boolean differs = given.chunked() && !given.misalignedChunks().isEmpty() && tests.misalignedChunks().isEmpty();
        return new Audit(given, tests, testsBytes, differs);
    }

    /** "per-peer" for alltoall, "per-rank" for allgather and reducescatter, "whole-buffer" for the rest. */
    String chunkName() {
        return !asGiven.chunked() ? "whole-buffer" : asGiven.collective().equals("alltoall") ? "per-peer" : "per-rank";
    }

    /** Whether a chunk of the suspect starts off a 16-byte boundary. */
    boolean misaligned() {
        return asGiven.chunked() && !asGiven.misalignedChunks().isEmpty();
    }

    /** One line: the chunks as given, and what nccl-tests would use. */
    String line() {
        Alignment g = asGiven;
        if (!g.chunked()) {
            return "whole buffer of " + Fmt.grouped(g.count()) + " elements = " + Fmt.grouped(g.chunkBytes()) + " bytes; nccl-tests does "
                    + "not trim " + g.collective() + " either";
        }
        String state = g.misalignedChunks().isEmpty() ? "all on 16-byte boundaries" : offBoundaries(g);
        String tests = asNcclTests.count() == g.count() ? "nccl-tests would use the same count"
                : "nccl-tests would use " + Fmt.grouped(asNcclTests.count()) + " elements, " + chunkName() + " chunks of "
                + Fmt.grouped(asNcclTests.chunkBytes()) + " bytes (" + (asNcclTests.misalignedChunks().isEmpty() ? "aligned" : "misaligned")
                + ")";
        return "as given, " + chunkName() + " chunks of " + Fmt.grouped(g.chunkElements()) + " elements = " + Fmt.grouped(g.chunkBytes())
                + " bytes (" + state + "); " + tests;
    }

    /** "chunk 1 starts off a 16-byte boundary", "chunks 1, 2, 3 start off 16-byte boundaries", "63 of 64 chunks start off …". */
    static String offBoundaries(Alignment g) {
        List<Integer> bad = g.misalignedChunks();
        if (bad.size() == 1) {
            return "chunk " + bad.get(0) + " starts off a 16-byte boundary";
        }
        return (bad.size() <= 6 ? "chunks " + bad.stream().map(String::valueOf).collect(Collectors.joining(", "))
                : bad.size() + " of " + g.ranks() + " chunks") + " start off 16-byte boundaries";
    }
}
