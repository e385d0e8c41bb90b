package io.nccldoctor.pcie;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** reference/nccl-internals.md §3, row by row. */
class NcclPathTypesTest {

    @ParameterizedTest(name = "NCCL {0}: LOC {1} NVL {2} NVB {3} C2C {4} PIX {5} PXB {6} P2C {7} PXN {8} PHB {9} SYS {10} NET {11} DIS {12}")
    @CsvSource({
        "2.6.4,   0, 1, -1, -1, 2, 3, -1, -1, 4, 5, 6, -1",
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
        assertThatThrownBy(() -> NcclPathTypes.number("PIX", "2.5.7")).hasMessageContaining("predates");
    }

    /** paths.cc: PATH_PXB in every release up to 2.28; from 2.29 PATH_P2C while NCCL_NET_GDR_C2C is on (its default). */
    @ParameterizedTest(name = "NCCL {0}, NCCL_NET_GDR_C2C {1}: {2}")
    @CsvSource({"2.18.3, true, PXB", "2.27.5, true, PXB", "2.28.9, true, PXB", "2.29.2, true, P2C", "2.29.7, false, PXB",
        "2.30.7, true, P2C"})
    void defaultGdrThreshold(String version, boolean c2c, String expected) {
        assertThat(NcclPathTypes.defaultGdrLevel(version, c2c)).isEqualTo(expected);
    }

    private static List<String> read(int d, int t, String since, String until, String level) {
        return NcclPathTypes.readings(d, ">", t, since, Optional.ofNullable(until), Optional.ofNullable(level), true).stream()
                .map(r -> r.text() + " @" + r.since() + "-" + r.until().orElse("")).toList();
    }

    /**
     * A line whose log names no version, read through its threshold: NVIDIA/nccl#1151's "distance 7 > 4" (wording of
     * 2.6-2.28) is SYS > PXB wherever 4 is the default PXB, whatever 2.30 would make of it.
     */
    @Test
    void versionlessLinesAreReadThroughTheirThreshold() {
        assertThat(read(7, 4, "2.6.0", "2.29.0", null)).containsExactly("SYS > PXB @2.12.0-2.26.0");
        assertThat(read(6, 4, "2.6.0", "2.29.0", null)).as("PHB in 2.12-2.25, SYS in 2.8-2.11: ambiguous")
                .containsExactly("SYS > PXB @2.8.0-2.12.0", "PHB > PXB @2.12.0-2.26.0");
        assertThat(read(8, 5, "2.6.0", "2.29.0", null)).as("5 is the default from 2.26").containsExactly("SYS > PXB @2.26.0-2.27.0",
                "PHB > PXB @2.27.0-2.29.0");
        assertThat(read(8, 6, "2.29.0", null, null)).as("2.29's wording: P2C is the default").containsExactly("PHB > P2C @2.29.0-");
        assertThat(read(5, 4, "2.6.0", "2.29.0", "PHB")).as("NCCL_NET_GDR_LEVEL=PHB logged: only 2.6-2.7 number PHB 4")
                .containsExactly("SYS > PHB @2.6.0-2.8.0");
        assertThat(read(9, 3, "2.6.0", "2.29.0", null)).as("3 is PXB only in 2.6-2.7, which has no type 9").isEmpty();
    }

    @Test
    void smiToNccl() {
        assertThat(NcclPathTypes.ofSmi(SmiPath.NODE)).isEqualTo("PHB");
        assertThat(NcclPathTypes.ofSmi(SmiPath.SYS)).isEqualTo("SYS");
        assertThat(NcclPathTypes.ofSmi(SmiPath.PXB)).isEqualTo("PXB");
    }
}
