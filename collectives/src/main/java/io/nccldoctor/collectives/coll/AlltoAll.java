package io.nccldoctor.collectives.coll;

/**
 * alltoall.cu: per-peer count = (count/n) trimmed to 16 bytes; send = receive = per-peer × n; busbw factor (n-1)/n.
 * The trimming is why nccl-tests never shows the 5× slowdown of misaligned per-peer chunks (the field report's
 * 178,956,968-byte chunks from a harness that sized its tensor with n -= n % world).
 */
public final class AlltoAll extends PerRank {

    @Override
    public String name() {
        return "alltoall";
    }

    /** In place, peers overwrite what this rank is still sending (Collective#checkedInPlace). */
    @Override
    public boolean checkedInPlace() {
        return false;
    }

    @Override
    Sizing of(long perPeer, int eltSize, int nranks) {
        return new Sizing(perPeer * nranks, perPeer * nranks, perPeer, 0, 0, eltSize);
    }
}
