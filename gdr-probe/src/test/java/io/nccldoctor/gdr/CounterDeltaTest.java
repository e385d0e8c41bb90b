package io.nccldoctor.gdr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.TestHosts;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Deltas between two snapshots: units, per-priority pauses, resets and saturation, and the CV across rails. */
class CounterDeltaTest {

    @TempDir
    Path root;

    @Test
    void bytesAreFourTimesPortXmitDataAndTheIntervalIsTheMonotonicDifference() {
        CounterDelta d = CounterFixtures.delta("healthy");
        assertThat(d.seconds().get()).isEqualTo(10.0);
        CounterDelta.PortDelta rail0 = d.ports().get().get(0);
        assertThat(rail0.counters().get("counters/port_xmit_data").get()).as("the kernel's count of 4-byte words").isEqualTo(28_750_000_000L);
        assertThat(rail0.figure(CounterFigure.TX_BYTES).get()).as("port_xmit_data x 4").isEqualTo(115_000_000_000L);
        assertThat(rail0.figure(CounterFigure.RX_BYTES).get()).isEqualTo(115_000_000_000L);
        assertThat(rail0.figure(CounterFigure.TX_PACKETS).get()).isEqualTo(28_076_171L);
        assertThat(rail0.netdevs()).containsExactly("enp178s0f0");
    }

    @Test
    void pausesPerPriorityEcnAndCnpsOfTheHealthyRun() {
        CounterDelta.PortDelta rail0 = CounterFixtures.delta("healthy").ports().get().get(0);
        assertThat(rail0.pfc()).as("only priority 3 has pause counters (PFC enabled there)").hasSize(1);
        CounterDelta.PriorityPauses p3 = rail0.pfc().get(0);
        assertThat(p3.priority()).isEqualTo(3);
        assertThat(List.of(p3.rxPauses().get(), p3.rxPauseUs().get(), p3.txPauses().get(), p3.txPauseUs().get()))
                .containsExactly(120L, 3100L, 40L, 1000L);
        assertThat(rail0.figure(CounterFigure.ECN_MARKED).get()).isEqualTo(5000L);
        assertThat(rail0.figure(CounterFigure.CNP_SENT).get()).isEqualTo(5000L);
        assertThat(rail0.figure(CounterFigure.CNP_HANDLED).get()).isEqualTo(4800L);
        assertThat(rail0.figure(CounterFigure.CNP_IGNORED).get()).isZero();
        assertThat(rail0.figure(CounterFigure.OUT_OF_SEQUENCE).get()).isZero();
        assertThat(rail0.figure(CounterFigure.RX_GLOBAL_PAUSES).get()).isZero();
        assertThat(rail0.figure(CounterFigure.PAUSE_STORM_ERRORS).get()).isZero();
    }

    @Test
    void saturatedPmaCountersHaveNoDeltaAndSaySo() {
        CounterDelta.PortDelta rail0 = CounterFixtures.delta("link-flap").ports().get().get(0);
        assertThat(rail0.figure(CounterFigure.LINK_DOWNED).reason())
                .isEqualTo("saturated at 255 (the 8-bit PMA maximum) in both snapshots: an unchanged value says nothing");
        assertThat(rail0.figure(CounterFigure.XMIT_DISCARDS).reason()).startsWith("saturated at 65535 (the 16-bit");
        assertThat(rail0.notes()).containsExactly("PMA counters stuck at their maximum count nothing more (clear them with perfquery -x -R): "
                + "counters/excessive_buffer_overrun_errors 15 (4 bits), counters/link_downed 255 (8 bits), "
                + "counters/port_xmit_discards 65535 (16 bits), counters/port_xmit_wait 4294967295 (32 bits)");
        CounterDelta.PortDelta rail1 = CounterFixtures.delta("link-flap").ports().get().get(1);
        assertThat(rail1.figure(CounterFigure.LINK_DOWNED).get()).as("a cleared counter counts the flap").isEqualTo(1L);
        assertThat(rail1.figure(CounterFigure.SYMBOL_ERRORS).get()).isEqualTo(1480L);
        assertThat(rail1.figure(CounterFigure.LINK_DOWN_EVENTS).get()).isEqualTo(1L);
        assertThat(rail1.figure(CounterFigure.ACK_TIMEOUTS).get()).isEqualTo(4L);
    }

    @Test
    void theCvOfTxBytesAcrossRails() {
        // 115 and 114.4 GB: mean 114.7, population sd 0.3
        assertThat(CounterFixtures.delta("healthy").txBytesCv().get()).isCloseTo(0.03 / 11.47, within(1e-9));
        // 118 and 36 GB: mean 77, sd 41
        assertThat(CounterFixtures.delta("uneven-rails").txBytesCv().get()).isCloseTo(4.1 / 7.7, within(1e-9));
    }

    static TestHosts rail(TestHosts h, String dev, long xmitWords, long cnpSent) {
        String p = "/sys/class/infiniband/" + dev + "/ports/1";
        return h.file(p + "/state", "4: ACTIVE\n").file(p + "/link_layer", "Ethernet\n")
                .file(p + "/counters/port_xmit_data", xmitWords + "\n").file(p + "/hw_counters/np_cnp_sent", cnpSent + "\n");
    }

    static CounterSnapshot read(TestHosts h, long ns) {
        return new CounterProbe(CounterProbe.ETHTOOL, List.of(), () -> ns, Clock.systemUTC()).run(h.host());
    }

    @Test
    void aCounterThatWentBackwardsHasNoDeltaAndTheReason() {
        CounterSnapshot before = read(rail(TestHosts.at(root.resolve("a")), "mlx5_0", 5_000_000, 100), 0);
        CounterSnapshot after = read(rail(TestHosts.at(root.resolve("b")), "mlx5_0", 1_000, 160), 2_000_000_000L);
        CounterDelta.PortDelta p = CounterDelta.of(before, after).ports().get().get(0);
        Fact<Long> tx = p.figure(CounterFigure.TX_BYTES);
        assertThat(tx.isValue()).as("no invented delta after a reset").isFalse();
        assertThat(tx.reason()).startsWith("went backwards from 5000000 to 1000: the counter was reset");
        assertThat(p.notes()).containsExactly("counters/port_xmit_data went backwards from 5000000 to 1000: reset or wrapped "
                + "between the snapshots, no delta");
        assertThat(p.figure(CounterFigure.CNP_SENT).get()).as("the other counters are unaffected").isEqualTo(60L);
        assertThat(p.figure(CounterFigure.RX_BYTES).reason()).isEqualTo("no counters/port_rcv_data on this port");
        assertThat(p.figure(CounterFigure.PAUSE_STORM_ERRORS).reason())
                .startsWith("no ethtool/tx_pause_storm_error_events on this port (");
    }

    @Test
    void portsThatComeOrGoBetweenTheSnapshotsAreNotedNotCompared() {
        CounterSnapshot before = read(rail(TestHosts.at(root.resolve("a")), "mlx5_0", 10, 1), 0);
        CounterSnapshot after = read(rail(rail(TestHosts.at(root.resolve("b")), "mlx5_0", 30, 1), "mlx5_1", 99, 1), 1_000_000_000L);
        CounterDelta d = CounterDelta.of(before, after);
        assertThat(d.ports().get()).extracting(CounterDelta.PortDelta::label).containsExactly("mlx5_0 port 1");
        assertThat(d.notes()).containsExactly("mlx5_1 port 1 appeared between the snapshots (hot-plug or driver reload): no delta");
        assertThat(d.txBytesCv().reason()).isEqualTo("needs two or more ports with a Tx byte count; 1 here");
        assertThat(CounterDelta.of(after, before).seconds().reason()).startsWith("the snapshots are not from one process");
    }
}
