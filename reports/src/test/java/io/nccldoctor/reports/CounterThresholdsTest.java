package io.nccldoctor.reports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.InputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** thresholds.counters of configs/rules.yaml: documented defaults, partial overrides, typos refused. */
class CounterThresholdsTest {

    @TempDir
    Path tmp;

    @Test
    void theShippedFileStatesTheDefaults() {
        RulesConfig shipped = RulesConfig.load(Path.of("../configs/rules.yaml"), Set.of());
        assertThat(shipped.thresholds().counters()).as("configs/rules.yaml documents the defaults, not other values")
                .isEqualTo(CounterThresholds.DEFAULTS);
        assertThat(RulesConfig.defaults().thresholds().counters()).isEqualTo(CounterThresholds.DEFAULTS);
        assertThat(new RulesConfig.Thresholds("2.27.5", 4200, null).counters()).isEqualTo(CounterThresholds.DEFAULTS);
    }

    @Test
    void aPartialSectionKeepsTheOtherDefaults() throws Exception {
        Path f = Files.writeString(tmp.resolve("rules.yaml"), "thresholds:\n  counters:\n    railCv: 0.1\n    pauseFractionWarn: 0.05\n");
        CounterThresholds t = RulesConfig.load(f, Set.of()).thresholds().counters();
        assertThat(t.railCv()).isEqualTo(0.1);
        assertThat(t.pauseFractionWarn()).isEqualTo(0.05);
        assertThat(t.pauseFractionError()).isEqualTo(0.20);
        assertThat(t.railMinBytes()).isEqualTo(1L << 30);
        assertThat(RulesConfig.load(f, Set.of()).thresholds().results()).isEqualTo(ResultThresholds.DEFAULTS);
    }

    @Test
    void aMisspelledKeyIsAnErrorNamingIt() throws Exception {
        Path f = Files.writeString(tmp.resolve("bad.yaml"), "thresholds:\n  counters:\n    railCV: 0.1\n");
        assertThatThrownBy(() -> RulesConfig.load(f, Set.of())).isInstanceOf(InputException.class)
                .hasMessageContaining("bad.yaml:").hasMessageContaining("railCV");
    }
}
