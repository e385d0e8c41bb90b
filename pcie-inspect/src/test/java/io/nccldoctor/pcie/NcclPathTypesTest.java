package io.nccldoctor.pcie;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** reference/nccl-internals.md §3, row by row. */
class NcclPathTypesTest {

    @ParameterizedTest(name = "NCCL {0}: LOC {1} NVL {2} NVB {3} C2C {4} PIX {5} PXB {6} P2C {7} PXN {8} PHB {9} SYS {10} NET {11} DIS {12}")
    @CsvSource({
        "2.7.8,   0, 1, -1, -1, 2, 3, -1, -1, 4, 5, 6, -1",
        "2.11.4,  0, 1, 2, -1, 3, 4, -1, -1, 5, 6, -1, -1",
        "2.12.12, 0, 1, 2, -1, 3, 4, -1, 5, 6, 7, -1, -1",
        "2.18.3,  0, 1, 2, -1, 3, 4, -1, 5, 6, 7, 8, 9",
        "2.25.1,  0, 1, 2, -1, 3, 4, -1, 5, 6, 7, 8, 9",
        "2.26.2,  0, 1, 2, 3, 4, 5, -1, 6, 7, 8, 9, 10",
        "2.27.3,  0, 1, 2, 3, 4, 5, 7, 6, 8, 9, 10, 11",
        "2.27.5,  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11",
        "2.30.7,  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11"})
    void numbering(String v, int loc, int nvl, int nvb, int c2c, int pix, int pxb, int p2c, int pxn, int phb, int sys, int net, int dis) {
        String[] names = {"LOC", "NVL", "NVB", "C2C", "PIX", "PXB", "P2C", "PXN", "PHB", "SYS", "NET", "DIS"};
        int[] expected = {loc, nvl, nvb, c2c, pix, pxb, p2c, pxn, phb, sys, net, dis};
        for (int i = 0; i < names.length; i++) {
            assertThat(NcclPathTypes.number(names[i], v)).as("PATH_%s in %s", names[i], v).isEqualTo(expected[i]);
        }
    }

    @Test
    void distanceLinesDecodeByVersion() {
        assertThat(NcclPathTypes.decodeDistance(8, 5, "2.27.5")).as("the field report's line").isEqualTo("PHB > PXB");
        assertThat(NcclPathTypes.decodeDistance(7, 4, "2.18.3")).as("NVIDIA/nccl#1151").isEqualTo("SYS > PXB");
        assertThat(NcclPathTypes.decodeDistance(8, 5, "2.18.3")).as("the same numbers mean something else in 2.18").isEqualTo("NET > PXN");
        assertThat(NcclPathTypes.decodeDistance(4, "<=", 5, "2.27.5")).as("an Enabled line keeps its comparison").isEqualTo("PIX <= PXB");
        assertThat(NcclPathTypes.name(7, "2.12.12")).as("PATH_DIS was PATH_SYS in 2.12-2.17").isEqualTo("SYS");
        assertThatThrownBy(() -> NcclPathTypes.name(12, "2.27.5")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> NcclPathTypes.number("PIX", "2.6.4")).hasMessageContaining("predates");
    }

    @Test
    void smiToNccl() {
        assertThat(NcclPathTypes.ofSmi(SmiPath.NODE)).isEqualTo("PHB");
        assertThat(NcclPathTypes.ofSmi(SmiPath.SYS)).isEqualTo("SYS");
        assertThat(NcclPathTypes.ofSmi(SmiPath.PXB)).isEqualTo("PXB");
    }
}
