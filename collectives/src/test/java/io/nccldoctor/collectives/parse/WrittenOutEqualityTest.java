package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.collectives.parse.NcclLog.GdrCount;
import io.nccldoctor.collectives.parse.NcclLog.GdrWording;
import io.nccldoctor.collectives.parse.NcclLog.SystemDump;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The records whose equals and hashCode are written out (to spare the method-handle linking at a parse's start) still
 * compare every component as a record does: equal copies are equal with one hash, and each component changed alone
 * makes them differ.
 */
class WrittenOutEqualityTest {

    @Test
    void gdrCountComparesEveryComponent() {
        GdrCount a = new GdrCount(true, 5, "<=", 5, GdrWording.V2_6, 3);
        assertThat(new GdrCount(true, 5, "<=", 5, GdrWording.V2_6, 3)).isEqualTo(a).hasSameHashCodeAs(a);
        assertThat(List.of(new GdrCount(false, 5, "<=", 5, GdrWording.V2_6, 3), new GdrCount(true, 6, "<=", 5, GdrWording.V2_6, 3),
                new GdrCount(true, 5, "<", 5, GdrWording.V2_6, 3), new GdrCount(true, 5, "<=", 4, GdrWording.V2_6, 3),
                new GdrCount(true, 5, "<=", 5, GdrWording.V2_29, 3), new GdrCount(true, 5, "<=", 5, GdrWording.V2_6, 4),
                new GdrCount(true, 5, null, 5, GdrWording.V2_6, 3))).allSatisfy(b -> assertThat(b).isNotEqualTo(a));
        assertThat(a).isNotEqualTo("x").isNotEqualTo(null);
    }

    @Test
    void systemDumpComparesEveryComponent() {
        SystemDump a = dump("48.0", "370.8", 2, 8, 8, 8, List.of("50.0"), 8, 1, Map.of("48.0", 16), 0, true);
        assertThat(dump("48.0", "370.8", 2, 8, 8, 8, List.of("50.0"), 8, 1, Map.of("48.0", 16), 0, true)).isEqualTo(a).hasSameHashCodeAs(a);
        assertThat(List.of(dump("24.0", "370.8", 2, 8, 8, 8, List.of("50.0"), 8, 1, Map.of("48.0", 16), 0, true),
                dump("48.0", "1.0", 2, 8, 8, 8, List.of("50.0"), 8, 1, Map.of("48.0", 16), 0, true),
                dump("48.0", "370.8", 1, 8, 8, 8, List.of("50.0"), 8, 1, Map.of("48.0", 16), 0, true),
                dump("48.0", "370.8", 2, 7, 8, 8, List.of("50.0"), 8, 1, Map.of("48.0", 16), 0, true),
                dump("48.0", "370.8", 2, 8, 7, 8, List.of("50.0"), 8, 1, Map.of("48.0", 16), 0, true),
                dump("48.0", "370.8", 2, 8, 8, 7, List.of("50.0"), 8, 1, Map.of("48.0", 16), 0, true),
                dump("48.0", "370.8", 2, 8, 8, 8, List.of("25.0"), 8, 1, Map.of("48.0", 16), 0, true),
                dump("48.0", "370.8", 2, 8, 8, 8, List.of("50.0"), 7, 1, Map.of("48.0", 16), 0, true),
                dump("48.0", "370.8", 2, 8, 8, 8, List.of("50.0"), 8, 0, Map.of("48.0", 16), 0, true),
                dump("48.0", "370.8", 2, 8, 8, 8, List.of("50.0"), 8, 1, Map.of("0.2", 16), 0, true),
                dump("48.0", "370.8", 2, 8, 8, 8, List.of("50.0"), 8, 1, Map.of("48.0", 16), 1, true),
                dump("48.0", "370.8", 2, 8, 8, 8, List.of("50.0"), 8, 1, Map.of("48.0", 16), 0, false),
                dump(null, "370.8", 2, 8, 8, 8, List.of("50.0"), 8, 1, Map.of("48.0", 16), 0, true),
                new SystemDump("48.0", "370.8", 2, 8, 8, 8, List.of("50.0"), 8, 1, Map.of("48.0", 16), 0, Map.of("XGMI", 24), true)))
                .allSatisfy(b -> assertThat(b).isNotEqualTo(a));
    }

    private static SystemDump dump(String maxBw, String totalBw, int cpus, int gpus, int nics, int nets, List<String> netBandwidths,
            int nvlinks, int nvswitches, Map<String, Integer> pciLinks, int c2cLinks, boolean complete) {
        return new SystemDump(maxBw, totalBw, cpus, gpus, nics, nets, netBandwidths, nvlinks, nvswitches, pciLinks, c2cLinks, Map.of(),
                complete);
    }
}
