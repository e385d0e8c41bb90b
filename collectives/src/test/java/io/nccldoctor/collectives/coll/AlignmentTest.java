package io.nccldoctor.collectives.coll;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AlignmentTest {

    /** The field report: a float tensor of 2^27 elements sized with n -= n % 3 for a 3-node alltoall. */
    @Test
    void theFieldReportsMisalignedAlltoall() {
        long n = (1L << 27) - (1L << 27) % 3;
        Alignment a = Alignment.of(new AlltoAll(), DataType.FLOAT32, n, 3);
        assertThat(n).isEqualTo(134_217_726L);
        assertThat(a.chunkBytes()).isEqualTo(178_956_968L);
        assertThat(a.chunkBytesAligned()).isFalse();
        assertThat(a.misalignedChunks()).containsExactly(1);
        assertThat(a.ncclTestsCount()).isEqualTo(134_217_720L);
        assertThat(a.alignedBelow()).isEqualTo(134_217_720L);
        assertThat(a.alignedAbove()).isEqualTo(134_217_732L);
    }

    @Test
    void alignedCountsAndUnchunkedCollectives() {
        Alignment ok = Alignment.of(new AllGather(), DataType.BFLOAT16, 8L * 24 * 1000, 24);
        assertThat(ok.misalignedChunks()).isEmpty();
        assertThat(ok.chunkBytesAligned()).isTrue();
        assertThat(ok.alignedBelow()).isEqualTo(ok.count());
        Alignment odd = Alignment.of(new AllGather(), DataType.INT8, 1001, 8);
        assertThat(odd.remainder()).isEqualTo(1);
        assertThat(odd.chunkElements()).isEqualTo(125);
        assertThat(odd.misalignedChunks()).containsExactly(1, 2, 3, 4, 5, 6, 7);
        assertThat(odd.ncclTestsCount()).isEqualTo(896);
        Alignment ar = Alignment.of(new AllReduce(), DataType.FLOAT32, 1001, 8);
        assertThat(ar.chunked()).isFalse();
        assertThat(ar.misalignedChunks()).isEmpty();
    }
}
