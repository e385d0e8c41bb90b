package io.nccldoctor.collectives.coll;

/** all_gather.cu: base = (count/n) trimmed to 16 bytes; send base, receive base×n; busbw factor (n-1)/n. */
public final class AllGather implements Collective {

    @Override
    public String name() {
        return "allgather";
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
        return new Sizing(base, base * nranks, base, base, 0, eltSize);
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
