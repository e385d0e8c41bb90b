package io.nccldoctor.collectives.coll;

/**
 * Collectives whose buffer is split per rank or per peer: base = (count/n) trimmed to a multiple of 16 bytes (older
 * nccl-tests: not trimmed), and busbw factor (n-1)/n.
 */
abstract class PerRank implements Collective {

    /** The counts for one per-rank (or per-peer) base. */
    abstract Sizing of(long base, int eltSize, int nranks);

    @Override
    public final Sizing sizing(long count, int eltSize, int nranks) {
        return of(Collective.trimmedPerRank(count, eltSize, nranks), eltSize, nranks);
    }

    @Override
    public final Sizing sizingUntrimmed(long count, int eltSize, int nranks) {
        return of(count / nranks, eltSize, nranks);
    }

    @Override
    public final double busBwFactor(int nranks) {
        return (nranks - 1.0) / nranks;
    }

    @Override
    public final boolean chunked() {
        return true;
    }
}
