package io.nccldoctor.reports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.InputException;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.reports.rules.ProfileMismatch;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A profile's require: map against the Arrow Lake capture (GPU Gen5 x8 on a bifurcated port, ConnectX-5 Gen3 x8). */
class ProfileMismatchTest {

    static List<Finding> judge(Map<String, String> require) {
        Snapshot s = TopologyRulesTest.snapshot("arrowlake-ws");
        NodeShape shape = NodeShape.parse("gpus=1", "profile test").requiring(require, "test.yaml");
        return new ProfileMismatch().check(s, new RuleContext(RulesConfig.defaults(), shape)).findings();
    }

    @Test
    void linksFirmwareAndMtuAgainstTheProfile() {
        assertThat(judge(Map.of("gpuLink", "Gen5 x8", "nicLink", "Gen3 x8", "nicFirmware", "16.35.4030", "mtu", "1500"))).isEmpty();
        List<Finding> f = judge(Map.of("gpuLink", "Gen5 x16", "mtu", "4200", "nicFirmware", "16.35.4040"));
        assertThat(f).extracting(Finding::title).containsExactly(
                "GPU 0000:01:00.0 runs Gen5 x8, the profile requires Gen5 x16",
                "enp2s0f1np1 MTU 1500, the profile requires 4200",
                "mlx5_0 firmware 16.35.4030, the profile requires 16.35.4040",
                "mlx5_1 firmware 16.35.4030, the profile requires 16.35.4040");
        assertThat(f.get(0).evidence()).contains("required by profile test");
    }

    @Test
    void badRequirementsAreRefusedWithTheFile() {
        assertThatThrownBy(() -> NodeShape.none().requiring(Map.of("gpuLnk", "Gen5 x16"), "p.yaml")).isInstanceOf(InputException.class)
                .hasMessageStartingWith("p.yaml: require.gpuLnk is not one of gpuLink, nicLink");
        assertThatThrownBy(() -> NodeShape.none().requiring(Map.of("gpuLink", "PCIe5 16x"), "p.yaml")).hasMessageContaining("Gen5 x16");
        assertThat(new ProfileMismatch().check(TopologyRulesTest.snapshot("arrowlake-ws"), RuleContext.defaults()).isWaived()).isTrue();
    }
}
