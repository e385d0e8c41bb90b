package io.nccldoctor.collectives.coll;

/** reduce_scatter.cu: base = (count/n) trimmed to 16 bytes; send base×n, receive base; busbw factor (n-1)/n. */
public final class ReduceScatter extends PerRank {

    @Override
    public String name() {
        return "reducescatter";
    }

    @Override
    Sizing of(long base, int eltSize, int nranks) {
        return new Sizing(base * nranks, base, base, 0, base, eltSize);
    }
}
