package io.nccldoctor.collectives.coll;

/** reduce_scatter.cu: base = (count/n) trimmed to 16 bytes; send base×n, receive base; busbw factor (n-1)/n. */
public final class ReduceScatter implements Collective {

    @Override
    public String name() {
        return "reducescatter";
    }

    @Override
    public Sizing sizing(long count, int eltSize, int nranks) {
        return of(Collective.trimmedPerRank(count, eltSize, nranks), eltSize, nranks);
    }

    @Override
    public Sizing sizingUntrimmed(long count, int eltSize, int nranks) {
        return of(count / nranks, eltSize, nranks);
    }

    private static Sizing of(long base, int eltSize, int nranks) {
        return new Sizing(base * nranks, base, base, 0, base, eltSize);
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
