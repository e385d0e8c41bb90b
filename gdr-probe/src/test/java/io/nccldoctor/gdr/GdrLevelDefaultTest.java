package io.nccldoctor.gdr;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * NCCL's default threshold by version, from the one version table (NcclPathTypes): PXB up to 2.28, P2C from 2.29 while
 * NCCL_NET_GDR_C2C is on (src/graph/paths.cc@v2.29.2-1 L456), so a GPU and NIC at P2C keep GPU Direct RDMA there.
 */
class GdrLevelDefaultTest {

    @ParameterizedTest(name = "NCCL {0}, NCCL_NET_GDR_LEVEL={1}, NCCL_NET_GDR_C2C={2}: {3} ({4})")
    @CsvSource(nullValues = "null", value = {
        "2.28.9, null, null, PXB, 5",
        "2.29.2, null, null, P2C, 6",
        "2.29.7, null, 0,    PXB, 5",
        "2.29.7, null, 1,    P2C, 6",
        "2.29.7, null, x,    P2C, 6",
        "2.30.7, phb,  null, P2C, 6",
        "2.30.7, PHB,  0,    PHB, 8"})
    void defaultFollowsTheVersion(String version, String level, String c2c, String name, int number) {
        GdrLevel l = GdrLevel.parse(level, version, c2c);
        assertThat(l.name()).isEqualTo(name);
        assertThat(l.number()).isEqualTo(number);
        if (level == null) {
            assertThat(l.source()).startsWith("NCCL's default (" + name);
        }
    }
}
