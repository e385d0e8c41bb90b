package io.nccldoctor.collectives.coll;

import io.nccldoctor.core.InputException;
import java.util.List;
import java.util.Locale;

/**
 * One collective as nccl-tests defines it: how a requested element count becomes send/receive/parameter counts,
 * and the bus-bandwidth factor (doc/PERFORMANCE.md). algbw is always the size column over the time (GB = 1e9);
 * busbw = algbw × {@link #busBwFactor(int)}.
 */
public interface Collective {

    /** The name nccl-tests uses (all_reduce_perf → "allreduce" here). */
    String name();

    Sizing sizing(long count, int eltSize, int nranks);

    double busBwFactor(int nranks);

    /**
     * The sizing of older nccl-tests, which split count/nranks without trimming to 16 bytes (published runs of the
     * old "error" layout show it: alltoall and all_gather at 32 bytes over 8 ranks print count 1). Only the per-rank
     * collectives differ. An intermediate rule (4-element alignment, nccl-internals §1.1) is not modelled: no
     * published output was found to check it against.
     */
    default Sizing sizingUntrimmed(long count, int eltSize, int nranks) {
        return sizing(count, eltSize, nranks);
    }

    /** Whether the caller splits its buffer per rank or per peer (allgather, reducescatter, alltoall). */
    boolean chunked();

    /**
     * Whether the in-place result is defined, so that #wrong means something. nccl-tests switches error reporting off
     * in place for alltoall and sendrecv (alltoall.cu, sendrecv.cu: {@code args->reportErrors = in_place ? 0 : 1}):
     * a peer's write into chunk p races this rank's send of chunk p, and #wrong prints N/A.
     */
    default boolean checkedInPlace() {
        return true;
    }

    /** GB/s as nccl-tests prints them: bytes / 1e9 / seconds. */
    default double algBwGBps(Sizing s, double seconds) {
        return s.sizeBytes() / 1e9 / seconds;
    }

    default double busBwGBps(Sizing s, double seconds, int nranks) {
        return algBwGBps(s, seconds) * busBwFactor(nranks);
    }

    /**
     * nccl-tests' trimming for per-rank buffers: a multiple of 16 bytes, (count / nranks) & ~(16/eltSize - 1)
     * (all_gather.cu, reduce_scatter.cu, alltoall.cu L11/L19).
     */
    static long trimmedPerRank(long count, int eltSize, int nranks) {
        return (count / nranks) & ~(16L / eltSize - 1);
    }

    static List<Collective> all() {
        return List.of(new AllReduce(), new AllGather(), new AlltoAll(), new ReduceScatter(), new Broadcast(), new Reduce(), new SendRecv());
    }

    static Collective parse(String s) {
        String k = s.strip().toLowerCase(Locale.ROOT).replace("_", "").replace("-", "").replace("perf", "");
        return all().stream().filter(c -> c.name().equals(k)).findFirst().orElseThrow(() -> new InputException(
                "unknown collective '" + s + "'; use one of allreduce allgather alltoall reducescatter broadcast reduce sendrecv"));
    }
}
