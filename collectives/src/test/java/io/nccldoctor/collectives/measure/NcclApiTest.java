package io.nccldoctor.collectives.measure;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.collectives.coll.DataType;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What each NCCL offers, by version and by symbol (nccl.h.in at v2.14.3-1, v2.24.3-1, v2.28.3-1). */
class NcclApiTest {

    private static final Set<String> ALL = Set.of("ncclCommInitRankConfig", "ncclCommGetAsyncError", "ncclAlltoAll");

    @Test
    void versionsAndSymbolsDecide() {
        NcclApi v213 = NcclApi.of(21304, s -> !s.equals("ncclCommInitRankConfig") && !s.equals("ncclAlltoAll"));
        assertThat(v213.nonBlockingInit()).isFalse();
        assertThat(v213.alltoAll()).isFalse();
        NcclApi v221 = NcclApi.of(22105, s -> !s.equals("ncclAlltoAll"));
        assertThat(v221.nonBlockingInit()).isTrue();
        assertThat(v221.fp8()).isFalse();
        assertThat(v221.unsupported(DataType.FP8_E5M2).get()).startsWith("f8e5m2 needs NCCL 2.24 or later").endsWith("this NCCL is 2.21.5");
        assertThat(v221.unsupported(DataType.BFLOAT16)).isEmpty();
        NcclApi v228 = NcclApi.of(22803, ALL::contains);
        assertThat(v228.alltoAll()).isTrue();
        assertThat(v228.fp8()).isTrue();
        assertThat(NcclApi.of(22803, s -> !s.equals("ncclAlltoAll")).alltoAll()).as("a 2.28 build without the symbol").isFalse();
        assertThat(NcclApi.of(21304, ALL::contains).nonBlockingInit()).as("2.13 reports no config even if a symbol of the name exists")
                .isFalse();
    }

    @Test
    void theConfigIsNccl214sLayout() {
        com.sun.jna.Memory c = NcclCalls.nonBlockingConfig();
        assertThat(c.size()).isEqualTo(24);
        assertThat(c.getLong(0)).isEqualTo(24);
        assertThat(c.getInt(8)).isEqualTo(0xcafebeef);
        assertThat(c.getInt(12)).isEqualTo(21400);
        assertThat(c.getInt(16)).as("blocking").isZero();
    }
}
