package io.nccldoctor.collectives.measure;

import io.nccldoctor.collectives.coll.DataType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.DoubleStream;

/**
 * W ranks in one process, with "device memory" in host arrays and the collectives computed in Java for int32 and
 * float32 (sum, max, min), with NCCL's semantics. It counts every call, and can corrupt a result or hang.
 */
final class FakeBackend implements Backend {

    private static final long SPACE = 1L << 40;
    private final int world;
    private final Map<Long, ByteBuffer> memory = new HashMap<>();
    private final Map<Long, Long> sizes = new HashMap<>();
    private final List<Map.Entry<Integer, Call>> pending = new ArrayList<>();
    int launches;
    int groups;
    int syncs;
    int allocs;
    boolean aborted;
    boolean closed;
    boolean corrupt;
    /** false: launches are counted but nothing is computed or allocated (sizes too big for host memory) */
    boolean compute = true;
    int hangAfterLaunches = Integer.MAX_VALUE;

    FakeBackend(int world) {
        this.world = world;
    }

    @Override
    public String ncclVersion() {
        return "2.27.3";
    }

    @Override
    public int localRanks() {
        return world;
    }

    @Override
    public int worldSize() {
        return world;
    }

    @Override
    public int rank(int local) {
        return local;
    }

    @Override
    public long alloc(int local, long bytes) {
        long base = (++allocs) * SPACE;
        sizes.put(base, bytes);
        return base;
    }

    private ByteBuffer at(long ptr) {
        long base = ptr / SPACE * SPACE;
        return memory.computeIfAbsent(base, b -> ByteBuffer.allocate(Math.toIntExact(sizes.get(b))).order(ByteOrder.LITTLE_ENDIAN));
    }

    private static int off(long ptr) {
        return (int) (ptr % SPACE);
    }

    @Override
    public void fill(int local, long ptr, long bytes, byte[] element) {
        ByteBuffer b = at(ptr);
        for (long i = 0; i < bytes; i++) {
            b.put(off(ptr) + (int) i, element[(int) (i % element.length)]);
        }
    }

    @Override
    public byte[] read(int local, long ptr, long bytes) {
        byte[] out = new byte[(int) bytes];
        at(ptr).get(off(ptr), out);
        return out;
    }

    @Override
    public void groupStart() {
        groups++;
    }

    @Override
    public void groupEnd(long deadlineNanos) {
        if (pending.size() == world && compute) {
            execute();
        }
        pending.clear();
    }

    @Override
    public void launch(int local, Call call) {
        launches++;
        extraMs += slowLaunch.getOrDefault(launches, 0.0);
        pending.add(Map.entry(local, call));
    }

    @Override
    public void sync(int local, long deadlineNanos) {
        syncs++;
        if (launches >= hangAfterLaunches) {
            while (System.nanoTime() < deadlineNanos) {
                Thread.onSpinWait();
            }
            throw new Failure("rank " + local + ": the collective did not complete before the time limit");
        }
    }

    private final List<Long> eventTimes = new ArrayList<>();
    /** Extra milliseconds the fake's events see around launch number N (a slow iteration), by launch count. */
    final Map<Integer, Double> slowLaunch = new HashMap<>();
    private double extraMs;

    @Override
    public long recordEvent(int local) {
        eventTimes.add(System.nanoTime() + (long) (extraMs * 1e6));
        return eventTimes.size() - 1;
    }

    @Override
    public double elapsedMs(int local, long start, long end) {
        return (eventTimes.get((int) end) - eventTimes.get((int) start)) / 1e6;
    }

    /** Per-iteration seconds of ranks in other processes, as if this were one process of a larger job. */
    double[] otherProcesses = {};

    @Override
    public double combine(double value, Measurement.Aggregate how) {
        DoubleStream all = DoubleStream.concat(DoubleStream.of(value),
                Arrays.stream(otherProcesses));
        return switch (how) {
            case OWN -> value;
            case AVG -> all.average().orElseThrow();
            case MIN -> all.min().orElseThrow();
            case MAX -> all.max().orElseThrow();
        };
    }

    @Override
    public void abort() {
        aborted = true;
    }

    @Override
    public void close() {
        closed = true;
    }

    private double get(Call c, long ptr, long i) {
        ByteBuffer b = at(ptr);
        int o = off(ptr) + (int) (i * 4);
        return c.type() == DataType.FLOAT32 ? b.getFloat(o) : b.getInt(o);
    }

    private void set(Call c, long ptr, long i, double v) {
        ByteBuffer b = at(ptr);
        int o = off(ptr) + (int) (i * 4);
        if (c.type() == DataType.FLOAT32) {
            b.putFloat(o, (float) v);
        } else {
            b.putInt(o, (int) v);
        }
    }

    private static double reduce(String op, double a, double b) {
        return switch (op) {
            case "max" -> Math.max(a, b);
            case "min" -> Math.min(a, b);
            default -> a + b;
        };
    }

    /** NCCL's in-place layouts (user guide, "In-place operations"); other overlapping buffers are undefined. */
    private void checkInPlace(Call c, int rank) {
        long n = c.count() * c.type().size();
        long send = c.send();
        long recv = c.recv();
        if (send / SPACE != recv / SPACE) {
            return;
        }
        boolean ok = switch (c.collective().name()) {
            case "allgather" -> send == recv + rank * n;
            case "reducescatter" -> recv == send + rank * n;
            default -> send == recv;
        };
        if (!ok) {
            throw new Failure(c.collective().name() + " on rank " + rank + ": send and receive buffers overlap outside NCCL's in-place layout");
        }
    }

    private void execute() {
        Call[] calls = new Call[world];
        pending.forEach(e -> calls[e.getKey()] = e.getValue());
        for (int r = 0; r < world; r++) {
            checkInPlace(calls[r], r);
        }
        Call c0 = calls[0];
        if (c0.type() != DataType.FLOAT32 && c0.type() != DataType.INT32) {
            return; // the fake computes int32 and float32 only
        }
        long n = c0.count();
        String name = c0.collective().name();
        long sendElems = switch (name) {
            case "reducescatter", "alltoall" -> n * world;
            default -> n;
        };
        double[][] in = new double[world][(int) sendElems];
        for (int r = 0; r < world; r++) {
            for (long i = 0; i < sendElems; i++) {
                in[r][(int) i] = get(calls[r], calls[r].send(), i);
            }
        }
        for (int r = 0; r < world; r++) {
            Call c = calls[r];
            for (long i = 0; i < n; i++) {
                switch (name) {
                    case "allreduce", "reduce" -> {
                        if (name.equals("allreduce") || r == c.root()) {
                            double v = in[0][(int) i];
                            for (int j = 1; j < world; j++) {
                                v = reduce(c.op(), v, in[j][(int) i]);
                            }
                            set(c, c.recv(), i, v);
                        }
                    }
                    case "reducescatter" -> {
                        double v = in[0][(int) (r * n + i)];
                        for (int j = 1; j < world; j++) {
                            v = reduce(c.op(), v, in[j][(int) (r * n + i)]);
                        }
                        set(c, c.recv(), i, v);
                    }
                    case "allgather" -> {
                        for (int j = 0; j < world; j++) {
                            set(c, c.recv(), j * n + i, in[j][(int) i]);
                        }
                    }
                    case "alltoall" -> {
                        for (int j = 0; j < world; j++) {
                            set(c, c.recv(), j * n + i, in[j][(int) (r * n + i)]);
                        }
                    }
                    case "broadcast" -> set(c, c.recv(), i, in[c.root()][(int) i]);
                    case "sendrecv" -> set(c, c.recv(), i, in[(r - 1 + world) % world][(int) i]);
                    default -> throw new IllegalStateException(name);
                }
            }
        }
        if (corrupt && n > 0) {
            set(calls[0], calls[0].recv(), 0, -7);
        }
    }
}
