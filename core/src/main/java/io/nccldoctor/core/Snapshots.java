package io.nccldoctor.core;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Runs probes in order against one host and assembles the snapshot. */
public final class Snapshots {

    private Snapshots() {
    }

    public static Snapshot take(Host host, List<? extends Probe<?>> probes, List<String> argv, String toolVersion, Clock clock) {
        Map<String, Object> sections = new LinkedHashMap<>();
        for (Probe<?> probe : probes) {
            sections.put(probe.key(), probe.run(host));
        }
        String hostName = host.files().readAttribute("/proc/sys/kernel/hostname")
                .orElseGet(() -> "unknown host");
        String createdAt = Instant.now(clock).truncatedTo(ChronoUnit.SECONDS).toString();
        return new Snapshot(Snapshot.SCHEMA_VERSION, toolVersion, hostName, createdAt, host.source(), argv,
                host.env(), sections);
    }
}
