package io.nccldoctor.gdr;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Fact;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** bnxt_re, irdma and EFA ports read into the figures mlx5 ports give (fixtures/vendor-counters/README.md). */
class DriverCountersTest {

    static final Path DIR = Path.of("src/test/resources/fixtures/vendor-counters");

    static CounterSnapshot snapshot(String node, String phase) {
        long at = phase.equals("before") ? 0 : CounterFixtures.TEN_SECONDS_NS;
        Clock wall = Clock.fixed(Instant.parse("2026-05-04T10:00:00Z").plusNanos(at), ZoneOffset.UTC);
        return new CounterProbe(CounterProbe.ETHTOOL, List.of(), () -> at, wall)
                .run(CounterFixtures.host(DIR.resolve(node).resolve(phase)));
    }

    record Read(CounterSnapshot.Port port, CounterDelta.PortDelta delta, Map<String, Fact<Long>> figures) {
    }

    static Read read(String node) {
        CounterSnapshot after = snapshot(node, "after");
        CounterDelta.PortDelta d = CounterDelta.of(snapshot(node, "before"), after).ports().get().get(0);
        CounterSnapshot.Port p = after.ports().get().get(0);
        return new Read(p, d, DriverCounters.figures(d, p.driver()));
    }

    @Test
    void bnxtReBytesAndTransportErrorsComeFromItsOwnCounters() {
        Read r = read("bnxt_re");
        assertThat(r.port().driver().get()).isEqualTo("bnxt_en");
        assertThat(r.delta().figure(CounterFigure.TX_BYTES).reason()).as("no PMA: the mlx5/IBA name is not there")
                .startsWith("no counters/port_xmit_data on this port");
        assertThat(r.figures().get("txBytes").get()).isEqualTo(115_000_000_000L);
        assertThat(r.figures().get("rxBytes").get()).isEqualTo(114_400_000_000L);
        assertThat(r.figures().get("outOfSequence").get()).isEqualTo(1_200L);
        assertThat(r.figures().get("packetSeqErrors").get()).isEqualTo(1_100L);
        assertThat(r.figures().get("localAckTimeouts").get()).isEqualTo(3L);
        assertThat(r.figures().get("cnpSent").reason()).isEqualTo("bnxt_re has no counter for cnpSent");
    }

    @Test
    void irdmaIsToldByItsCounterNamesAndAddsIpv4AndIpv6Octets() {
        Read r = read("irdma");
        assertThat(r.port().driver().reason()).as("no driver link in this fixture").startsWith("no such file");
        assertThat(DriverCounters.family(r.port().driver(), r.delta().counters())).hasValue(DriverCounters.Family.IRDMA);
        assertThat(r.figures().get("txBytes").get()).isEqualTo(115_000_000_000L);
        assertThat(r.figures().get("ecnMarkedPackets").get()).isEqualTo(5_000L);
        assertThat(r.figures().get("cnpHandled").get()).isEqualTo(4_800L);
        assertThat(r.figures().get("cnpIgnored").get()).isZero();
    }

    @Test
    void efaBytesAreBytesAndCountersItsKernelLacksStayAbsent() {
        Read r = read("efa");
        assertThat(r.port().driver().get()).isEqualTo("efa");
        assertThat(r.figures().get("txBytes").get()).isEqualTo(100_000_000_000L);
        assertThat(r.figures().get("rxPackets").get()).isEqualTo(11_150_000L);
        assertThat(r.figures().get("retransmissions").reason()).as("perftest#113's driver predates retrans_pkts")
                .isEqualTo("no hw_counters/retrans_pkts on this port");
        assertThat(r.port().linkLayer().get()).isEqualTo("Unknown");
    }

    @Test
    void mlx5PortsKeepTheirOwnFigures() {
        CounterDelta d = CounterFixtures.delta("healthy");
        CounterDelta.PortDelta p = d.ports().get().get(0);
        assertThat(DriverCounters.family(Fact.absent("not read"), p.counters())).hasValue(DriverCounters.Family.MLX5);
        assertThat(DriverCounters.figures(p, Fact.absent("not read"))).isEqualTo(p.figures());
        assertThat(DriverCounters.sources(DriverCounters.Family.IRDMA, CounterFigure.TX_BYTES))
                .containsExactly("hw_counters/ip4OutOctets", "hw_counters/ip6OutOctets");
    }
}
