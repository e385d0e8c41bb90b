package io.nccldoctor.reports.counters;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.GermanLocale;
import io.nccldoctor.gdr.CounterDelta;
import io.nccldoctor.gdr.CounterSnapshot;
import io.nccldoctor.gdr.CounterWindow;
import io.nccldoctor.reports.CounterThresholds;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RulesConfig;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Counter deltas that cannot measure their window: gdr-probe's fixtures (10 s of traffic at about 92 Gbit/s per rail,
 * README.md there) read over windows of 10 s, 1.25 s and 0.5 s, and a counter that went backwards.
 */
@ExtendWith(GermanLocale.class)
class CounterInconsistentTest {

    static CounterDelta over(String scenario, long ns) {
        return CounterDelta.of(CounterFixtures.snapshot(scenario, "before", 0), CounterFixtures.snapshot(scenario, "after", ns));
    }

    static List<Finding> judge(CounterDelta d, CounterThresholds t) {
        RuleContext c = new RuleContext(new RulesConfig(Map.of(), List.of(),
                new RulesConfig.Thresholds(null, null, null, null, t)), NodeShape.none());
        return new Inconsistent().check(d, c).findings();
    }

    @Test
    void tenSecondsOfTrafficOverTenSecondsIsARate() {
        assertThat(judge(over("healthy", 10_000_000_000L), CounterThresholds.DEFAULTS)).isEmpty();
    }

    @Test
    void theSameBytesOverOneAndAQuarterSecondsAreNoRate() {
        CounterDelta d = over("healthy", 1_253_000_000L);
        List<Finding> f = judge(d, CounterThresholds.DEFAULTS);
        assertThat(f).hasSize(2).allSatisfy(x -> {
            assertThat(x.code()).isEqualTo("COUNTER_INCONSISTENT");
            assertThat(x.title()).endsWith("do not measure this window: an inconsistent measurement, not a rate");
        });
        assertThat(f.get(0).evidence().get(0)).startsWith("Tx: ").contains("734 % of the 100 Gb/s line rate")
                .contains("more than the link can carry");
        String text = CounterText.render(CounterReport.of("test", new CounterWindow(CounterFixtures.snapshot("healthy", "before", 0),
                CounterFixtures.snapshot("healthy", "after", 1_253_000_000L), d, Optional.empty()),
                CounterRules.evaluate(d, RuleContext.defaults())));
        assertThat(text).contains("    bytes     Tx +107.1 GiB (inconsistent: no rate); Rx +107.1 GiB (inconsistent: no rate)\n")
                .doesNotContain("% of line rate)").contains("WARN  COUNTER_INCONSISTENT")
                .contains("    note      Tx is no rate: 115,000,000,000 bytes in 1.253 s would be 734.2 Gbit/s, 734 % of the 100 Gb/s "
                        + "line rate: more than the link can carry");
        // a tolerance of 700 % lets it through: the threshold decides
        assertThat(judge(d, new CounterThresholds(null, null, null, null, null, null, null, null, null, 7.0))).isEmpty();
    }

    @Test
    void aWindowShorterThanTheDriversRefreshIsNoRate() {
        List<Finding> f = judge(over("healthy", 500_000_000L), CounterThresholds.DEFAULTS);
        assertThat(f).isNotEmpty();
        assertThat(f.get(0).evidence().get(0)).contains("a 0.500 s window is shorter than the 1.0 s");
        assertThat(judge(over("healthy", 500_000_000L), new CounterThresholds(null, null, null, null, null, null, null, null, 0.1, 20.0)))
                .as("minWindowSeconds 0.1 and a tolerance that lets 1840 % through").isEmpty();
    }

    @Test
    void aCounterThatWentBackwardsIsInconsistent() {
        CounterSnapshot after = CounterFixtures.snapshot("healthy", "before", 0);
        CounterSnapshot before = CounterFixtures.snapshot("healthy", "after", -10_000_000_000L); // the readings swapped
        CounterDelta d = CounterDelta.of(before, after);
        assertThat(judge(d, CounterThresholds.DEFAULTS)).isNotEmpty().allSatisfy(x -> assertThat(x.evidence())
                .anyMatch(e -> e.contains("went backwards")));
    }
}
