package io.nccldoctor.gdr;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * raw_ethernet_lat's server side as a Markdown page printed it (corpus/perftest/README.md): its raw Ethernet header
 * table, which two lines of the paste were listed as not understood, is read into the header fields; the row is read as
 * every other latency test's.
 */
class PerftestRawEthernetTest {

    private static final Path LAT = Path.of("../corpus/perftest/perftest-raw-ethernet-lat-server-markdown-collapsed.txt");

    @Test
    void theRawEthernetHeaderTableIsReadAndNothingIsLeftOver() throws IOException {
        PerftestOutput p = PerftestOutput.parse(Files.readAllLines(LAT), "lat");
        assertThat(p.notUnderstood()).as("was '| Dest MAC | Src MAC | Packet Type |' and its row").isEmpty();
        assertThat(p.header()).containsEntry("Dest MAC", "EC:0D:9A:65:DC:E5").containsEntry("Src MAC", "EC:0D:9A:C1:BA:61")
                .containsEntry("Packet Type", "DEFAULT").containsEntry("MAC attached", "EC:0D:9A:C1:BA:61")
                .containsEntry("Connection type", "RawEth");
        assertThat(p.latencyRows()).singleElement().satisfies(r -> assertThat(r.bytes()).isEqualTo(64));
    }

    /**
     * The IP and UDP boxes and the flow spec lines: written from raw_ethernet_resources.c's printf formats (:278-298,
     * :425-491), synthetic; no public paste shows them.
     */
    @Test
    void theBoxesGoUnderTheirNamesAndASecondValueIsKept() {
        PerftestRawEthernet raw = new PerftestRawEthernet();
        Map<String, String> header = new LinkedHashMap<>();
        for (String s : new String[] {"**IP header**************", "|-----------------------|", "|Source IP |192.168.1.1 |",
                "|TTL       |64          |", "**UDP header***********", "|Dest Port |5000      |", "spec_info - dst_port : 5000",
                "**UDP header***********", "|Dest Port |5001      |"}) {
            if (!s.startsWith("|---")) {
                assertThat(raw.line(s, header)).as(s).isTrue();
            }
        }
        assertThat(header).containsEntry("IP Source IP", "192.168.1.1").containsEntry("IP TTL", "64")
                .containsEntry("UDP Dest Port", "5000, 5001").containsEntry("spec_info dst_port", "5000");
        assertThat(raw.line("| Dual-port : OFF", header)).isFalse();
    }
}
