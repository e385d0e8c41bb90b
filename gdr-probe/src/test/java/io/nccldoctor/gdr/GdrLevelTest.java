package io.nccldoctor.gdr;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** NCCL_NET_GDR_LEVEL as ncclGetLevel parses it (reference/nccl-internals.md §4.1). */
class GdrLevelTest {

    @ParameterizedTest(name = "{0} in {1} -> {2} ({3}), ignored: {4}")
    @CsvSource(nullValues = "null", value = {
        "null, 2.27.5, PXB, 5, false",
        "PHB,  2.27.5, PHB, 8, false",
        "SYS,  2.27.5, SYS, 9, false",
        "P2C,  2.27.5, P2C, 6, false",
        "phb,  2.27.5, PXB, 5, true",
        "Phb,  2.27.5, PXB, 5, true",
        "NET,  2.27.5, PXB, 5, true",
        "0,    2.27.5, LOC, 0, false",
        "1,    2.27.5, PIX, 4, false",
        "2,    2.27.5, PXB, 5, false",
        "3,    2.27.5, PHB, 8, false",
        "4,    2.27.5, SYS, 9, false",
        "7,    2.27.5, SYS, 9, false",
        "0x3,  2.27.5, PHB, 8, false",
        "3abc, 2.27.5, PHB, 8, false",
        "-1,   2.27.5, PXB, 5, true",
        "PHB,  2.18.3, PHB, 6, false",
        "3,    2.18.3, PHB, 6, false",
        "C2C,  2.25.1, PXB, 4, true",
        "C2C,  2.26.2, C2C, 3, false"})
    void parsesLikeNccl(String raw, String version, String name, int number, boolean ignored) {
        GdrLevel l = GdrLevel.parse(raw, version);
        assertThat(l.name()).isEqualTo(name);
        assertThat(l.number()).isEqualTo(number);
        assertThat(l.ignored() != null).as("ignored: %s", l.ignored()).isEqualTo(ignored);
    }

    @ParameterizedTest
    @CsvSource({"010, 8", "0x10, 16", "9z, 9", "0, 0"})
    void strtolBase0(String s, long expected) {
        assertThat(GdrLevel.strtol(s)).isEqualTo(expected);
    }
}
