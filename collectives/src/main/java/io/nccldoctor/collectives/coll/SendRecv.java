package io.nccldoctor.collectives.coll;

/** sendrecv.cu: each rank sends to (rank+1)%n and receives from (rank-1+n)%n; no trimming; busbw factor 1. */
public final class SendRecv extends WholeBuffer {

    @Override
    public String name() {
        return "sendrecv";
    }

    /** In place, peers overwrite what this rank is still sending (Collective#checkedInPlace). */
    @Override
    public boolean checkedInPlace() {
        return false;
    }

    @Override
    public double busBwFactor(int nranks) {
        return 1.0;
    }
}
