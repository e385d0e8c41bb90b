package io.nccldoctor.reports.results;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.Fact;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The collective of an nccl-tests table pasted without its "# Collective test starting" line, read from what each
 * test prints (reference/nccl-internals.md §1): broadcast and reduce print a root of 0 or more, the others -1;
 * allgather and alltoall print the redop "none"; the count column is the per-rank count, so count x element size is the
 * size for allreduce, broadcast, reduce and sendrecv and size / ranks for allgather, reducescatter and alltoall;
 * busbw/algbw is 2(n-1)/n for allreduce and 1 for sendrecv. What these do not settle stays absent, with why.
 */
final class CollectiveFromTable {

    private static final Map<String, Integer> ELEMENT_BYTES = Map.ofEntries(Map.entry("int8", 1), Map.entry("uint8", 1),
            Map.entry("char", 1), Map.entry("f8e4m3", 1), Map.entry("f8e5m2", 1), Map.entry("half", 2), Map.entry("bfloat16", 2),
            Map.entry("float16", 2), Map.entry("int32", 4), Map.entry("uint32", 4), Map.entry("int", 4), Map.entry("float", 4),
            Map.entry("float32", 4), Map.entry("int64", 8), Map.entry("uint64", 8), Map.entry("double", 8), Map.entry("float64", 8));

    private CollectiveFromTable() {
    }

    /** @param ranks the device lines counted, when there are any */
    static Fact<String> of(List<NcclTestsOutput.Row> rows, Fact<Integer> ranks) {
        Optional<NcclTestsOutput.Row> row = rows.stream().filter(r -> r.sizeBytes() > 0 && r.count() > 0
                && ELEMENT_BYTES.containsKey(r.type().toLowerCase(Locale.ROOT))).max((a, b) -> Long.compare(a.sizeBytes(), b.sizeBytes()));
        if (row.isEmpty()) {
            return Fact.absent("no row with a size, a count and a known element type to read it from");
        }
        NcclTestsOutput.Row r = row.get();
        long perRank = r.count() * ELEMENT_BYTES.get(r.type().toLowerCase(Locale.ROOT));
        String redop = r.redop().orElse("");
        boolean none = redop.equals("none") || redop.isEmpty();
        if (r.root().isValue() && r.root().get() >= 0) {
            return Fact.of(none ? "broadcast" : "reduce");
        }
        if (perRank != r.sizeBytes()) {
            return r.sizeBytes() % perRank == 0 && !none ? Fact.of("reducescatter")
                    : Fact.absent(none ? "allgather or alltoall: both print redop none and a per-rank count" : "count x element size is "
                    + perRank + " B, neither the size nor a share of it");
        }
        if (none) {
            return Fact.absent("a size-wide count with no redop fits no nccl-tests collective");
        }
        double ratio = r.outOfPlace().busBwGBps() / r.outOfPlace().algBwGBps();
        boolean readable = r.outOfPlace().algBwGBps() >= 1; // two printed decimals weigh little from 1 GB/s up
        if (readable && Math.abs(r.outOfPlace().busBwGBps() - r.outOfPlace().algBwGBps()) > 0.02) {
            return Fact.of("allreduce"); // sendrecv's factor is 1 whatever the ranks; allreduce's is 1 only on two
        }
        if (ranks.isValue() && ranks.get() > 2 && readable) {
            double allreduce = 2.0 * (ranks.get() - 1) / ranks.get();
            return Math.abs(ratio - allreduce) < Math.abs(ratio - 1) ? Fact.of("allreduce") : Fact.of("sendrecv");
        }
        if (ranks.isValue() && ranks.get() == 2) {
            return Fact.of("allreduce"); // or sendrecv: on two ranks both move the same bytes per rank, busbw factor 1
        }
        return Fact.absent("allreduce or sendrecv: without the ranks the busbw factor does not tell them apart");
    }
}
