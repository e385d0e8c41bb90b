package io.nccldoctor.collectives.measure;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import com.sun.jna.ptr.FloatByReference;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;
import io.nccldoctor.collectives.coll.Collective;
import io.nccldoctor.collectives.coll.DataType;
import io.nccldoctor.core.libs.CudaErrors;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

/**
 * The real backend: the CUDA driver API and NCCL through JNA, each symbol looked up by name at its call, so a
 * function the loaded NCCL lacks is a {@link Backend.Failure} and never a dead JVM. One primary context, stream and
 * communicator per local GPU.
 *
 * <p>Where the NCCL has it ({@link NcclApi#nonBlockingInit()}), communicators are non-blocking: created by
 * ncclCommInitRankConfig with blocking = 0 in one group, and every wait (initialisation, each ncclGroupEnd, each
 * stream) polls ncclCommGetAsyncError against a deadline, after which the communicators are aborted. An older NCCL
 * initialises blocking (ncclCommInitAll, or ncclCommInitRank in a group), which only a process boundary can bound:
 * callers run it in a child killed at the deadline. Set-up that fails half-way releases what it took.
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

    /** Where the communicators' unique id comes from: made here, from NCCL_COMM_ID, or from a rendezvous. */
    @FunctionalInterface
    public interface IdSource {
        /** @return the 128 bytes, or null for ncclCommInitAll (an older NCCL in one process) */
        byte[] id(JnaBackend backend);
    }

    private static final int CUDA_ERROR_NOT_READY = 600;
    private static final int NCCL_IN_PROGRESS = 7;
    private static final int CU_STREAM_NON_BLOCKING = 1;
    private static final long FILL_BLOCK = 16L << 20;
    private static final Collective ALLREDUCE = Collective.parse("allreduce");

    private final NativeLibrary cuda;
    private final NativeLibrary nccl;
    private final NcclApi api;
    private final int world;
    private final int firstRank;
    private final int[] devices;
    private final Duration timeout;
    private final int[] handles;
    private final Pointer[] contexts;
    private final Pointer[] streams;
    private final Pointer[] comms;
    private final List<long[]> allocations = new ArrayList<>();
    private final List<long[]> events = new ArrayList<>();
    private int groupDepth;
    private boolean aborted;
    private long[] combineSlots;
    private Function elapsedTime;

    private JnaBackend(NativeLibrary cuda, NativeLibrary nccl, int[] devices, int world, int firstRank, Duration timeout) {
        this.cuda = cuda;
        this.nccl = nccl;
        this.devices = devices.clone();
        this.world = world;
        this.firstRank = firstRank;
        this.timeout = timeout;
        IntByReference v = new IntByReference();
        ncclCheck("ncclGetVersion", v);
        this.api = NcclApi.of(v.getValue(), s -> NcclCalls.has(nccl, s));
        this.handles = new int[devices.length];
        this.contexts = new Pointer[devices.length];
        this.streams = new Pointer[devices.length];
        this.comms = new Pointer[devices.length];
    }

    /** A context and a non-blocking stream per local GPU. */
    private void setUp() {
        cudaCheck("cuInit", 0);
        for (int l = 0; l < devices.length; l++) {
            IntByReference dev = new IntByReference();
            cudaCheck("cuDeviceGet", dev, devices[l]);
            handles[l] = dev.getValue();
            PointerByReference ctx = new PointerByReference();
            cudaCheck("cuDevicePrimaryCtxRetain", ctx, handles[l]);
            contexts[l] = ctx.getValue();
            cudaCheck("cuCtxSetCurrent", contexts[l]);
            PointerByReference stream = new PointerByReference();
            cudaCheck("cuStreamCreate", stream, CU_STREAM_NON_BLOCKING);
            streams[l] = stream.getValue();
        }
    }

    /**
     * All local GPUs in one communicator of devices.length ranks (nccl-tests -g N in one process).
     *
     * @param timeout how long any one wait for NCCL may take (initialisation, a group's launch, a stream)
     */
    public static JnaBackend singleProcess(String libcuda, String libnccl, int[] devices, Duration timeout) {
        return open(libcuda, libnccl, devices, devices.length, 0, timeout, b -> b.api.nonBlockingInit() ? b.uniqueId() : null);
    }

    /** With the default wait of ten minutes. */
    public static JnaBackend singleProcess(String libcuda, String libnccl, int[] devices) {
        return singleProcess(libcuda, libnccl, devices, Duration.ofMinutes(10));
    }

    /** This process's GPUs as ranks processRank × n … of a world of worldSize ranks, joined through the shared id. */
    public static JnaBackend multiProcess(String libcuda, String libnccl, int[] devices, int worldSize, int processRank, Duration timeout,
                                          IdSource sharedId) {
        return open(libcuda, libnccl, devices, worldSize, processRank * devices.length, timeout, sharedId);
    }

    private static JnaBackend open(String libcuda, String libnccl, int[] devices, int world, int firstRank, Duration timeout,
                                   IdSource id) {
        JnaBackend b = new JnaBackend(NcclCalls.load(libcuda), NcclCalls.load(libnccl), devices, world, firstRank, timeout);
        try {
            b.setUp();
            b.initComms(id.id(b));
            return b;
        } catch (RuntimeException e) {
            b.abort();
            b.close();
            throw e;
        }
    }

    /** Whether this NCCL can be initialised within a deadline in this process (see the class comment). */
    public static boolean boundedInit(String libnccl) {
        return NcclApi.of(libnccl).map(NcclApi::nonBlockingInit).orElse(false);
    }

    private void initComms(byte[] id) {
        long deadline = System.nanoTime() + timeout.toNanos();
        if (api.nonBlockingInit()) {
            Memory config = NcclCalls.nonBlockingConfig();
            groupStart();
            for (int l = 0; l < devices.length; l++) {
                cudaCheck("cuCtxSetCurrent", contexts[l]);
                PointerByReference comm = new PointerByReference();
                ncclCheck("ncclCommInitRankConfig", comm, world, new UniqueId(id), firstRank + l, config);
                comms[l] = comm.getValue();
            }
            groupDepth--;
            ncclCheck("ncclGroupEnd");
            settle(deadline, "initialising its communicator after " + timeout.toSeconds() + " s");
            return;
        }
        if (id == null) {
            Memory list = new Memory(4L * devices.length);
            for (int i = 0; i < devices.length; i++) {
                list.setInt(4L * i, devices[i]);
            }
            Memory out = new Memory(8L * devices.length);
            ncclCheck("ncclCommInitAll", out, devices.length, list);
            for (int i = 0; i < devices.length; i++) {
                comms[i] = out.getPointer(8L * i);
            }
            return;
        }
        groupStart();
        for (int l = 0; l < devices.length; l++) {
            cudaCheck("cuCtxSetCurrent", contexts[l]);
            PointerByReference comm = new PointerByReference();
            ncclCheck("ncclCommInitRank", comm, world, new UniqueId(id), firstRank + l);
            comms[l] = comm.getValue();
        }
        groupDepth--;
        ncclCheck("ncclGroupEnd");
        settle(deadline, "initialising its communicator after " + timeout.toSeconds() + " s");
    }

    /** ncclGetUniqueId: with NCCL_COMM_ID set, the same bytes on every rank; otherwise a fresh id to publish. */
    public byte[] uniqueId() {
        UniqueId id = new UniqueId();
        ncclCheck("ncclGetUniqueId", id.getPointer());
        id.read();
        return id.internal.clone();
    }

    /**
     * Sets variables in this process's C environment (libc setenv), where NCCL's getenv reads them; Java's own view of
     * the environment does not change. Call before NCCL initialises (it reads NCCL_DEBUG once).
     *
     * @throws Backend.Failure when libc refuses one
     */
    public static void setenv(Map<String, String> vars) {
        NcclCalls.setenv(vars);
    }

    /** libc getenv: what NCCL would read. */
    public static Optional<String> getenv(String name) {
        return NcclCalls.getenv(name);
    }

    private int call(NativeLibrary lib, String function, Object... args) {
        try {
            return lib.getFunction(function).invokeInt(args);
        } catch (UnsatisfiedLinkError e) {
            throw new Failure(lib.getName() + " has no " + function + (lib == nccl && api != null ? " (NCCL " + api.version() + ")" : ""));
        }
    }

    private void cudaCheck(String function, Object... args) {
        int rc = call(cuda, function, args);
        if (rc != 0) {
            throw new Failure(function + " returned " + CudaErrors.describe(rc, NcclCalls.cudaName(cuda, rc)));
        }
    }

    private void ncclCheck(String function, Object... args) {
        int rc = call(nccl, function, args);
        if (rc != 0 && rc != NCCL_IN_PROGRESS) {
            throw new Failure(function + " failed: " + NcclCalls.error(nccl, rc));
        }
    }

    @Override
    public String ncclVersion() {
        return api.version();
    }

    /** What the loaded NCCL offers. */
    public NcclApi api() {
        return api;
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

    /**
     * On the rank's own stream, so the collective after it sees the data: a synchronous cuMemcpyHtoD_v2 runs on the
     * legacy default stream, which a CU_STREAM_NON_BLOCKING stream does not wait for, and from pageable memory it may
     * return before the copy lands. From pageable memory the async copy stages the bytes before it returns (CUDA
     * Driver API, API synchronization behavior), so the host block may be reused at once.
     */
    @Override
    public void fill(int local, long ptr, long bytes, byte[] element) {
        cudaCheck("cuCtxSetCurrent", contexts[local]);
        long block = Math.min(bytes, FILL_BLOCK / element.length * element.length); // whole patterns, so blocks join up
        if (block == 0) {
            return;
        }
        byte[] pattern = new byte[(int) block];
        for (int i = 0; i < pattern.length; i += element.length) {
            System.arraycopy(element, 0, pattern, i, Math.min(element.length, pattern.length - i));
        }
        Memory host = new Memory(block);
        host.write(0, pattern, 0, pattern.length); // one copy, not a native call per byte
        for (long at = 0; at < bytes; at += block) {
            cudaCheck("cuMemcpyHtoDAsync_v2", ptr + at, host, Math.min(block, bytes - at), streams[local]);
        }
    }

    /** After the rank's stream completed (the caller synchronised it), a synchronous copy to the host. */
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
        groupDepth++;
    }

    /** Ends the group and waits until every communicator has launched (non-blocking ones answer ncclInProgress). */
    @Override
    public void groupEnd(long deadlineNanos) {
        groupDepth--; // NCCL closes the group even when its end reports an error
        ncclCheck("ncclGroupEnd");
        settle(deadlineNanos, "launching its collective at the time limit");
    }

    /** Polls each communicator until it is no longer ncclInProgress; an error, or the deadline, is a Failure. */
    private void settle(long deadlineNanos, String what) {
        for (int l = 0; l < comms.length; l++) {
            while (true) {
                int state = asyncError(l);
                if (state == 0) {
                    break;
                }
                if (state != NCCL_IN_PROGRESS) {
                    throw new Failure("rank " + rank(l) + ": communicator error " + NcclCalls.error(nccl, state));
                }
                if (System.nanoTime() > deadlineNanos) {
                    throw new Failure("rank " + rank(l) + ": NCCL was still " + what + " (a hang: "
                            + "a rank that never joined, a peer that stopped, or a network that does not connect); the communicators "
                            + "were aborted");
                }
                LockSupport.parkNanos(50_000);
            }
        }
    }

    private int asyncError(int local) {
        IntByReference state = new IntByReference();
        ncclCheck("ncclCommGetAsyncError", comms[local], state);
        return state.getValue();
    }

    @Override
    public void launch(int local, Call c) {
        api.unsupported(c.type()).ifPresent(why -> {
            throw new Failure(why);
        });
        cudaCheck("cuCtxSetCurrent", contexts[local]);
        NcclCalls.launch(this::ncclCheck, c, comms[local], streams[local], rank(local), world, api.alltoAll());
    }

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

    /** cuEventElapsedTime_v2 (cuda.h 13.0 maps the name to it), else the plain name of older drivers. */
    @Override
    public double elapsedMs(int local, long start, long end) {
        cudaCheck("cuCtxSetCurrent", contexts[local]);
        if (elapsedTime == null) {
            elapsedTime = NcclCalls.firstOf(cuda, "cuEventElapsedTime_v2", "cuEventElapsedTime")
                    .orElseThrow(() -> new Failure(cuda.getName() + " has neither cuEventElapsedTime_v2 nor cuEventElapsedTime"));
        }
        FloatByReference ms = new FloatByReference();
        int rc = elapsedTime.invokeInt(new Object[] {ms, new Pointer(start), new Pointer(end)});
        if (rc != 0) {
            throw new Failure(elapsedTime.getName() + " returned " + CudaErrors.describe(rc, NcclCalls.cudaName(cuda, rc)));
        }
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
                throw new Failure("rank " + rank(local) + ": cuStreamQuery returned " + CudaErrors.describe(rc, NcclCalls.cudaName(cuda, rc)));
            }
            int state = asyncError(local);
            if (state != 0 && state != NCCL_IN_PROGRESS) {
                throw new Failure("rank " + rank(local) + ": communicator error " + NcclCalls.error(nccl, state));
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
        byte[] bytes = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putDouble(value).array();
        String op = how == Measurement.Aggregate.AVG ? "sum" : how.name().toLowerCase(Locale.ROOT);
        long deadline = System.nanoTime() + timeout.toNanos();
        for (int l = 0; l < devices.length; l++) {
            fill(l, combineSlots[l], 8, bytes);
        }
        groupStart();
        for (int l = 0; l < devices.length; l++) {
            launch(l, new Call(ALLREDUCE, combineSlots[l], combineSlots[l], 1, DataType.FLOAT64, op, 0));
        }
        groupEnd(deadline);
        for (int l = 0; l < devices.length; l++) {
            sync(l, deadline);
        }
        double r = ByteBuffer.wrap(read(0, combineSlots[0], 8)).order(ByteOrder.LITTLE_ENDIAN).getDouble();
        return how == Measurement.Aggregate.AVG ? r / world : r;
    }

    /**
     * Aborts every communicator (ncclCommAbort). A group left open by a failed launch is ended first: inside an open
     * group NCCL defers an abort's reclaim to the group's end (ncclCommAbort's ncclGroupStartInternal /
     * ncclGroupEndInternal, src/init.cc), so without it the communicators would never be freed.
     */
    @Override
    public void abort() {
        aborted = true;
        while (groupDepth > 0) {
            groupDepth--;
            callQuietly(nccl, "ncclGroupEnd");
        }
        for (Pointer c : comms) {
            if (c != null) {
                callQuietly(nccl, "ncclCommAbort", c);
            }
        }
    }

    private void callQuietly(NativeLibrary lib, String function, Object... args) {
        try {
            call(lib, function, args);
        } catch (Failure ignored) {
            // best effort on the way out: the result already says what failed
        }
    }

    /** Frees what was set up, also after a set-up that failed half-way. */
    @Override
    public void close() {
        for (Pointer c : comms) {
            if (c != null && !aborted) {
                callQuietly(nccl, "ncclCommDestroy", c);
            }
        }
        for (long[] e : events) {
            callQuietly(cuda, "cuCtxSetCurrent", contexts[(int) e[0]]);
            callQuietly(cuda, "cuEventDestroy_v2", new Pointer(e[1]));
        }
        for (long[] a : allocations) {
            callQuietly(cuda, "cuCtxSetCurrent", contexts[(int) a[0]]);
            callQuietly(cuda, "cuMemFree_v2", a[1]);
        }
        for (int l = 0; l < devices.length; l++) {
            if (streams[l] != null) {
                callQuietly(cuda, "cuStreamDestroy_v2", streams[l]);
            }
            if (contexts[l] != null) {
                callQuietly(cuda, "cuDevicePrimaryCtxRelease_v2", handles[l]);
            }
        }
        callQuietly(cuda, "cuCtxSetCurrent", Pointer.NULL);
    }
}
