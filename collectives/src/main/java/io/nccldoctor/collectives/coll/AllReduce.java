package io.nccldoctor.collectives.coll;

/** all_reduce.cu: no trimming; busbw factor 2(n-1)/n (each rank sends and receives (n-1)/n of the data twice). */
public final class AllReduce extends WholeBuffer {

    @Override
    public String name() {
        return "allreduce";
    }

    @Override
    public double busBwFactor(int nranks) {
        return 2.0 * (nranks - 1) / nranks;
    }
}
