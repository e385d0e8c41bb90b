package io.nccldoctor.collectives.coll;

/** broadcast.cu: no trimming; busbw factor 1 (one root sends, or receives, the whole buffer). */
public final class Broadcast implements Collective {

    @Override
    public String name() {
        return "broadcast";
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
