package io.nccldoctor.collectives.measure;

import com.sun.jna.Memory;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;
import io.nccldoctor.collectives.coll.DataType;
import io.nccldoctor.core.libs.NativeCalls;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * The real backend: the CUDA driver API and NCCL through JNA, each symbol looked up by name at its call, so a
 * function the loaded NCCL lacks is a {@link Backend.Failure} and never a dead JVM. One primary context, stream and
 * communicator per local GPU; communicators from ncclCommInitAll in a single process, or from ncclCommInitRank with
 * the id the caller shares across processes (NCCL_COMM_ID or a rendezvous).
 */
public final class JnaBackend implements Backend {

    /** ncclUniqueId: 128 bytes, passed by value. */
    public static final class UniqueId extends Structure implements Structure.ByValue {
        public byte[] internal = new byte[128];

        public UniqueId() {
        }

        public UniqueId(byte[] bytes) {
            System.arraycopy(bytes, 0, internal, 0, 128);
        }

        @Override
        protected List<String> getFieldOrder() {
            return List.of("internal");
        }
    }

    private static final int CUDA_ERROR_NOT_READY = 600;
    private static final int NCCL_IN_PROGRESS = 7;
    private static final int CU_STREAM_NON_BLOCKING = 1;
    private static final long FILL_BLOCK = 16L << 20;

    private final NativeLibrary cuda;
    private final NativeLibrary nccl;
    private final String version;
    private final int versionCode;
    private final int world;
    private final int firstRank;
    private final int[] devices;
    private final Pointer[] contexts;
    private final Pointer[] streams;
    private final Pointer[] comms;
    private final List<long[]> allocations = new ArrayList<>();
    private boolean aborted;
    private long[] combineSlots;

    private JnaBackend(NativeLibrary cuda, NativeLibrary nccl, int[] devices, int world, int firstRank) {
        this.cuda = cuda;
        this.nccl = nccl;
        this.devices = devices.clone();
        this.world = world;
        this.firstRank = firstRank;
        IntByReference v = new IntByReference();
        ncclCheck("ncclGetVersion", v);
        this.versionCode = v.getValue();
        this.version = NativeCalls.ncclVersion(versionCode);
        this.contexts = new Pointer[devices.length];
        this.streams = new Pointer[devices.length];
        this.comms = new Pointer[devices.length];
        cudaCheck("cuInit", 0);
        for (int l = 0; l < devices.length; l++) {
            IntByReference dev = new IntByReference();
            cudaCheck("cuDeviceGet", dev, devices[l]);
            PointerByReference ctx = new PointerByReference();
            cudaCheck("cuDevicePrimaryCtxRetain", ctx, dev.getValue());
            contexts[l] = ctx.getValue();
            cudaCheck("cuCtxSetCurrent", contexts[l]);
            PointerByReference stream = new PointerByReference();
            cudaCheck("cuStreamCreate", stream, CU_STREAM_NON_BLOCKING);
            streams[l] = stream.getValue();
        }
    }

    /** All local GPUs in one communicator of devices.length ranks (ncclCommInitAll, nccl-tests -g N in one process). */
    /**
     * Sets variables in this process's C environment (libc setenv), where NCCL's getenv reads them; Java's own view of
     * the environment does not change. Call before NCCL initialises (it reads NCCL_DEBUG once).
     *
     * @throws Backend.Failure when libc refuses one
     */
    public static void setenv(java.util.Map<String, String> vars) {
        com.sun.jna.Function f = com.sun.jna.Function.getFunction("c", "setenv");
        vars.forEach((k, v) -> {
            if (f.invokeInt(new Object[] {k, v, 1}) != 0) {
                throw new Backend.Failure("setenv " + k + " failed (errno " + com.sun.jna.Native.getLastError() + ")");
            }
        });
    }

    /** libc getenv: what NCCL would read. */
    public static java.util.Optional<String> getenv(String name) {
        Pointer p = com.sun.jna.Function.getFunction("c", "getenv").invokePointer(new Object[] {name});
        return p == null ? java.util.Optional.empty() : java.util.Optional.of(p.getString(0));
    }

    public static JnaBackend singleProcess(String libcuda, String libnccl, int[] devices) {
        JnaBackend b = new JnaBackend(load(libcuda), load(libnccl), devices, devices.length, 0);
        Memory list = new Memory(4L * devices.length);
        for (int i = 0; i < devices.length; i++) {
            list.setInt(4L * i, devices[i]);
        }
        Memory out = new Memory(8L * devices.length);
        b.ncclCheck("ncclCommInitAll", out, devices.length, list);
        for (int i = 0; i < devices.length; i++) {
            b.comms[i] = out.getPointer(8L * i);
        }
        return b;
    }

    /** This process's GPUs as ranks processRank × n … of a world of worldSize ranks, joined through the shared id. */
    public static JnaBackend multiProcess(String libcuda, String libnccl, int[] devices, int worldSize, int processRank,
                                          java.util.function.Function<JnaBackend, byte[]> sharedId) {
        JnaBackend b = new JnaBackend(load(libcuda), load(libnccl), devices, worldSize, processRank * devices.length);
        UniqueId id = new UniqueId(sharedId.apply(b));
        b.ncclCheck("ncclGroupStart");
        for (int l = 0; l < devices.length; l++) {
            b.cudaCheck("cuCtxSetCurrent", b.contexts[l]);
            PointerByReference comm = new PointerByReference();
            b.ncclCheck("ncclCommInitRank", comm, worldSize, id, b.firstRank + l);
            b.comms[l] = comm.getValue();
        }
        b.ncclCheck("ncclGroupEnd");
        return b;
    }

    /** ncclGetUniqueId: with NCCL_COMM_ID set, the same bytes on every rank; otherwise a fresh id to publish. */
    public byte[] uniqueId() {
        UniqueId id = new UniqueId();
        ncclCheck("ncclGetUniqueId", id.getPointer());
        id.read();
        return id.internal.clone();
    }

    private static NativeLibrary load(String path) {
        try {
            return NativeLibrary.getInstance(path);
        } catch (LinkageError e) {
            throw new Failure("cannot load " + path + ": " + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
        }
    }

    private int call(NativeLibrary lib, String function, Object... args) {
        try {
            return lib.getFunction(function).invokeInt(args);
        } catch (UnsatisfiedLinkError e) {
            throw new Failure(lib.getName() + " has no " + function + (lib == nccl ? " (NCCL " + version + ")" : ""));
        }
    }

    private void cudaCheck(String function, Object... args) {
        int rc = call(cuda, function, args);
        if (rc != 0) {
            throw new Failure(function + " returned CUDA error " + rc);
        }
    }

    private void ncclCheck(String function, Object... args) {
        int rc = call(nccl, function, args);
        if (rc != 0 && rc != NCCL_IN_PROGRESS) {
            throw new Failure(function + " failed: " + ncclError(rc));
        }
    }

    private String ncclError(int rc) {
        try {
            Pointer s = nccl.getFunction("ncclGetErrorString").invokePointer(new Object[] {rc});
            return (s == null ? "error" : s.getString(0)) + " (" + rc + ")";
        } catch (UnsatisfiedLinkError e) {
            return "error " + rc;
        }
    }

    @Override
    public String ncclVersion() {
        return version;
    }

    @Override
    public int localRanks() {
        return devices.length;
    }

    @Override
    public int worldSize() {
        return world;
    }

    @Override
    public int rank(int local) {
        return firstRank + local;
    }

    @Override
    public long alloc(int local, long bytes) {
        cudaCheck("cuCtxSetCurrent", contexts[local]);
        LongByReference ptr = new LongByReference();
        cudaCheck("cuMemAlloc_v2", ptr, Math.max(bytes, 1));
        allocations.add(new long[] {local, ptr.getValue()});
        return ptr.getValue();
    }

    @Override
    public void fill(int local, long ptr, long bytes, byte[] element) {
        cudaCheck("cuCtxSetCurrent", contexts[local]);
        long block = Math.min(bytes, FILL_BLOCK / element.length * element.length); // whole patterns, so blocks join up
        if (block == 0) {
            return;
        }
        Memory host = new Memory(block);
        for (long i = 0; i < block; i++) {
            host.setByte(i, element[(int) (i % element.length)]);
        }
        for (long at = 0; at < bytes; at += block) {
            cudaCheck("cuMemcpyHtoD_v2", ptr + at, host, Math.min(block, bytes - at));
        }
    }

    @Override
    public byte[] read(int local, long ptr, long bytes) {
        if (bytes == 0) {
            return new byte[0];
        }
        cudaCheck("cuCtxSetCurrent", contexts[local]);
        Memory host = new Memory(bytes);
        cudaCheck("cuMemcpyDtoH_v2", host, ptr, bytes);
        return host.getByteArray(0, Math.toIntExact(bytes));
    }

    @Override
    public void groupStart() {
        ncclCheck("ncclGroupStart");
    }

    @Override
    public void groupEnd() {
        ncclCheck("ncclGroupEnd");
    }

    /** ncclDataType_t in nccl.h order. */
    static int type(DataType t) {
        return switch (t) {
            case INT8 -> 0;
            case UINT8 -> 1;
            case INT32 -> 2;
            case UINT32 -> 3;
            case INT64 -> 4;
            case UINT64 -> 5;
            case FLOAT16 -> 6;
            case FLOAT32 -> 7;
            case FLOAT64 -> 8;
            case BFLOAT16 -> 9;
            case FP8_E4M3 -> 10;
            case FP8_E5M2 -> 11;
        };
    }

    /** ncclRedOp_t: ncclSum, ncclProd, ncclMax, ncclMin, ncclAvg. */
    static int op(String op) {
        return List.of("sum", "prod", "max", "min", "avg").indexOf(op);
    }

    @Override
    public void launch(int local, Call c) {
        Pointer send = new Pointer(c.send());
        Pointer recv = new Pointer(c.recv());
        Pointer comm = comms[local];
        Pointer stream = streams[local];
        int t = type(c.type());
        long n = c.count();
        int rank = rank(local);
        switch (c.collective().name()) {
            case "allreduce" -> ncclCheck("ncclAllReduce", send, recv, n, t, op(c.op()), comm, stream);
            case "allgather" -> ncclCheck("ncclAllGather", send, recv, n, t, comm, stream);
            case "reducescatter" -> ncclCheck("ncclReduceScatter", send, recv, n, t, op(c.op()), comm, stream);
            case "broadcast" -> ncclCheck("ncclBroadcast", send, recv, n, t, c.root(), comm, stream);
            case "reduce" -> ncclCheck("ncclReduce", send, recv, n, t, op(c.op()), c.root(), comm, stream);
            case "sendrecv" -> {
                ncclCheck("ncclSend", send, n, t, (rank + 1) % world, comm, stream);
                ncclCheck("ncclRecv", recv, n, t, (rank - 1 + world) % world, comm, stream);
            }
            case "alltoall" -> {
                if (versionCode >= 22800) { // ncclAlltoAll appears in 2.28 (nccl-internals §1.1)
                    ncclCheck("ncclAlltoAll", send, recv, n, t, comm, stream);
                } else {
                    long bytes = n * c.type().size();
                    for (int p = 0; p < world; p++) {
                        ncclCheck("ncclSend", new Pointer(c.send() + p * bytes), n, t, p, comm, stream);
                        ncclCheck("ncclRecv", new Pointer(c.recv() + p * bytes), n, t, p, comm, stream);
                    }
                }
            }
            default -> throw new Failure("no NCCL call for " + c.collective().name());
        }
    }

    private final List<long[]> events = new ArrayList<>();

    @Override
    public long recordEvent(int local) {
        cudaCheck("cuCtxSetCurrent", contexts[local]);
        PointerByReference ev = new PointerByReference();
        cudaCheck("cuEventCreate", ev, 0);
        long handle = Pointer.nativeValue(ev.getValue());
        events.add(new long[] {local, handle});
        cudaCheck("cuEventRecord", ev.getValue(), streams[local]);
        return handle;
    }

    @Override
    public double elapsedMs(int local, long start, long end) {
        cudaCheck("cuCtxSetCurrent", contexts[local]);
        com.sun.jna.ptr.FloatByReference ms = new com.sun.jna.ptr.FloatByReference();
        cudaCheck("cuEventElapsedTime", ms, new Pointer(start), new Pointer(end));
        return ms.getValue();
    }

    @Override
    public void sync(int local, long deadlineNanos) {
        cudaCheck("cuCtxSetCurrent", contexts[local]);
        while (true) {
            int rc = call(cuda, "cuStreamQuery", streams[local]);
            if (rc == 0) {
                return;
            }
            if (rc != CUDA_ERROR_NOT_READY) {
                throw new Failure("rank " + rank(local) + ": cuStreamQuery returned CUDA error " + rc);
            }
            IntByReference async = new IntByReference();
            ncclCheck("ncclCommGetAsyncError", comms[local], async);
            if (async.getValue() != 0 && async.getValue() != NCCL_IN_PROGRESS) {
                throw new Failure("rank " + rank(local) + ": communicator error " + ncclError(async.getValue()));
            }
            if (System.nanoTime() > deadlineNanos) {
                throw new Failure("rank " + rank(local) + ": the collective did not complete before the time limit (a hang)");
            }
            LockSupport.parkNanos(20_000);
        }
    }

    @Override
    public double combine(double value, Measurement.Aggregate how) {
        if (world == devices.length || how == Measurement.Aggregate.OWN) {
            return value;
        }
        if (combineSlots == null) {
            combineSlots = new long[devices.length];
            for (int l = 0; l < devices.length; l++) {
                combineSlots[l] = alloc(l, 8);
            }
        }
        long[] ptrs = combineSlots;
        groupStart();
        for (int l = 0; l < devices.length; l++) {
            cudaCheck("cuCtxSetCurrent", contexts[l]);
            Memory v = new Memory(8);
            v.setDouble(0, value);
            cudaCheck("cuMemcpyHtoD_v2", ptrs[l], v, 8L);
            ncclCheck("ncclAllReduce", new Pointer(ptrs[l]), new Pointer(ptrs[l]), 1L, type(DataType.FLOAT64),
                    op(how == Measurement.Aggregate.AVG ? "sum" : how.name().toLowerCase(java.util.Locale.ROOT)), comms[l], streams[l]);
        }
        groupEnd();
        long deadline = System.nanoTime() + 60_000_000_000L;
        for (int l = 0; l < devices.length; l++) {
            sync(l, deadline);
        }
        double r = java.nio.ByteBuffer.wrap(read(0, ptrs[0], 8)).order(java.nio.ByteOrder.LITTLE_ENDIAN).getDouble();
        return how == Measurement.Aggregate.AVG ? r / world : r;
    }

    @Override
    public void abort() {
        aborted = true;
        for (Pointer c : comms) {
            if (c != null) {
                try {
                    call(nccl, "ncclCommAbort", c);
                } catch (Failure ignored) {
                    // aborting is best effort: the result already says what failed
                }
            }
        }
    }

    @Override
    public void close() {
        for (int l = 0; l < comms.length; l++) {
            if (comms[l] != null && !aborted) {
                call(nccl, "ncclCommDestroy", comms[l]);
            }
        }
        for (long[] e : events) {
            call(cuda, "cuCtxSetCurrent", contexts[(int) e[0]]);
            call(cuda, "cuEventDestroy_v2", new Pointer(e[1]));
        }
        for (long[] a : allocations) {
            call(cuda, "cuCtxSetCurrent", contexts[(int) a[0]]);
            call(cuda, "cuMemFree_v2", a[1]);
        }
        for (int l = 0; l < devices.length; l++) {
            if (streams[l] != null) {
                call(cuda, "cuStreamDestroy_v2", streams[l]);
            }
            IntByReference dev = new IntByReference();
            if (call(cuda, "cuDeviceGet", dev, devices[l]) == 0) {
                call(cuda, "cuDevicePrimaryCtxRelease_v2", dev.getValue());
            }
        }
    }
}
