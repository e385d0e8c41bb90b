package io.nccldoctor.collectives.coll;

/** broadcast.cu: no trimming; busbw factor 1 (one root sends, or receives, the whole buffer). */
public final class Broadcast extends WholeBuffer {

    @Override
    public String name() {
        return "broadcast";
    }

    @Override
    public double busBwFactor(int nranks) {
        return 1.0;
    }
}
