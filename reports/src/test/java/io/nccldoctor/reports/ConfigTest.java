package io.nccldoctor.reports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.InputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigTest {

    @TempDir
    Path tmp;

    private static final Set<String> CODES = Set.of("NO_NVIDIA_GPU", "NCCL_NOT_FOUND");

    @Test
    void theShippedRulesFileLoads() {
        Path shipped = Path.of("../configs/rules.yaml");
        RulesConfig c = RulesConfig.load(shipped, Set.copyOf(io.nccldoctor.reports.rules.Registry.nodeRules().stream()
                .map(r -> r.info().code()).toList()));
        assertThat(c.thresholds().ncclMinimum()).as("the shipped file sets no site minimum").isEmpty();
    }

    @Test
    void overridesAndThresholdsAreRead() throws Exception {
        Path f = Files.writeString(tmp.resolve("rules.yaml"),
                "severity:\n  NCCL_NOT_FOUND: info\ndisabled: [NO_NVIDIA_GPU]\nthresholds:\n  ncclMinimumVersion: \"2.27.5\"\n");
        RulesConfig c = RulesConfig.load(f, CODES);
        assertThat(c.severity()).containsEntry("NCCL_NOT_FOUND", Severity.INFO);
        assertThat(c.disabled()).containsExactly("NO_NVIDIA_GPU");
        assertThat(c.thresholds().ncclMinimum()).contains("2.27.5");
    }

    @Test
    void aTypoIsAnErrorNamingTheFileNotASilentNoOp() throws Exception {
        Path f = Files.writeString(tmp.resolve("rules.yaml"), "severity:\n  NCCL_NOT_FUOND: info\n");
        assertThatThrownBy(() -> RulesConfig.load(f, CODES)).isInstanceOf(InputException.class)
                .hasMessageContaining(f.toString()).hasMessageContaining("NCCL_NOT_FUOND");
        Path g = Files.writeString(tmp.resolve("bad.yaml"), "thresholds:\n  ncclMinimumVerison: 2\n");
        assertThatThrownBy(() -> RulesConfig.load(g, CODES)).isInstanceOf(InputException.class)
                .hasMessageContaining("bad.yaml:").hasMessageContaining("ncclMinimumVerison");
    }

    @Test
    void compareThresholdsAreReadWithDefaultsForUnsetKeys() throws Exception {
        RulesConfig shipped = RulesConfig.load(Path.of("../configs/rules.yaml"), CODES);
        assertThat(shipped.thresholds().compare()).as("the shipped file documents the defaults")
                .isEqualTo(io.nccldoctor.reports.compare.CompareThresholds.DEFAULTS);
        assertThat(RulesConfig.defaults().thresholds().compare()).isEqualTo(io.nccldoctor.reports.compare.CompareThresholds.DEFAULTS);
        Path f = Files.writeString(tmp.resolve("rules.yaml"), "thresholds:\n  compare:\n    minChange: 0.05\n    minSamples: 5\n");
        var c = RulesConfig.load(f, CODES).thresholds().compare();
        assertThat(c.minChange()).isEqualTo(0.05);
        assertThat(c.minSamples()).isEqualTo(5);
        assertThat(c.alpha()).as("unset: default").isEqualTo(0.05);
        assertThat(c.bootstrap()).isEqualTo(2000);
        Path bad = Files.writeString(tmp.resolve("bad.yaml"), "thresholds:\n  compare:\n    alpha: 5\n");
        assertThatThrownBy(() -> RulesConfig.load(bad, CODES)).isInstanceOf(InputException.class)
                .hasMessageContaining("bad.yaml:").hasMessageContaining("alpha");
    }

    @Test
    void nodeShapeParsing() {
        NodeShape s = NodeShape.parse("gpus=8, nics=10,rdma=8", "--expect");
        assertThat(s.expected("gpus")).hasValue(8);
        assertThat(s.expected("nics")).hasValue(10);
        assertThat(NodeShape.parse("gpus=4", "profile x").overriddenBy(NodeShape.parse("gpus=8", "--expect")).expected("gpus")).hasValue(8);
        assertThatThrownBy(() -> NodeShape.parse("gpu=8", "--expect")).hasMessageContaining("'gpu=8' is not KEY=COUNT");
        assertThatThrownBy(() -> NodeShape.parse("gpus=eight", "--expect")).hasMessageContaining("gpus=eight is not a count");
        assertThatThrownBy(() -> NodeShape.parse("gpus=-1", "--expect")).isInstanceOf(InputException.class);
    }
}
