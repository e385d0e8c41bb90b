package io.nccldoctor.collectives;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.nccldoctor.core.Environment;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.NativeQueries;
import io.nccldoctor.core.exec.ProcessCommandRunner;
import io.nccldoctor.core.host.HostRoot;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The success path on a machine with a driver and NCCL (scripts/device-check.sh); skipped elsewhere. */
@Tag("gpu")
class LiveLibrariesGpuTest {

    @Test
    void driverAndNcclReportTheirVersions() {
        Host live = new Host(HostRoot.live(), new ProcessCommandRunner(), NativeQueries.live(),
                Environment.relevant(System.getenv()), "live");
        Libraries libs = new LibrariesProbe().run(live);
        assumeTrue(libs.cudaDriver().loaded().isValue(), "no libcuda.so.1 on this machine");
        assertThat(libs.cudaDriver().version().get()).matches("\\d+\\.\\d+");
        assumeTrue(libs.nccl().found(), "no libnccl.so.2 on this machine");
        assertThat(libs.nccl().version().get()).as("ncclGetVersion of " + libs.nccl().copies()).matches("2\\.\\d+\\.\\d+");
    }
}
