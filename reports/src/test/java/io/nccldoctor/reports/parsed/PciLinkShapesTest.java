package io.nccldoctor.reports.parsed;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The link shapes behind a bandwidth NCCL prints in its topology dump: width x per-lane rate / 80 GB/s, the lane rates
 * 15, 30, 60, 120, 240 and 480 for PCIe 1 to 6 (kvDictPciGen, src/graph/topo.cc).
 */
class PciLinkShapesTest {

    @Test
    void eachSlowFigureNamesEveryWidthAndSpeedThatGivesIt() {
        assertThat(NcclLogText.linkShapes("0.2")).containsExactly("x1 at 2.5 GT/s");
        assertThat(NcclLogText.linkShapes("0.4")).containsExactly("x2 at 2.5 GT/s", "x1 at 5 GT/s");
        assertThat(NcclLogText.linkShapes("0.8")).containsExactly("x4 at 2.5 GT/s", "x2 at 5 GT/s", "x1 at 8 GT/s");
        assertThat(NcclLogText.linkShapes("24.0")).as("x16 at 16 GT/s, NCCL's 24 GB/s for a Gen4 GPU")
                .containsExactly("x16 at 16 GT/s", "x8 at 32 GT/s", "x4 at 64 GT/s");
        assertThat(NcclLogText.linkShapes("0.3")).containsExactly("a link of another shape");
    }
}
