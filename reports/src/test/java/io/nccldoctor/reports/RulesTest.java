package io.nccldoctor.reports;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.NvidiaDriver;
import io.nccldoctor.reports.rules.Registry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RulesTest {

    private static Evaluation judge(Snapshot s, NodeShape shape, RulesConfig config) {
        // the known-issues table would add findings for the test node's NCCL version to every case; EnvRulesTest covers it
        return Evaluation.of(s, Registry.nodeRules().stream().filter(r -> !(r instanceof io.nccldoctor.reports.rules.KnownNcclIssue)).toList(),
                new RuleContext(config, shape));
    }

    private static Evaluation judge(Snapshot s, String expect) {
        return judge(s, expect == null ? NodeShape.none() : NodeShape.parse(expect, "--expect"), RulesConfig.defaults());
    }

    private static List<String> codes(Evaluation e) {
        return e.findings().stream().map(f -> f.code() + ":" + f.severity().label()).toList();
    }

    @Test
    void aHealthyEightGpuNodeHasNoFinding() {
        Evaluation e = judge(Snaps.node().gpus(8, "nvidia").nics(8).rdma(8).build(), "gpus=8,nics=8,rdma=8");
        assertThat(e.findings()).isEmpty();
        assertThat(e.exitCode()).isZero();
        assertThat(e.passed()).contains("GPU_COUNT_MISMATCH", "NIC_COUNT_MISMATCH", "RDMA_DEVICE_COUNT_MISMATCH", "CUDA_DRIVER_TOO_OLD");
    }

    @Test
    void noGpuWarnsWithoutAnExpectationAndFailsWithOne() {
        Snapshot s = Snaps.node().nics(1).build();
        assertThat(codes(judge(s, null))).containsExactly("NO_NVIDIA_GPU:warn");
        assertThat(judge(s, null).exitCode()).isZero();
        Evaluation expected = judge(s, "gpus=8");
        assertThat(codes(expected)).as("zero GPUs is one finding, not two").containsExactly("NO_NVIDIA_GPU:error");
        assertThat(expected.exitCode()).isEqualTo(ExitCodes.FINDINGS);
        assertThat(expected.findings().get(0).evidence()).contains("expected gpus=8 (--expect)");
    }

    @Test
    void aMissingGpuAndAMissingRdmaDeviceAreCountedAgainstTheShape() {
        Evaluation e = judge(Snaps.node().gpus(7, "nvidia").nics(8).rdma(7).build(), "gpus=8,nics=8,rdma=8");
        assertThat(codes(e)).containsExactly("GPU_COUNT_MISMATCH:error", "RDMA_DEVICE_COUNT_MISMATCH:error");
        assertThat(e.findings().get(0).title()).isEqualTo("7 NVIDIA GPUs found, 8 expected");
        assertThat(e.findings().get(0).evidence()).hasSize(8).first().isEqualTo("found 7, expected 8 (--expect)");
    }

    @Test
    void gpusBoundToAnotherDriverMeanTheNvidiaDriverIsNotLoaded() {
        Snapshot s = Snaps.node().gpus(2, "vfio-pci")
                .driver(new NvidiaDriver(Fact.absent("NVIDIA kernel module not loaded"), Fact.absent("x"), Fact.absent("x"))).build();
        Evaluation e = judge(s, null);
        assertThat(codes(e)).containsExactly("NVIDIA_DRIVER_NOT_LOADED:error");
        assertThat(e.findings().get(0).evidence()).contains("GPU 0000:17:00.0 [10de:2330] bound driver: vfio-pci");
    }

    @Test
    void aGpuNodeWithoutLibcudaOrNccl() {
        Snapshot s = Snaps.node().gpus(1, "nvidia")
                .cudaDriver(Snaps.lib("CUDA driver", "libcuda.so.1"))
                .nccl(Snaps.lib("NCCL", "libnccl.so.2")).build();
        assertThat(codes(judge(s, null))).containsExactly("CUDA_DRIVER_LIBRARY_MISSING:error", "NCCL_NOT_FOUND:warn");
    }

    @Test
    void runtimeNewerThanDriverAcrossAndWithinAMajorVersion() {
        var driver124 = Snaps.lib("CUDA driver", "libcuda.so.1", Snaps.copy("/usr/lib/libcuda.so.550.54.14", "ldconfig", true, "12.4"));
        Snapshot across = Snaps.node().gpus(1, "nvidia").cudaDriver(driver124).build();
        assertThat(codes(judge(across, null))).containsExactly("CUDA_DRIVER_TOO_OLD:error");
        Snapshot within = Snaps.node().gpus(1, "nvidia").cudaDriver(driver124)
                .cudaRuntime(Snaps.lib("CUDA runtime", "libcudart.so.12", Snaps.copy("/opt/cudart/libcudart.so.12", "ldconfig", true, "12.8"))).build();
        assertThat(codes(judge(within, null))).containsExactly("CUDA_DRIVER_TOO_OLD:warn");
        Snapshot older = Snaps.node().gpus(1, "nvidia")
                .cudaRuntime(Snaps.lib("CUDA runtime", "libcudart.so.12", Snaps.copy("/opt/cudart/libcudart.so.12", "ldconfig", true, "12.2"))).build();
        assertThat(codes(judge(older, null))).isEmpty();
    }

    @Test
    void twoNcclVersionsOnOneNode() {
        Snapshot s = Snaps.node().gpus(1, "nvidia").nccl(Snaps.lib("NCCL", "libnccl.so.2",
                Snaps.copy("/usr/lib/x86_64-linux-gnu/libnccl.so.2.21.5", "ldconfig", true, "2.21.5"),
                Snaps.copy("/venv/lib/python3.12/site-packages/nvidia/nccl/lib/libnccl.so.2", "python", false, "2.27.5"))).build();
        Evaluation e = judge(s, null);
        assertThat(codes(e)).containsExactly("NCCL_VERSIONS_DIFFER:warn");
        assertThat(e.findings().get(0).title()).isEqualTo("NCCL versions 2.21.5, 2.27.5 on one node");
    }

    @Test
    void theSiteMinimumComesFromTheConfiguration() {
        Snapshot s = Snaps.node().gpus(1, "nvidia").build();
        RulesConfig strict = new RulesConfig(Map.of(), List.of(), new RulesConfig.Thresholds("2.30.7"));
        assertThat(codes(judge(s, NodeShape.none(), strict))).containsExactly("NCCL_BELOW_SITE_MINIMUM:error");
        RulesConfig lenient = new RulesConfig(Map.of(), List.of(), new RulesConfig.Thresholds("2.28.3"));
        assertThat(codes(judge(s, NodeShape.none(), lenient))).isEmpty();
        assertThat(judge(s, null).notChecked()).anyMatch(n -> n.code().equals("NCCL_BELOW_SITE_MINIMUM"));
    }

    @Test
    void errorFactsAnywhereInTheSnapshotAreListedWithTheirPlace() {
        Snapshot s = Snaps.node().pciUnreadable("permission denied: /sys/bus/pci/devices").build();
        Evaluation e = judge(s, "gpus=8");
        assertThat(codes(e)).containsExactly("PROBE_INCOMPLETE:warn");
        assertThat(e.findings().get(0).evidence()).containsExactly("pci.devices: permission denied: /sys/bus/pci/devices");
        assertThat(e.notChecked()).anyMatch(n -> n.code().equals("NO_NVIDIA_GPU") && n.reason().contains("permission denied"));
    }

    @Test
    void siteOverridesChangeSeverityAndSwitchRulesOff() {
        Snapshot s = Snaps.node().nics(1).build();
        RulesConfig quiet = new RulesConfig(Map.of("NO_NVIDIA_GPU", Severity.ERROR), List.of("NCCL_VERSIONS_DIFFER"), null);
        Evaluation e = judge(s, NodeShape.none(), quiet);
        assertThat(codes(e)).containsExactly("NO_NVIDIA_GPU:error");
        assertThat(e.exitCode()).isEqualTo(1);
        assertThat(e.notChecked()).anyMatch(n -> n.code().equals("NCCL_VERSIONS_DIFFER") && n.reason().contains("disabled"));
    }

    @Test
    void everyRuleHasAUniqueCodeAndAFullExplanation() {
        var infos = Registry.nodeRules().stream().map(Rule::info).toList();
        assertThat(infos).extracting(RuleInfo::code).doesNotHaveDuplicates().allMatch(c -> c.matches("[A-Z][A-Z0-9_]+"));
        assertThat(infos).allSatisfy(i -> {
            assertThat(i.title()).isNotBlank();
            assertThat(i.story()).hasSizeGreaterThan(80);
            assertThat(i.evidence()).isNotBlank();
            assertThat(i.remedy()).isNotBlank();
        });
    }
}
