package io.nccldoctor.collectives.coll;

/**
 * alltoall.cu: per-peer count = (count/n) trimmed to 16 bytes; send = receive = per-peer × n; busbw factor (n-1)/n.
 * The trimming is why nccl-tests never shows the 5× slowdown of misaligned per-peer chunks (the field report's
 * 178,956,968-byte chunks from a harness that sized its tensor with n -= n % world).
 */
public final class AlltoAll implements Collective {

    @Override
    public String name() {
        return "alltoall";
    }

    @Override
    public Sizing sizing(long count, int eltSize, int nranks) {
        return of(Collective.trimmedPerRank(count, eltSize, nranks), eltSize, nranks);
    }

    @Override
    public Sizing sizingUntrimmed(long count, int eltSize, int nranks) {
        return of(count / nranks, eltSize, nranks);
    }

    private static Sizing of(long perPeer, int eltSize, int nranks) {
        return new Sizing(perPeer * nranks, perPeer * nranks, perPeer, 0, 0, eltSize);
    }

    @Override
    public double busBwFactor(int nranks) {
        return (nranks - 1.0) / nranks;
    }

    @Override
    public boolean chunked() {
        return true;
    }
}
