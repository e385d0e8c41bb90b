package io.nccldoctor.collectives.measure;

import io.nccldoctor.collectives.coll.Collective;
import io.nccldoctor.collectives.coll.DataType;

/**
 * NCCL communicators over this process's GPUs, with one stream and device buffers each. Local rank i holds the
 * communicator of global rank {@link #rank(int)}. Every call may throw {@link Failure}.
 */
public interface Backend extends AutoCloseable {

    /** One collective call on one local rank; pointers are device addresses, counts in elements. */
    record Call(Collective collective, long send, long recv, long count, DataType type, String op, int root) {
    }

    /** An NCCL or CUDA error, an asynchronous communicator error, or a time limit passed. */
    final class Failure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Failure(String message) {
            super(message);
        }
    }

    String ncclVersion();

    int localRanks();

    int worldSize();

    int rank(int local);

    /** Device memory of the local rank's GPU. */
    long alloc(int local, long bytes);

    /** Fills bytes at ptr with the element repeated. */
    void fill(int local, long ptr, long bytes, byte[] element);

    byte[] read(int local, long ptr, long bytes);

    void groupStart();

    /** Ends the group; returns once every communicator has launched its work, or fails at the deadline. */
    void groupEnd(long deadlineNanos);

    void launch(int local, Call call);

    /** Waits for the local rank's stream, polling the communicator's asynchronous error, until the deadline. */
    void sync(int local, long deadlineNanos);

    /**
     * A value of every rank of every process, combined: its mean, minimum or maximum, or this process's own. In a
     * single process, which times all its GPUs together, it is the value itself.
     */
    double combine(double value, Measurement.Aggregate how);

    /** A CUDA event recorded on the local rank's stream now (cuEventRecord); its handle, freed by {@link #close()}. */
    long recordEvent(int local);

    /** Milliseconds between two events of the local rank's stream, once both completed (cuEventElapsedTime). */
    double elapsedMs(int local, long start, long end);

    /** Aborts every communicator (ncclCommAbort), ending a group left open first: a stuck collective is never waited on forever. */
    void abort();

    @Override
    void close();
}
