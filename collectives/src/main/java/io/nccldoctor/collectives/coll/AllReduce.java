package io.nccldoctor.collectives.coll;

/** all_reduce.cu: no trimming; busbw factor 2(n-1)/n (each rank sends and receives (n-1)/n of the data twice). */
public final class AllReduce implements Collective {

    @Override
    public String name() {
        return "allreduce";
    }

    @Override
    public Sizing sizing(long count, int eltSize, int nranks) {
        return new Sizing(count, count, count, 0, 0, eltSize);
    }

    @Override
    public double busBwFactor(int nranks) {
        return 2.0 * (nranks - 1) / nranks;
    }

    @Override
    public boolean chunked() {
        return false;
    }
}
