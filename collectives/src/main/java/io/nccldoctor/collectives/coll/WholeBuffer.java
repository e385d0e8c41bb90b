package io.nccldoctor.collectives.coll;

/** Collectives that pass the whole buffer to NCCL: no trimming, send = receive = parameter count, no in-place offset. */
abstract class WholeBuffer implements Collective {

    @Override
    public final Sizing sizing(long count, int eltSize, int nranks) {
        return new Sizing(count, count, count, 0, 0, eltSize);
    }

    @Override
    public final boolean chunked() {
        return false;
    }
}
