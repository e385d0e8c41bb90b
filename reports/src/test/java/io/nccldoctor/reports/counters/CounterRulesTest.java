package io.nccldoctor.reports.counters;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.TestHosts;
import io.nccldoctor.gdr.CounterProbe;
import io.nccldoctor.gdr.CounterDelta;
import io.nccldoctor.reports.CounterThresholds;
import io.nccldoctor.reports.Evaluation;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RulesConfig;
import io.nccldoctor.reports.Severity;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each counter rule fires on its fixture (README of gdr-probe's fixtures/counters) and stays quiet on the healthy run. */
class CounterRulesTest {

    static RuleContext with(CounterThresholds t) {
        return new RuleContext(new RulesConfig(Map.of(), List.of(), new RulesConfig.Thresholds(null, null, null, null, t)), NodeShape.none());
    }

    static List<String> findings(String scenario, RuleContext ctx) {
        return CounterRules.evaluate(CounterFixtures.delta(scenario), ctx).findings().stream()
                .map(f -> f.code() + ":" + f.subject() + ":" + f.severity().label()).toList();
    }

    static List<String> findings(String scenario) {
        return findings(scenario, RuleContext.defaults());
    }

    @Test
    void theHealthyRunHasNoFindingAndEveryRuleRan() {
        Evaluation e = CounterRules.evaluate(CounterFixtures.delta("healthy"), RuleContext.defaults());
        assertThat(e.findings()).as("a few pauses, CNPs handled, even rails").isEmpty();
        assertThat(e.notChecked()).isEmpty();
        assertThat(e.passed()).hasSize(10).containsExactlyElementsOf(CounterRules.all().stream().map(r -> r.info().code()).toList());
        assertThat(e.exitCode()).isZero();
    }

    @Test
    void eachScenarioHasTheFindingsItsReadmeStates() {
        assertThat(findings("pause-storm")).containsExactly("COUNTER_PFC_PAUSES:mlx5_0 port 1:error",
                "COUNTER_PAUSE_STORM:mlx5_0 port 1:error", "COUNTER_DISCARDS:mlx5_0 port 1:warn");
        assertThat(findings("ecn-cnp-ignored")).containsExactly("COUNTER_ECN_WITHOUT_CNP_HANDLING:mlx5_0 port 1:warn",
                "COUNTER_ECN_WITHOUT_CNP_HANDLING:mlx5_1 port 1:warn");
        assertThat(findings("out-of-sequence")).containsExactly("COUNTER_OUT_OF_SEQUENCE:mlx5_0 port 1:warn",
                "COUNTER_OUT_OF_SEQUENCE:mlx5_1 port 1:warn", "COUNTER_RETRANSMISSIONS:mlx5_0 port 1:warn",
                "COUNTER_RETRANSMISSIONS:mlx5_1 port 1:warn");
        assertThat(findings("uneven-rails")).containsExactly("COUNTER_RAIL_IMBALANCE:node:warn");
        assertThat(findings("link-flap")).containsExactly("COUNTER_ACK_TIMEOUTS:mlx5_1 port 1:error",
                "COUNTER_LINK_ERRORS:mlx5_1 port 1:error");
    }

    @Test
    void theEvidenceCarriesTheNumbersAndTheThreshold() {
        Finding pauses = CounterRules.evaluate(CounterFixtures.delta("pause-storm"), RuleContext.defaults()).findings().get(0);
        assertThat(pauses.title()).isEqualTo("priority 3 paused 82.0 % of the run (pauses sent: this host cannot drain)");
        assertThat(pauses.evidence()).contains("sent 1,500,000 pause frames, paused 8200 ms (82.0 %): this port's receive buffer "
                + "filled and it stopped the switch", "over 10.0 s; thresholds.counters.pauseFractionWarn 0.02, pauseFractionError 0.2");
        Finding storm = CounterRules.evaluate(CounterFixtures.delta("pause-storm"), RuleContext.defaults()).findings().get(1);
        assertThat(storm.evidence()).contains("outbound_pci_stalled_wr_events +8: the NIC's PCIe writes to host memory stalled "
                + "over 30 % in that many seconds");
        Finding rails = CounterRules.evaluate(CounterFixtures.delta("uneven-rails"), RuleContext.defaults()).findings().get(0);
        assertThat(rails.title()).isEqualTo("Tx bytes across 2 rails are uneven: CV 0.53");
        assertThat(rails.evidence()).containsExactly("mlx5_0 port 1: Tx 109.9 GiB (76.6 % of the total)",
                "mlx5_1 port 1: Tx 33.53 GiB (23.4 % of the total)", "CV 0.53 over 2 ports; thresholds.counters.railCv 0.2");
        Finding ecn = CounterRules.evaluate(CounterFixtures.delta("ecn-cnp-ignored"), RuleContext.defaults()).findings().get(0);
        assertThat(ecn.title()).isEqualTo("DCQCN is not reacting: the reaction point ignored 2,300,000 of the 2,300,012 CNPs this port received");
        Finding oos = CounterRules.evaluate(CounterFixtures.delta("out-of-sequence"), RuleContext.defaults()).findings().get(0);
        assertThat(oos.title()).isEqualTo("12,600,000 packets out of sequence, 74.8 % of those received");
    }

    @Test
    void thresholdsDecide() {
        CounterThresholds d = CounterThresholds.DEFAULTS;
        // the healthy run: 3.1 ms of 10 s paused (0.031 %), CV 0.0026, nothing else
        CounterThresholds strictPauses = new CounterThresholds(0.0003, null, null, null, null, null, null, null);
        assertThat(findings("healthy", with(strictPauses))).containsExactly("COUNTER_PFC_PAUSES:mlx5_0 port 1:warn",
                "COUNTER_PFC_PAUSES:mlx5_1 port 1:warn");
        CounterThresholds strictRails = new CounterThresholds(null, null, null, null, null, null, 0.002, null);
        assertThat(findings("healthy", with(strictRails))).containsExactly("COUNTER_RAIL_IMBALANCE:node:warn");
        CounterThresholds lenientRails = new CounterThresholds(null, null, null, null, null, null, 0.6, null);
        assertThat(findings("uneven-rails", with(lenientRails))).as("CV 0.53 under 0.6").isEmpty();
        CounterThresholds bigRails = new CounterThresholds(null, null, null, null, null, null, null, 200L << 30);
        assertThat(findings("uneven-rails", with(bigRails))).as("143 GiB sent, under a 200 GiB minimum").isEmpty();
        CounterThresholds lenientOos = new CounterThresholds(null, null, null, null, 800_000.0, 800_000.0, null, null);
        assertThat(findings("out-of-sequence", with(lenientOos))).as("about 750,000 and 700,000 per million, under 800,000").isEmpty();
        CounterThresholds lenientPauses = new CounterThresholds(null, 0.9, null, null, null, null, null, null);
        assertThat(findings("pause-storm", with(lenientPauses))).as("82 % is a warning below a 90 % error threshold")
                .contains("COUNTER_PFC_PAUSES:mlx5_0 port 1:warn");
        assertThat(d.withDefaults()).isEqualTo(d);
        assertThat(new CounterThresholds(0.05, null, null, null, null, null, null, null).withDefaults().pauseFractionError())
                .isEqualTo(0.20);
    }

    @Test
    void severityOverridesAndDisabledRulesApply() {
        RulesConfig site = new RulesConfig(Map.of("COUNTER_RAIL_IMBALANCE", Severity.ERROR), List.of("COUNTER_LINK_ERRORS"), null);
        Evaluation e = CounterRules.evaluate(CounterFixtures.delta("uneven-rails"), new RuleContext(site, NodeShape.none()));
        assertThat(e.findings()).extracting(Finding::severity).containsExactly(Severity.ERROR);
        assertThat(e.exitCode()).isEqualTo(1);
        assertThat(e.notChecked()).extracting(Evaluation.NotChecked::code).containsExactly("COUNTER_LINK_ERRORS");
    }

    @Test
    void withoutPortsOrAnIntervalTheRulesSayWhyTheyDidNotJudge() {
        CounterDelta none = new CounterDelta(Fact.of(10.0), Fact.absent("/sys/class/infiniband absent: no RDMA device"),
                Fact.absent("no ports"), List.of());
        Evaluation e = CounterRules.evaluate(none, RuleContext.defaults());
        assertThat(e.findings()).isEmpty();
        assertThat(e.notChecked()).hasSize(10).allMatch(n -> n.reason().equals("/sys/class/infiniband absent: no RDMA device"));
        CounterDelta healthy = CounterFixtures.delta("healthy");
        CounterDelta unknownInterval = new CounterDelta(Fact.absent("the snapshots are not from one process"), healthy.ports(),
                healthy.txBytesCv(), List.of());
        assertThat(CounterRules.evaluate(unknownInterval, RuleContext.defaults()).notChecked())
                .extracting(Evaluation.NotChecked::code).containsExactly("COUNTER_PFC_PAUSES");
    }

    @TempDir
    Path tmp;

    static TestHosts ecn(TestHosts h, long marked, long sent, long handled) {
        String p = "/sys/class/infiniband/mlx5_0/ports/1";
        return h.file(p + "/link_layer", "Ethernet\n").file(p + "/hw_counters/np_ecn_marked_roce_packets", marked + "\n")
                .file(p + "/hw_counters/np_cnp_sent", sent + "\n").file(p + "/hw_counters/rp_cnp_handled", handled + "\n")
                .file(p + "/hw_counters/rp_cnp_ignored", "0\n");
    }

    static CounterDelta between(TestHosts a, TestHosts b) {
        return CounterDelta.of(new CounterProbe(CounterProbe.ETHTOOL, List.of(), () -> 0, Clock.systemUTC()).run(a.host()),
                new CounterProbe(CounterProbe.ETHTOOL, List.of(), () -> 10_000_000_000L, Clock.systemUTC()).run(b.host()));
    }

    @Test
    void marksThatNoCnpAnswersOrThatNeverComeBack() {
        CounterDelta npOff = between(ecn(TestHosts.at(tmp.resolve("a")), 0, 0, 0), ecn(TestHosts.at(tmp.resolve("b")), 50_000, 0, 900));
        Finding f = CounterRules.evaluate(npOff, RuleContext.defaults()).findings().get(0);
        assertThat(f.title()).isEqualTo("DCQCN is not reacting: marked packets arrived but the notification point sent no CNP");
        CounterDelta noneBack = between(ecn(TestHosts.at(tmp.resolve("c")), 0, 0, 0), ecn(TestHosts.at(tmp.resolve("d")), 50_000, 50_000, 0));
        assertThat(CounterRules.evaluate(noneBack, RuleContext.defaults()).findings().get(0).title())
                .isEqualTo("DCQCN is not reacting: marked packets arrived but no CNP came back to slow this port's own traffic");
        CounterDelta few = between(ecn(TestHosts.at(tmp.resolve("e")), 0, 0, 0), ecn(TestHosts.at(tmp.resolve("f")), 999, 0, 0));
        assertThat(CounterRules.evaluate(few, RuleContext.defaults()).findings()).as("under ecnMinMarked 1000").isEmpty();
    }

    @Test
    void codesAreStableAndUnique() {
        assertThat(CounterRules.all().stream().map(r -> r.info().code()).toList()).containsExactly("COUNTER_INCONSISTENT", "COUNTER_PFC_PAUSES",
                "COUNTER_PAUSE_STORM", "COUNTER_ECN_WITHOUT_CNP_HANDLING", "COUNTER_OUT_OF_SEQUENCE", "COUNTER_RETRANSMISSIONS",
                "COUNTER_ACK_TIMEOUTS", "COUNTER_DISCARDS", "COUNTER_LINK_ERRORS", "COUNTER_RAIL_IMBALANCE");
        CounterRules.all().forEach(r -> assertThat(r.info().code()).as("explain prints codes up to 36 wide").hasSizeLessThan(36));
    }
}
