package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import java.util.List;
import java.util.Map;

/**
 * The side a perftest output was printed on. The pasted command line decides when there is one: perftest itself
 * decides from those words (PerftestCommandLine). Then the waiting banner, which only an ib_* server prints
 * (write_bw.c:121 and the other mains; no raw_ethernet main prints it). Last the TX depth line, which
 * ctx_print_test_info prints when machine == CLIENT || duplex (linux-rdma/perftest src/perftest_parameters.c:4599 at
 * 00b55b6): duplex is set by -b and by raw_ethernet_lat / raw_ethernet_burst_lat themselves (raw_ethernet_send_lat.c:107),
 * so there it prints on both sides and tells nothing.
 */
final class PerftestSide {

    private PerftestSide() {
    }

    static Fact<String> of(int titles, boolean banner, Map<String, String> header, Fact<String> test, List<PerftestCommandLine> commands) {
        if (titles > 1) {
            return Fact.absent("the text holds " + titles + " perftest outputs (server and client together?), no single side");
        }
        List<String> said = commands.stream().map(PerftestCommandLine::side).filter(Fact::isValue).map(Fact::get).distinct().toList();
        if (said.size() == 1) {
            return Fact.of(said.get(0));
        }
        boolean bidirectional = test.isValue() && test.get().contains("Bidirectional");
        if (banner && header.containsKey("TX depth") && !bidirectional) {
            return Fact.absent("the waiting banner is a server's, the TX depth line a client's (one-way tests print it on the client "
                    + "only): both sides pasted together, no single side");
        }
        if (banner) {
            return Fact.of("server");
        }
        if (said.size() > 1) {
            return Fact.absent("the text holds a server's and a client's command line and no waiting banner to tell which printed it");
        }
        String command = commands.stream().map(PerftestCommandLine::side).filter(f -> !f.isValue()).map(Fact::reason).findFirst()
                .map(why -> "; the command line does not tell: " + why).orElse("");
        boolean raw = "RawEth".equals(header.get("Connection type")) || commands.stream().anyMatch(c -> c.program().startsWith("raw_ethernet"));
        if (raw && test.isValue() && test.get().contains("Latency")) {
            return Fact.absent("raw_ethernet_lat prints TX depth on both sides (raw_ethernet_send_lat.c:107 sets duplex) and no "
                    + "raw_ethernet test prints the waiting banner, and no --server/--client command line tells" + command);
        }
        if (header.isEmpty()) {
            return Fact.absent("no header block and no waiting banner to tell the side" + command);
        }
        if (header.containsKey("TX depth")) {
            return bidirectional ? Fact.absent("a bidirectional test prints TX depth on both sides, and no waiting banner was pasted" + command)
                    : Fact.of("client");
        }
        return bidirectional ? Fact.absent("a bidirectional test without TX depth line" + command) : Fact.of("server");
    }
}
