package io.nccldoctor.reports.counters;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.core.GermanLocale;
import io.nccldoctor.core.Json;
import io.nccldoctor.gdr.CounterDelta;
import io.nccldoctor.gdr.CounterWindow;
import io.nccldoctor.gdr.ForegroundCommand;
import io.nccldoctor.core.Fact;
import io.nccldoctor.reports.RuleContext;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The counters verb's text and JSON, under a German locale so that no decimal comma leaks. */
@ExtendWith(GermanLocale.class)
class CounterTextTest {

    static CounterReport report(String scenario, ForegroundCommand.Result command) {
        var before = CounterFixtures.snapshot(scenario, "before", 0);
        var after = CounterFixtures.snapshot(scenario, "after", 10_000_000_000L);
        CounterDelta d = CounterDelta.of(before, after);
        return CounterReport.of("test", new CounterWindow(before, after, d, Optional.ofNullable(command)),
                CounterRules.evaluate(d, RuleContext.defaults()));
    }

    @Test
    void aRunPrintsBytesRatesPausesEcnAndTheCvPerPort() {
        String text = CounterText.render(report("healthy", new ForegroundCommand.Result(List.of("./train.sh", "--steps", "10"),
                Fact.of(0), false, 9800)));
        assertThat(text).startsWith("RDMA counters over 10.00 s - test\nCommand: ./train.sh --steps 10: exit 0 after 9.8 s\n")
                .contains("  mlx5_0 port 1  ACTIVE  Ethernet  100 Gb/s  enp178s0f0\n")
                .contains("    bytes     Tx +107.1 GiB (92.00 Gbit/s, 92 % of line rate); Rx +107.1 GiB (92.00 Gbit/s, 92 % of line rate)\n")
                .contains("    pauses    prio 3 rx +120 (3.10 ms), tx +40 (1.00 ms); global rx +0, tx +0; storms +0 (warnings +0)\n")
                .contains("    ECN/CNP   ECN-marked +5,000; CNP sent +5,000, handled +4,800, ignored +0\n")
                .contains("    drops     out_of_buffer +0; rx_discards_phy +0; tx_discards_phy +0; port_xmit_discards n/a\n")
                .contains("    note      PMA counters stuck at their maximum count nothing more (clear them with perfquery -x -R): "
                        + "counters/excessive_buffer_overrun_errors 15 (4 bits), counters/link_downed 255 (8 bits), ")
                .contains("Rails: Tx bytes CV 0.003 over 2 ports (0 is perfectly even)\n")
                .endsWith("Findings: none\n");
    }

    @Test
    void aFailedCommandFailsTheRunButTheDeltasAreStillThere() {
        CounterReport r = report("uneven-rails", new ForegroundCommand.Result(List.of("false"), Fact.of(1), false, 12));
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(CounterText.render(r)).contains("Command: false: FAILED, exit 1 after 0.0 s").contains("COUNTER_RAIL_IMBALANCE");
        CounterReport killed = report("healthy", new ForegroundCommand.Result(List.of("sleep", "99"),
                Fact.absent("killed with its process tree after 5 s (--timeout)"), true, 5000));
        assertThat(killed.exitCode()).isEqualTo(1);
        assertThat(CounterText.render(killed)).contains("Command: sleep 99: FAILED, killed with its process tree after 5 s (--timeout)");
        assertThat(report("link-flap", null).exitCode()).as("ACK timeouts and a link that went down are errors").isEqualTo(1);
    }

    @Test
    void aSnapshotPrintsTotals() {
        String text = CounterText.render(CounterReport.of("test", CounterFixtures.snapshot("healthy", "before", 0)));
        assertThat(text).contains("totals since the driver loaded or the counters were cleared")
                .contains("    bytes     Tx 746.31 TiB; Rx 746.25 TiB\n")
                .contains("    pauses    prio 3 rx 1,234 (85.56 ms), tx 0 (0.00 ms)")
                .contains("    transport out of sequence 0; NAK seq errors 0; retransmissions 0 (timeouts 0); ACK timeouts 2,705")
                .contains("counters/port_xmit_discards 65535 (16 bits), counters/port_xmit_wait 4294967295 (32 bits)\n")
                .doesNotContain("Findings");
    }

    @Test
    void jsonNamesFieldsWithUnitsAndUsesDecimalPoints() throws Exception {
        JsonNode doc = Json.mapper().readTree(Json.write(report("healthy", null)));
        assertThat(doc.get("kind").asText()).isEqualTo("counterDelta");
        assertThat(doc.has("snapshot")).as("a run shows its delta, not a snapshot").isFalse();
        assertThat(doc.at("/delta/seconds/value").asDouble()).isEqualTo(10.0);
        assertThat(doc.at("/delta/ports/value/0/figures/txBytes/value").asLong()).isEqualTo(115_000_000_000L);
        assertThat(doc.at("/delta/ports/value/0/counters/counters~1port_xmit_data/value").asLong()).isEqualTo(28_750_000_000L);
        assertThat(doc.at("/delta/ports/value/0/pfc/0/rxPauseUs/value").asLong()).isEqualTo(3100);
        assertThat(doc.at("/delta/ports/value/0/figures/linkDowned/absent").asText()).startsWith("saturated at 255");
        assertThat(Json.write(report("healthy", null))).contains("\"value\" : 0.0026").doesNotContain("0,0026");
        assertThat(doc.get("exitCode").asInt()).isZero();
    }
}
