package io.nccldoctor.collectives.coll;

import io.nccldoctor.core.InputException;
import java.util.List;
import java.util.Locale;

/** NCCL data types with their element size in bytes, under nccl-tests' names and the usual synonyms. */
public enum DataType {
    INT8(1, "int8", "char"), UINT8(1, "uint8"), INT32(4, "int32", "int"), UINT32(4, "uint32"), INT64(8, "int64"),
    UINT64(8, "uint64"), FLOAT16(2, "half", "float16", "fp16"), FLOAT32(4, "float", "float32", "fp32"),
    FLOAT64(8, "double", "float64", "fp64"), BFLOAT16(2, "bfloat16", "bf16"), FP8_E4M3(1, "f8e4m3", "fp8_e4m3"),
    FP8_E5M2(1, "f8e5m2", "fp8_e5m2");

    private final int size;
    private final List<String> names;

    DataType(int size, String... names) {
        this.size = size;
        this.names = List.of(names);
    }

    /** Bytes per element. */
    public int size() {
        return size;
    }

    /** The name nccl-tests prints in its type column. */
    public String ncclTestsName() {
        return names.get(0);
    }

    public static DataType parse(String s) {
        String k = s.strip().toLowerCase(Locale.ROOT);
        for (DataType t : values()) {
            if (t.names.contains(k) || t.name().toLowerCase(Locale.ROOT).equals(k)) {
                return t;
            }
        }
        throw new InputException("unknown data type '" + s + "'; use one of int8 uint8 int32 uint32 int64 uint64 half float "
                + "double bfloat16 f8e4m3 f8e5m2");
    }
}
