package io.nccldoctor.reports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** configs/xid-catalog.yaml as shipped, its severity policy on known rows, and a site's broken edit as one clear line. */
class XidCatalogTest {

    @TempDir
    Path tmp;

    @Test
    void theShippedTableHasNvidiasRowsWithTheirSeverities() {
        XidCatalog c = XidCatalog.shipped();
        assertThat(c.xids()).hasSize(176);
        assertThat(c.entry(79).get().describe()).isEqualTo("ROBUST_CHANNEL_GPU_HAS_FALLEN_OFF_THE_BUS: GPU has fallen off the bus; "
                + "NVIDIA's immediate action RESTART_BM");
        assertThat(c.entry(79).get().severity()).as("fatal in NVIDIA's table").isEqualTo(Severity.ERROR);
        assertThat(c.entry(94).get().severity()).as("NONFATAL RESTART_APP, but DCGM warns").isEqualTo(Severity.WARN);
        assertThat(c.entry(13).get().severity()).as("the application's fault").isEqualTo(Severity.INFO);
        assertThat(c.entry(45).get().severity()).as("a workflow to follow").isEqualTo(Severity.WARN);
        assertThat(c.entry(171).get().mnemonic()).as("from nverror.h, past NVIDIA's table").isEqualTo("UNCORRECTABLE_DRAM_ERROR");
        assertThat(c.entry(999)).isEmpty();
    }

    @Test
    void aTwiceListedXidIsAnInputError() throws IOException {
        Path f = Files.writeString(tmp.resolve("xid-catalog.yaml"), "xids:\n  - {xid: 79, mnemonic: A, action: B, fatal: true, severity: error}\n"
                + "  - {xid: 79, mnemonic: A, action: B, fatal: true, severity: warn}\n");
        assertThatThrownBy(() -> XidCatalog.load(f)).isInstanceOf(InputException.class).hasMessageContaining("Xid 79 is listed twice");
        Path g = Files.writeString(tmp.resolve("bad.yaml"), "xids:\n  - {xid: 79, severity: fatal}\n");
        assertThatThrownBy(() -> XidCatalog.load(g)).isInstanceOf(InputException.class).hasMessageStartingWith(g + ":");
    }
}
