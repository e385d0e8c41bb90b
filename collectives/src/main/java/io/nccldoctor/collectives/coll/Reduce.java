package io.nccldoctor.collectives.coll;

/** reduce.cu: no trimming; busbw factor 1 (one root sends, or receives, the whole buffer). */
public final class Reduce extends WholeBuffer {

    @Override
    public String name() {
        return "reduce";
    }

    @Override
    public double busBwFactor(int nranks) {
        return 1.0;
    }
}
