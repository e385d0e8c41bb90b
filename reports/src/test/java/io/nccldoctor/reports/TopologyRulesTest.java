package io.nccldoctor.reports;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.collectives.LibrariesProbe;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.core.Snapshots;
import io.nccldoctor.core.capture.Capture;
import io.nccldoctor.gdr.NvidiaDriverProbe;
import io.nccldoctor.gdr.RdmaProbe;
import io.nccldoctor.pcie.PciInventoryProbe;
import io.nccldoctor.pcie.PlatformProbe;
import io.nccldoctor.reports.rules.Registry;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The topology rules on the four sysfs fixtures; the expected findings are those their READMEs derive. */
class TopologyRulesTest {

    static final Path CAPTURES = Path.of("../pcie-inspect/src/test/resources/fixtures/captures");

    static Snapshot snapshot(String fixture) {
        return Snapshots.take(Capture.open(CAPTURES.resolve(fixture)).host(), List.of(new PlatformProbe(),
                new PciInventoryProbe(), new NvidiaDriverProbe(), new LibrariesProbe(), new RdmaProbe()),
                List.of("test"), "test", Clock.systemUTC());
    }

    static Evaluation judge(String fixture, String ncclVersion) {
        return Evaluation.of(snapshot(fixture), Registry.topologyRules(),
                new RuleContext(RulesConfig.defaults(), NodeShape.none(), Optional.ofNullable(ncclVersion)));
    }

    static List<String> codes(Evaluation e) {
        return e.findings().stream().map(f -> f.code() + ":" + f.severity().label() + ":" + f.subject()).toList();
    }

    @Test
    void dgxClassHasOnlyItsInjectedAcsAndAerFaults() {
        Evaluation e = judge("dgx-class", null);
        assertThat(codes(e)).containsExactly(
                "ACS_REDIRECT_ON_P2P_PATH:warn:0000:aa:00.0", "ACS_REDIRECT_ON_P2P_PATH:warn:0000:aa:01.0",
                "ACS_REDIRECT_ON_P2P_PATH:warn:0000:aa:02.0", "ACS_REDIRECT_ON_P2P_PATH:warn:0000:aa:03.0",
                "AER_ERRORS_COUNTED:warn:0000:9d:00.0");
        assertThat(e.passed()).contains("GDR_DISABLED_BY_DISTANCE", "GPU_NIC_NUMA_MISMATCH", "LINK_DEGRADED", "LINK_LIMITED_BY_SLOT");
        assertThat(e.findings().get(0).evidence()).contains("ACSCtl: SrcValid+ ReqRedir+ CmpltRedir+ UpstreamFwd+");
    }

    @Test
    void arrowLakeIsTheFieldReport() {
        Evaluation e = judge("arrowlake-ws", "2.27.5");
        assertThat(codes(e)).containsExactly("GDR_DISABLED_BY_DISTANCE:warn:GPU0-NIC0", "INTEL_CLIENT_P2P_READS:warn:node",
                "LINK_LIMITED_BY_SLOT:info:0000:01:00.0");
        assertThat(e.findings().get(0).evidence()).contains("NCCL will log: GPU Direct RDMA Disabled ... (distance 8 > 5) = PHB > PXB");
        assertThat(e.findings().get(1).evidence()).contains("GPU0-NIC0 PHB (0000:01:00.0 <-> 0000:02:00.0)");
        Evaluation old = judge("arrowlake-ws", "2.18.3");
        assertThat(old.findings().get(0).evidence()).as("the same path logs other numbers in 2.18")
                .contains("NCCL will log: GPU Direct RDMA Disabled ... (distance 6 > 4) = PHB > PXB");
    }

    @Test
    void threadripperProWithNcclNetGdrLevelPhbHasNoDistanceFinding() {
        Evaluation e = judge("threadripper-pro-ws", "2.27.5");
        assertThat(codes(e)).as("the capture's environment sets NCCL_NET_GDR_LEVEL=PHB, which covers every pair").isEmpty();
        assertThat(e.passed()).contains("GDR_DISABLED_BY_DISTANCE");
        assertThat(e.notChecked()).anyMatch(n -> n.code().equals("INTEL_CLIENT_P2P_READS") && n.reason().contains("not an Intel client"));
        assertThat(e.passed()).as("an idle GPU at 2.5 GT/s is no degraded link").contains("LINK_DEGRADED");
    }

    @Test
    void epycWithTheNicOnTheOtherSocket() {
        Evaluation e = judge("epyc-2s", "2.27.5");
        assertThat(codes(e)).containsExactly("GDR_DISABLED_BY_DISTANCE:warn:GPU0-NIC0", "GDR_DISABLED_BY_DISTANCE:warn:GPU1-NIC0",
                "GPU_NIC_NUMA_MISMATCH:warn:GPU0", "GPU_NIC_NUMA_MISMATCH:warn:GPU1", "LINK_DEGRADED:error:0000:21:00.0");
        assertThat(e.exitCode()).isEqualTo(1);
        assertThat(e.findings().get(4).title()).isEqualTo("GPU 0000:21:00.0 link runs at x8 instead of x16");
    }
}
