package io.nccldoctor.collectives.coll;

/**
 * The element counts of one collective call, as nccl-tests' getCollByteCount computes them
 * (reference/nccl-internals.md §1.1).
 *
 * @param sendCount          elements in each rank's send buffer
 * @param recvCount          elements in each rank's receive buffer
 * @param paramCount         the count passed to NCCL (the printed count column)
 * @param sendInplaceOffset  where the send data sits in the receive buffer for in-place runs (elements)
 * @param recvInplaceOffset  where the receive data sits (elements)
 */
public record Sizing(long sendCount, long recvCount, long paramCount, long sendInplaceOffset, long recvInplaceOffset,
                     int eltSize) {

    public long sendBytes() {
        return sendCount * eltSize;
    }

    public long recvBytes() {
        return recvCount * eltSize;
    }

    /** The size column of nccl-tests: max(sendBytes, recvBytes). */
    public long sizeBytes() {
        return Math.max(sendBytes(), recvBytes());
    }
}
