package io.nccldoctor.collectives.measure;

import io.nccldoctor.collectives.coll.DataType;
import io.nccldoctor.core.Fact;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The data a validation run sends and expects. Global rank r fills its send buffer with r + 1 + (index mod 7), so a
 * result depends on both the sending rank and the position (a wrong offset shows), and every element is a small
 * integer (sums over 24 ranks stay below 450; integer types wrap as NCCL's integer reductions do). Half and bfloat16 compare within 1% (partial sums may
 * round), the others exactly. FP8 types are not validated.
 */
final class Pattern {

    private Pattern() {
    }

    static boolean supported(DataType t, String op) {
        return t != DataType.FP8_E4M3 && t != DataType.FP8_E5M2 && (op.equals("sum") || op.equals("max") || op.equals("min"));
    }

    static String unsupportedReason(DataType t, String op) {
        return t == DataType.FP8_E4M3 || t == DataType.FP8_E5M2 ? "FP8 results are not validated"
                : "validated for sum, max and min only, not " + op;
    }

    /** Element values repeat with this period along each send buffer. */
    static final int PERIOD = 7;

    /** The reduction over all ranks j of (j + 1 + c): sum, max or min. */
    static long reduced(String op, int world, long c) {
        return switch (op) {
            case "sum" -> (long) world * (world + 1) / 2 + world * c;
            case "max" -> world + c;
            default -> 1 + c;
        };
    }

    /** PERIOD elements of rank r's send data: r + 1 + k for k = 0 … PERIOD-1, to be repeated from the send pointer. */
    static byte[] sendPattern(DataType t, int rank) {
        byte[] out = new byte[PERIOD * t.size()];
        for (int k = 0; k < PERIOD; k++) {
            System.arraycopy(element(t, rank + 1 + k), 0, out, k * t.size(), t.size());
        }
        return out;
    }

    static byte[] element(DataType t, long v) {
        ByteBuffer b = ByteBuffer.allocate(t.size()).order(ByteOrder.LITTLE_ENDIAN);
        switch (t) {
            case INT8, UINT8 -> b.put((byte) v);
            case INT32, UINT32 -> b.putInt((int) v);
            case INT64, UINT64 -> b.putLong(v);
            case FLOAT32 -> b.putFloat(v);
            case FLOAT64 -> b.putDouble(v);
            case FLOAT16 -> b.putShort(half(v));
            case BFLOAT16 -> b.putShort((short) (Float.floatToIntBits(v) >>> 16));
            default -> throw new IllegalArgumentException("no pattern for " + t);
        }
        return b.array();
    }

    /** Whether the element at byte offset `at` holds v. */
    static boolean matches(DataType t, byte[] data, int at, long v) {
        ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        return switch (t) {
            case INT8, UINT8 -> b.get(at) == (byte) v;
            case INT32, UINT32 -> b.getInt(at) == (int) v;
            case INT64, UINT64 -> b.getLong(at) == v;
            case FLOAT32 -> b.getFloat(at) == (float) v;
            case FLOAT64 -> b.getDouble(at) == (double) v;
            case FLOAT16 -> Math.abs(fromHalf(b.getShort(at)) - v) <= 0.01 * Math.max(1, v);
            case BFLOAT16 -> Math.abs(Float.intBitsToFloat((b.getShort(at) & 0xffff) << 16) - v) <= 0.01 * Math.max(1, v);
            default -> false;
        };
    }

    /** IEEE binary16 of a non-negative integer below 2048 (exact there). */
    static short half(long v) {
        if (v == 0) {
            return 0;
        }
        int e = 63 - Long.numberOfLeadingZeros(v);
        long mantissa = ((v << 10) >> e) & 0x3ff;
        return (short) (((e + 15) << 10) | mantissa);
    }

    static double fromHalf(short h) {
        int bits = h & 0xffff;
        int e = (bits >>> 10) & 0x1f;
        int m = bits & 0x3ff;
        if (e == 0) {
            return m / 1024.0 / 16384.0;
        }
        return (1 + m / 1024.0) * Math.pow(2, e - 15) * ((bits & 0x8000) != 0 ? -1 : 1);
    }

    /**
     * What element i of rank r's receive buffer should hold after the call, when every rank j sent j + 1 + (its send
     * index mod PERIOD); absent where nothing is defined.
     */
    static Fact<Long> expected(String collective, String op, int rank, int world, int root, long perChunk, long i) {
        return switch (collective) {
            case "allreduce" -> Fact.of(reduced(op, world, i % PERIOD));
            case "reducescatter" -> Fact.of(reduced(op, world, (rank * perChunk + i) % PERIOD));
            case "reduce" -> rank == root ? Fact.of(reduced(op, world, i % PERIOD)) : Fact.absent("only the root receives");
            case "allgather" -> Fact.of(i / perChunk + 1 + (i % perChunk) % PERIOD);
            case "alltoall" -> Fact.of(i / perChunk + 1 + (rank * perChunk + i % perChunk) % PERIOD);
            case "broadcast" -> Fact.of(root + 1 + i % PERIOD);
            case "sendrecv" -> Fact.of((rank - 1 + world) % world + 1 + i % PERIOD);
            default -> Fact.absent("unknown collective");
        };
    }
}
