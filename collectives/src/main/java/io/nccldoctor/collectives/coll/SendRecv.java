package io.nccldoctor.collectives.coll;

/** sendrecv.cu: each rank sends to (rank+1)%n and receives from (rank-1+n)%n; no trimming; busbw factor 1. */
public final class SendRecv implements Collective {

    @Override
    public String name() {
        return "sendrecv";
    }

    @Override
    public Sizing sizing(long count, int eltSize, int nranks) {
        return new Sizing(count, count, count, 0, 0, eltSize);
    }

    @Override
    public double busBwFactor(int nranks) {
        return 1.0;
    }

    @Override
    public boolean chunked() {
        return false;
    }
}
