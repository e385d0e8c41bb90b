package io.nccldoctor.gdr;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.TestHosts;
import io.nccldoctor.core.exec.CommandResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading counters/, hw_counters/ and `ethtool -S` into a snapshot: the fixtures and the ways reading fails. */
class CounterProbeTest {

    @TempDir
    Path root;

    @Test
    void everyFixtureReadsTwoRoceRailsWithAllThreeSources() {
        for (String scenario : CounterFixtures.SCENARIOS) {
            for (String phase : List.of("before", "after")) {
                CounterSnapshot s = CounterFixtures.snapshot(scenario, phase);
                List<CounterSnapshot.Port> ports = s.ports().get();
                assertThat(ports).as(scenario + " " + phase).extracting(CounterSnapshot.Port::label)
                        .containsExactly("mlx5_0 port 1", "mlx5_1 port 1");
                for (CounterSnapshot.Port p : ports) {
                    assertThat(p.state().get()).isEqualTo("ACTIVE");
                    assertThat(p.linkLayer().get()).isEqualTo("Ethernet");
                    assertThat(p.rateGbps().get()).isEqualTo(100.0);
                    assertThat(p.counters().get()).as("every PMA file of the listing").hasSize(21);
                    assertThat(p.hwCounters().get()).as("every mlx5 hw_counters file").hasSize(30);
                    Map<String, Long> ethtool = p.netdevs().get().get(0).ethtool().get();
                    assertThat(ethtool).as("the header line is no statistic").doesNotContainKey("NIC statistics")
                            .containsKeys("rx_prio3_pause", "tx_pause_storm_error_events", "rx_discards_phy").hasSize(58);
                }
            }
        }
    }

    @Test
    void theBaselineKeepsTheRealListingsValues() {
        CounterSnapshot.Port rail0 = CounterFixtures.snapshot("healthy", "before").ports().get().get(0);
        assertThat(rail0.counters().get().get("port_xmit_data").get()).as("leptonai/gpud#943").isEqualTo(205143497464492L);
        assertThat(rail0.counters().get().get("link_downed").get()).isEqualTo(255L);
        assertThat(rail0.hwCounters().get().get("local_ack_timeout_err").get()).as("bytedance/byteps#179").isEqualTo(2705L);
        CounterSnapshot.Netdev nd = rail0.netdevs().get().get(0);
        assertThat(nd.name()).isEqualTo("enp178s0f0");
        assertThat(nd.ethtool().get()).containsEntry("rx_prio0_bytes", 88034564921216L).containsEntry("rx_prio3_pause", 1234L);
    }

    @Test
    void ethtoolLinesOfSeveralDrivers() {
        Map<String, Long> stats = CounterProbe.parseEthtool(List.of("NIC statistics:", "     rx_prio3_pause: 41927",
                "     [0]: rx_bytes: 209487403324", "     rxq0: rx_drops_no_frags: 3885606854", "     module_temp: n/a",
                "", "     tx_pause_storm_error_events: 0", "     huge: 18446744073709551615"));
        assertThat(stats).as("mlx5, bnx2x per-queue and be2net per-queue names").containsExactly(
                Map.entry("rx_prio3_pause", 41927L), Map.entry("[0]: rx_bytes", 209487403324L),
                Map.entry("rxq0: rx_drops_no_frags", 3885606854L), Map.entry("tx_pause_storm_error_events", 0L));
    }

    @Test
    void counterFilesThatGiveNoNumberSayWhy() {
        assertThat(CounterProbe.counterValue("4294967295\n").get()).isEqualTo(4294967295L);
        Fact<Long> noPma = CounterProbe.counterValue("N/A (no PMA)");
        assertThat(noPma.isAbsent()).as("i40iw in prometheus/node_exporter#966").isTrue();
        assertThat(noPma.reason()).startsWith("N/A (no PMA): the port has no performance management agent");
        assertThat(CounterProbe.counterValue("garbage").reason()).isEqualTo("not a counter value: 'garbage'");
        assertThat(CounterProbe.counterValue("18446744073709551615").isError()).isTrue();
    }

    static TestHosts port(TestHosts h, String dev, String netdev, String linkLayer) {
        String p = "/sys/class/infiniband/" + dev + "/ports/1";
        return h.file(p + "/state", "4: ACTIVE\n").file(p + "/link_layer", linkLayer + "\n")
                .file(p + "/counters/port_xmit_data", "1000\n").file(p + "/hw_counters/np_cnp_sent", "7\n")
                .file("/sys/class/infiniband/" + dev + "/device/net/" + netdev + "/dev_port", "0\n");
    }

    @Test
    void missingEthtoolAndInfinibandPortsAreAbsentWithTheReason() {
        TestHosts h = port(port(TestHosts.at(root), "mlx5_0", "enp1s0f0np0", "Ethernet"), "mlx5_1", "ibp2s0", "InfiniBand")
                .command(new CommandResult.NotRun(List.of("ethtool", "-S", "enp1s0f0np0"), "command not found: ethtool"))
                .command(new CommandResult.NotRun(List.of("/usr/sbin/ethtool", "-S", "enp1s0f0np0"), "command not found: /usr/sbin/ethtool"));
        List<CounterSnapshot.Port> ports = new CounterProbe().run(h.host()).ports().get();
        Fact<Map<String, Long>> roce = ports.get(0).netdevs().get().get(0).ethtool();
        assertThat(roce.reason()).as("both candidates tried").isEqualTo("command not found: /usr/sbin/ethtool");
        assertThat(ports.get(1).netdevs().get().get(0).ethtool().reason()).startsWith("not run: ethtool -S counts Ethernet");
        assertThat(ports.get(1).hwCounters().get().get("np_cnp_sent").get()).isEqualTo(7L);
    }

    @Test
    void theSecondEthtoolIsTriedOnlyWhenTheFirstIsNotInstalled() {
        TestHosts h = port(TestHosts.at(root), "mlx5_0", "enp1s0f0np0", "Ethernet")
                .command(new CommandResult.NotRun(List.of("ethtool", "-S", "enp1s0f0np0"), "command not found: ethtool"))
                .stdout(List.of("/usr/sbin/ethtool", "-S", "enp1s0f0np0"), "NIC statistics:\n     rx_prio3_pause: 5\n");
        assertThat(new CounterProbe().run(h.host()).ports().get().get(0).netdevs().get().get(0).ethtool().get())
                .containsEntry("rx_prio3_pause", 5L);
        TestHosts failing = port(TestHosts.at(root.resolve("b")), "mlx5_0", "enp1s0f0np0", "Ethernet")
                .command(new CommandResult.Exited(List.of("ethtool", "-S", "enp1s0f0np0"), 94, "", "no stats available\n", 3));
        assertThat(new CounterProbe().run(failing.host()).ports().get().get(0).netdevs().get().get(0).ethtool().reason())
                .isEqualTo("ethtool exited with 94: no stats available");
    }

    @Test
    void portsCanBeSelectedAsNcclIbHcaNamesThem() {
        TestHosts h = port(port(TestHosts.at(root), "mlx5_0", "a", "Ethernet"), "mlx5_1", "b", "Ethernet");
        assertThat(new CounterProbe(CounterProbe.ETHTOOL, List.of("mlx5_1:1")).run(h.host()).ports().get())
                .extracting(CounterSnapshot.Port::label).containsExactly("mlx5_1 port 1");
        assertThat(new CounterProbe(CounterProbe.ETHTOOL, List.of("mlx5_7")).run(h.host()).ports().reason())
                .isEqualTo("no RDMA port matches mlx5_7 (ports here: mlx5_0:1, mlx5_1:1)");
        assertThat(new CounterProbe().run(TestHosts.at(root.resolve("empty")).host()).ports().reason())
                .startsWith("/sys/class/infiniband absent");
    }
}
