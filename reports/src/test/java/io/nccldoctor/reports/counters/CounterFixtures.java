package io.nccldoctor.reports.counters;

import io.nccldoctor.core.Host;
import io.nccldoctor.core.TestHosts;
import io.nccldoctor.gdr.CounterDelta;
import io.nccldoctor.gdr.CounterProbe;
import io.nccldoctor.gdr.CounterSnapshot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.stream.Stream;

/** gdr-probe's counter fixtures (README.md there), read ten seconds apart. */
final class CounterFixtures {

    static final Path DIR = Path.of("../gdr-probe/src/test/resources/fixtures/counters");

    private CounterFixtures() {
    }

    static Host host(Path phase) {
        TestHosts h = TestHosts.at(phase.resolve("root"));
        try (Stream<Path> files = Files.list(phase)) {
            for (Path f : files.filter(p -> p.getFileName().toString().startsWith("ethtool-S-")).toList()) {
                String netdev = f.getFileName().toString().replaceFirst("^ethtool-S-", "").replaceFirst("\\.txt$", "");
                h.stdout(List.of("ethtool", "-S", netdev), Files.readString(f));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return h.host();
    }

    static CounterSnapshot snapshot(String scenario, String phase, long ns) {
        return new CounterProbe(CounterProbe.ETHTOOL, List.of(), () -> ns, Clock.systemUTC()).run(host(DIR.resolve(scenario).resolve(phase)));
    }

    static CounterDelta delta(String scenario) {
        return CounterDelta.of(snapshot(scenario, "before", 0), snapshot(scenario, "after", 10_000_000_000L));
    }
}
