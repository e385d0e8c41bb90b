package io.nccldoctor.collectives.coll;

/** all_gather.cu: base = (count/n) trimmed to 16 bytes; send base, receive base×n; busbw factor (n-1)/n. */
public final class AllGather extends PerRank {

    @Override
    public String name() {
        return "allgather";
    }

    @Override
    Sizing of(long base, int eltSize, int nranks) {
        return new Sizing(base, base * nranks, base, base, 0, eltSize);
    }
}
