package io.nccldoctor.collectives.coll;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.InputException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * Counts and sizes against nccl-tests' getCollByteCount (reference/nccl-internals.md §1.1), worked out by hand for
 * each row: size = max(sendBytes, recvBytes); count column = paramCount.
 */
class CollectiveSizingTest {

    @ParameterizedTest(name = "{0} count {1} {2} x{3}: send {4} recv {5} param {6} size {7}")
    @CsvSource({
        // allreduce, broadcast, reduce, sendrecv: no trimming
        "allreduce,     1000001, float,    1, 1000001, 1000001, 1000001, 4000004",
        "allreduce,          7,  int8,     3,       7,       7,       7,       7",
        "broadcast,     262145,  double,   8,  262145,  262145,  262145, 2097160",
        "reduce,           333,  half,    24,     333,     333,     333,     666",
        "sendrecv,        1023,  bfloat16, 2,    1023,    1023,    1023,    2046",
        // allgather: base = (count/n) & ~(16/elt - 1); send base, recv base*n
        "allgather,    1000001, float,     3,  333332,  999996,  333332, 3999984",
        "allgather,        100, float,     8,      12,      96,      12,     384",
        "allgather,         47, int8,      2,      16,      32,      16,      32",
        "allgather,          7, double,    8,       0,       0,       0,       0",
        "allgather,   16777216, bfloat16, 24,  699048, 16777152, 699048, 33554304",
        "allgather,         40, float,     1,      40,      40,      40,     160",
        // reducescatter: send base*n, recv base
        "reducescatter, 1000001, float,    3,  999996,  333332,  333332, 3999984",
        "reducescatter,     99, double,   24,      96,       4,       4,     768",
        // alltoall: per-peer (count/n) trimmed; send = recv = per-peer*n
        "alltoall,   134217726, float,     3, 134217720, 134217720, 44739240, 536870880",
        "alltoall,        1001, int32,     8,     992,     992,     124,    3968",
        "alltoall,         255, uint8,     2,     224,     224,     112,     224"})
    void sizesLikeNcclTests(String coll, long count, String dtype, int n, long send, long recv, long param, long size) {
        DataType t = DataType.parse(dtype);
        Sizing s = Collective.parse(coll).sizing(count, t.size(), n);
        assertThat(s.sendCount()).as("send").isEqualTo(send);
        assertThat(s.recvCount()).as("recv").isEqualTo(recv);
        assertThat(s.paramCount()).as("param").isEqualTo(param);
        assertThat(s.sizeBytes()).as("size column").isEqualTo(size);
    }

    @ParameterizedTest(name = "{0} n={1}: factor {2}")
    @CsvSource({"allreduce, 1, 0.0", "allreduce, 2, 1.0", "allreduce, 8, 1.75", "allreduce, 3, 1.3333333333333333",
        "allgather, 8, 0.875", "reducescatter, 24, 0.9583333333333334", "alltoall, 3, 0.6666666666666666",
        "broadcast, 8, 1.0", "reduce, 24, 1.0", "sendrecv, 2, 1.0"})
    void busBandwidthFactors(String coll, int n, double factor) {
        assertThat(Collective.parse(coll).busBwFactor(n)).isEqualTo(factor);
    }

    @Test
    void bandwidthIsTheSizeColumnOverTimeInDecimalGigabytes() {
        Collective ar = new AllReduce();
        Sizing s = ar.sizing(268435456, 4, 8); // 1 GiB of float
        assertThat(ar.algBwGBps(s, 0.01)).isCloseTo(107.3741824, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(ar.busBwGBps(s, 0.01, 8)).isCloseTo(187.9048192, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void namesAndTypes() {
        assertThat(Collective.parse("all_reduce_perf").name()).isEqualTo("allreduce");
        assertThat(Collective.parse("AllToAll").name()).isEqualTo("alltoall");
        assertThat(DataType.parse("bf16")).isEqualTo(DataType.BFLOAT16);
        assertThat(DataType.parse("half").size()).isEqualTo(2);
        assertThatThrownBy(() -> DataType.parse("float128")).isInstanceOf(InputException.class);
        assertThatThrownBy(() -> Collective.parse("gather")).hasMessageContaining("unknown collective");
    }
}
