package io.nccldoctor.collectives.measure;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.collectives.coll.DataType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The validation data stays inside what each type holds exactly, at any rank count. */
class PatternTest {

    /** The element's value as the type holds it (int8 signed, uint8 unsigned, half and bfloat16 decoded). */
    static double decoded(DataType t, byte[] e) {
        ByteBuffer b = ByteBuffer.wrap(e).order(ByteOrder.LITTLE_ENDIAN);
        return switch (t) {
            case INT8 -> b.get(0);
            case UINT8 -> b.get(0) & 0xff;
            case INT32, UINT32 -> b.getInt(0);
            case INT64, UINT64 -> b.getLong(0);
            case FLOAT32 -> b.getFloat(0);
            case FLOAT64 -> b.getDouble(0);
            case FLOAT16 -> Pattern.fromHalf(b.getShort(0));
            case BFLOAT16 -> Float.intBitsToFloat((b.getShort(0) & 0xffff) << 16);
            default -> throw new IllegalArgumentException(t.name());
        };
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 8, 121, 122, 128, 250, 256, 356, 400, 1024, 4096})
    void everySentValueIsHeldExactlyAndFloatingSumsStayExact(int world) {
        List<DataType> types = List.of(DataType.INT8, DataType.UINT8, DataType.INT32, DataType.UINT32, DataType.INT64, DataType.UINT64,
                DataType.FLOAT16, DataType.FLOAT32, DataType.FLOAT64, DataType.BFLOAT16);
        for (DataType t : types) {
            for (String op : List.of("sum", "max", "min")) {
                Pattern p = Pattern.of(t, op, world);
                for (int r = 0; r < world; r++) {
                    for (int k = 0; k < Pattern.PERIOD; k++) {
                        long v = p.value(r, k);
                        assertThat(decoded(t, Pattern.element(t, v))).as("%s %s on %d ranks: rank %d sends %d", t, op, world, r, v)
                                .isEqualTo((double) v);
                    }
                }
                long limit = switch (t) {
                    case FLOAT16 -> 2048;
                    case BFLOAT16 -> 256;
                    default -> Long.MAX_VALUE;
                };
                if (op.equals("sum") && world <= limit) {
                    for (int c = 0; c < Pattern.PERIOD; c++) {
                        assertThat(p.expected("allreduce", 0, 0, 1, c)).as("%s sum on %d ranks stays exact", t, world)
                                .isLessThanOrEqualTo(limit);
                    }
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 8, 64})
    void belowTheLimitsTheValuesAreThePlainRankPlusIndex(int world) {
        Pattern p = Pattern.of(DataType.FLOAT32, "sum", world);
        assertThat(p.value(world - 1, 6)).isEqualTo(world + 6);
        assertThat(p.expected("allgather", 0, 0, 10, 10 * (world - 1) + 3)).as("rank world-1's element 3").isEqualTo(world + 3);
    }
}
