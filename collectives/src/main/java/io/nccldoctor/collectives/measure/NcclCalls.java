package io.nccldoctor.collectives.measure;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.PointerByReference;
import io.nccldoctor.collectives.coll.DataType;
import io.nccldoctor.core.libs.JnaLoader;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The argument layouts of the NCCL and CUDA calls {@link JnaBackend} makes, in one place: enum values, the
 * ncclConfig_t it passes, the collective calls with their argument order, and the lookups that may fail.
 */
final class NcclCalls {

    /** A checked call: the function's name, then its arguments. */
    @FunctionalInterface
    interface Check {
        void call(String function, Object... args);
    }

    /**
     * ncclConfig_t as nccl.h 2.14 declares it ({size_t size; unsigned magic; unsigned version; int blocking}, 24
     * bytes with padding) and NCCL_CONFIG_INITIALIZER fills it: size, NCCL_API_MAGIC 0xcafebeef, version 2.14.0.
     * Every later NCCL reads a config by its size and version and keeps its defaults for the fields it lacks
     * (src/init.cc parseCommConfig), so this one config serves NCCL 2.14 to 2.30.
     */
    static final int CONFIG_BYTES = 24;
    static final int NCCL_API_MAGIC = 0xcafebeef;
    static final int CONFIG_VERSION = 21400;

    private NcclCalls() {
    }

    static Memory nonBlockingConfig() {
        Memory config = new Memory(CONFIG_BYTES);
        config.clear();
        config.setLong(0, CONFIG_BYTES);
        config.setInt(8, NCCL_API_MAGIC);
        config.setInt(12, CONFIG_VERSION);
        config.setInt(16, 0); // blocking = 0
        return config;
    }

    static NativeLibrary load(String path) {
        try {
            return JnaLoader.open(path);
        } catch (LinkageError e) {
            throw new Backend.Failure("cannot load " + path + ": " + e.getMessage());
        }
    }

    static boolean has(NativeLibrary lib, String symbol) {
        try {
            lib.getFunction(symbol);
            return true;
        } catch (UnsatisfiedLinkError e) {
            return false;
        }
    }

    /** The first of the names the library exports. */
    static Optional<Function> firstOf(NativeLibrary lib, String... names) {
        for (String n : names) {
            if (has(lib, n)) {
                return Optional.of(lib.getFunction(n));
            }
        }
        return Optional.empty();
    }

    /** NCCL's own text for a result code, and the code. */
    static String error(NativeLibrary nccl, int rc) {
        try {
            Pointer s = nccl.getFunction("ncclGetErrorString").invokePointer(new Object[] {rc});
            return (s == null ? "error" : s.getString(0)) + " (" + rc + ")";
        } catch (UnsatisfiedLinkError e) {
            return "error " + rc;
        }
    }

    /** The driver's name for a CUresult (cuGetErrorName), if it has one. */
    static Optional<String> cudaName(NativeLibrary cuda, int rc) {
        try {
            PointerByReference name = new PointerByReference();
            int r = cuda.getFunction("cuGetErrorName").invokeInt(new Object[] {rc, name});
            return r == 0 && name.getValue() != null ? Optional.of(name.getValue().getString(0)) : Optional.empty();
        } catch (UnsatisfiedLinkError e) {
            return Optional.empty();
        }
    }

    static void setenv(Map<String, String> vars) {
        Function f = JnaLoader.libc("setenv");
        vars.forEach((k, v) -> {
            if (f.invokeInt(new Object[] {k, v, 1}) != 0) {
                throw new Backend.Failure("setenv " + k + " failed (errno " + Native.getLastError() + ")");
            }
        });
    }

    static Optional<String> getenv(String name) {
        Pointer p = JnaLoader.libc("getenv").invokePointer(new Object[] {name});
        return p == null ? Optional.empty() : Optional.of(p.getString(0));
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

    /**
     * One rank's NCCL call for a collective, with nccl-tests' peers for sendrecv (send to rank + 1, receive from
     * rank - 1) and, before ncclAlltoAll, alltoall as a send and a receive per peer (alltoall.cu).
     */
    static void launch(Check check, Backend.Call c, Pointer comm, Pointer stream, int rank, int world, boolean alltoAll) {
        Pointer send = new Pointer(c.send());
        Pointer recv = new Pointer(c.recv());
        int t = type(c.type());
        long n = c.count();
        switch (c.collective().name()) {
            case "allreduce" -> check.call("ncclAllReduce", send, recv, n, t, op(c.op()), comm, stream);
            case "allgather" -> check.call("ncclAllGather", send, recv, n, t, comm, stream);
            case "reducescatter" -> check.call("ncclReduceScatter", send, recv, n, t, op(c.op()), comm, stream);
            case "broadcast" -> check.call("ncclBroadcast", send, recv, n, t, c.root(), comm, stream);
            case "reduce" -> check.call("ncclReduce", send, recv, n, t, op(c.op()), c.root(), comm, stream);
            case "sendrecv" -> {
                check.call("ncclSend", send, n, t, (rank + 1) % world, comm, stream);
                check.call("ncclRecv", recv, n, t, (rank - 1 + world) % world, comm, stream);
            }
            case "alltoall" -> {
                if (alltoAll) {
                    check.call("ncclAlltoAll", send, recv, n, t, comm, stream);
                } else {
                    long bytes = n * c.type().size();
                    for (int p = 0; p < world; p++) {
                        check.call("ncclSend", new Pointer(c.send() + p * bytes), n, t, p, comm, stream);
                        check.call("ncclRecv", new Pointer(c.recv() + p * bytes), n, t, p, comm, stream);
                    }
                }
            }
            default -> throw new Backend.Failure("no NCCL call for " + c.collective().name());
        }
    }
}
