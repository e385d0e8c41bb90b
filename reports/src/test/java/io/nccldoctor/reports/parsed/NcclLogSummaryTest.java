package io.nccldoctor.reports.parsed;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.collectives.parse.NcclLog;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** A log's one-line summary names its library as the log does: RCCL's version is RCCL's, not an "NCCL RCCL" one. */
class NcclLogSummaryTest {

    private static final Path CORPUS = Path.of("../corpus/nccl-log");

    /** ROCm/rccl-tests#163: RCCL's printf banner "RCCL version : 2.21.5-HEAD:9a0e6a1" between prefixed lines. */
    @Test
    void anRcclLogIsSummarisedAsRccl() {
        NcclLog rccl = NcclLog.parse(CORPUS.resolve("nccl-log-rccl-2.21.5-banner-mid-log-socket-rccltests163.txt"));
        assertThat(NcclLogText.summary(rccl)).startsWith("RCCL 2.21.5").doesNotContain("NCCL RCCL");
    }

    /** NVIDIA/nccl#1584: "NCCL version 2.24.3+cuda12.2" in a paste with the prefix cut. */
    @Test
    void anNcclLogIsSummarisedAsNccl() {
        NcclLog nccl = NcclLog.parse(CORPUS.resolve("nccl-log-2.24.3-prefix-cut-rdma-plugin-v8-sharp-nccl1584.txt"));
        assertThat(NcclLogText.summary(nccl)).startsWith("NCCL 2.24.3");
    }
}
