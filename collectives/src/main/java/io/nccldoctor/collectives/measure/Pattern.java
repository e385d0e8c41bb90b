package io.nccldoctor.collectives.measure;

import io.nccldoctor.collectives.coll.DataType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The data a validation run sends and expects. Global rank r puts 1 + (r + k mod 7) mod S at send index k, so a
 * result depends on both the sending rank and the position (a wrong offset shows). S keeps every value, and every
 * sum of them, inside what the type holds exactly: below world + 7 the values are plain r + 1 + k, but int8 holds
 * only 127 (its max and min went wrong from 122 ranks on), uint8 255 (from 250 ranks), half's sums
 * must stay at or below 2048 to be exact (they passed its largest value 65504 near 356 ranks, where NCCL returns
 * infinity), bfloat16's at or below 256. Integer sums wrap as NCCL's integer reductions do; half and bfloat16 compare
 * within 1 % (partial sums may round), the others exactly. FP8 types are not validated.
 */
final class Pattern {

    /** Element values repeat with this period along each send buffer. */
    static final int PERIOD = 7;

    private final DataType type;
    private final int world;
    private final int span;
    private final long[] reduced = new long[PERIOD];

    private Pattern(DataType type, String op, int world) {
        this.type = type;
        this.world = world;
        this.span = span(type, op, world);
        for (int c = 0; c < PERIOD; c++) {
            long acc = value(0, c);
            for (int r = 1; r < world; r++) {
                long v = value(r, c);
                acc = switch (op) {
                    case "sum" -> acc + v;
                    case "max" -> Math.max(acc, v);
                    default -> Math.min(acc, v);
                };
            }
            reduced[c] = acc;
        }
    }

    static Pattern of(DataType type, String op, int world) {
        return new Pattern(type, op, world);
    }

    static boolean supported(DataType t, String op) {
        return t != DataType.FP8_E4M3 && t != DataType.FP8_E5M2 && (op.equals("sum") || op.equals("max") || op.equals("min"));
    }

    static String unsupportedReason(DataType t, String op) {
        return t == DataType.FP8_E4M3 || t == DataType.FP8_E5M2 ? "FP8 results are not validated"
                : "validated for sum, max and min only, not " + op;
    }

    /**
     * How many distinct values a rank's elements take: world + 6 (the plain r + 1 + k), unless the type cannot hold
     * that many exactly, or, for floating-point sums, cannot hold world of them added.
     */
    static int span(DataType t, String op, int world) {
        long natural = (long) world + PERIOD - 1;
        long exact = switch (t) {
            case INT8 -> 127;
            case UINT8 -> 255;
            case FLOAT16 -> 2048;  // 11 significant bits
            case BFLOAT16 -> 256;  // 8 significant bits
            case FLOAT32 -> 1L << 24;
            default -> Integer.MAX_VALUE;
        };
        boolean floating = t == DataType.FLOAT16 || t == DataType.BFLOAT16 || t == DataType.FLOAT32;
        long cap = op.equals("sum") && floating ? Math.max(1, exact / world) : exact;
        return (int) Math.min(natural, cap);
    }

    /** Rank r's value at send index k. */
    long value(int rank, long k) {
        return 1 + (rank + k % PERIOD) % span;
    }

    /** PERIOD elements of a rank's send data, to be repeated from the send pointer. */
    byte[] sendPattern(int rank) {
        byte[] out = new byte[PERIOD * type.size()];
        for (int k = 0; k < PERIOD; k++) {
            System.arraycopy(element(type, value(rank, k)), 0, out, k * type.size(), type.size());
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

    /** Whether the element at byte offset `at` of the bytes holds v. */
    static boolean matches(DataType t, byte[] data, int at, long v) {
        return matches(t, ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN), at, v);
    }

    /** Whether the element at byte offset `at` of a little-endian buffer holds v. */
    static boolean matches(DataType t, ByteBuffer b, int at, long v) {
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
        if (e == 31) {
            return m == 0 ? Double.POSITIVE_INFINITY : Double.NaN;
        }
        return (1 + m / 1024.0) * Math.pow(2, e - 15) * ((bits & 0x8000) != 0 ? -1 : 1);
    }

    /** Whether the rank receives a defined result: every rank does, except the non-root ranks of a reduce. */
    boolean receives(String collective, int rank, int root) {
        return !collective.equals("reduce") || rank == root;
    }

    /**
     * What element i of rank r's receive buffer should hold after the call, when every rank j sent
     * {@link #value(int, long)} at each send index (where {@link #receives} holds).
     */
    long expected(String collective, int rank, int root, long perChunk, long i) {
        return switch (collective) {
            case "allreduce", "reduce" -> reduced[(int) (i % PERIOD)];
            case "reducescatter" -> reduced[(int) ((rank * perChunk + i) % PERIOD)];
            case "allgather" -> value((int) (i / perChunk), i % perChunk);
            case "alltoall" -> value((int) (i / perChunk), rank * perChunk + i % perChunk);
            case "broadcast" -> value(root, i);
            case "sendrecv" -> value((rank - 1 + world) % world, i);
            default -> throw new IllegalArgumentException("no expected data for " + collective);
        };
    }
}
