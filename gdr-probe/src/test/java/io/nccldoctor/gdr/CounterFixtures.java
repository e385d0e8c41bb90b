package io.nccldoctor.gdr;

import io.nccldoctor.core.Host;
import io.nccldoctor.core.TestHosts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;

/** The before/after hosts of fixtures/counters (README.md there), read ten seconds apart. */
final class CounterFixtures {

    static final Path DIR = Path.of("src/test/resources/fixtures/counters");
    static final List<String> SCENARIOS = List.of("healthy", "pause-storm", "ecn-cnp-ignored", "out-of-sequence",
            "uneven-rails", "link-flap");
    static final long TEN_SECONDS_NS = 10_000_000_000L;

    private CounterFixtures() {
    }

    /** The fixture's sysfs tree as the host's root, its ethtool-S-NETDEV.txt files as recorded `ethtool -S NETDEV`. */
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

    static CounterSnapshot snapshot(String scenario, String phase) {
        long at = phase.equals("before") ? 0 : TEN_SECONDS_NS;
        Clock wall = Clock.fixed(Instant.parse("2026-05-04T10:00:00Z").plusNanos(at), ZoneOffset.UTC);
        return new CounterProbe(CounterProbe.ETHTOOL, List.of(), () -> at, wall).run(host(DIR.resolve(scenario).resolve(phase)));
    }

    static CounterDelta delta(String scenario) {
        return CounterDelta.of(snapshot(scenario, "before"), snapshot(scenario, "after"));
    }
}
