package io.nccldoctor.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs probes in order against one host and assembles the snapshot. Each probe runs under a time limit: a probe
 * stuck in a native call (a hung driver, a wedged NFS mount) cannot be interrupted, so it is left behind on a daemon
 * thread, its section stays out of the snapshot (the rules that need it say "not probed"), and the section
 * {@value #TIMEOUTS} records it as an error, which PROBE_INCOMPLETE reports. Commands have their own, shorter limits.
 */
public final class Snapshots {

    /** The section that lists probes stopped at their limit: key → {"error": why}. */
    public static final String TIMEOUTS = "probeTimeouts";
    /** A probe's limit unless the caller gives one. */
    public static final Duration PROBE_LIMIT = Duration.ofSeconds(20);

    private Snapshots() {
    }

    public static Snapshot take(Host host, List<? extends Probe<?>> probes, List<String> argv, String toolVersion, Clock clock) {
        return take(host, probes, argv, toolVersion, clock, PROBE_LIMIT);
    }

    public static Snapshot take(Host host, List<? extends Probe<?>> probes, List<String> argv, String toolVersion, Clock clock,
                                Duration perProbe) {
        Map<String, Object> sections = new LinkedHashMap<>();
        Map<String, Object> timedOut = new LinkedHashMap<>();
        ExecutorService pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "probe");
            t.setDaemon(true); // a probe stuck in native code must not keep the JVM alive
            return t;
        });
        try {
            for (Probe<?> probe : probes) {
                Future<?> f = pool.submit(() -> probe.run(host));
                try {
                    sections.put(probe.key(), f.get(perProbe.toMillis(), TimeUnit.MILLISECONDS));
                } catch (TimeoutException e) {
                    f.cancel(true);
                    timedOut.put(probe.key(), Map.of("error", "the " + probe.key() + " probe did not finish within "
                            + (perProbe.toMillis() < 1000 ? perProbe.toMillis() + " ms" : perProbe.toSeconds() + " s") + " and was left behind (a hung command, driver call or file system); its checks did not run"));
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof RuntimeException re) {
                        throw re;
                    }
                    throw new IllegalStateException(cause);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while probing", e);
                }
            }
        } finally {
            pool.shutdownNow();
        }
        if (!timedOut.isEmpty()) {
            sections.put(TIMEOUTS, timedOut);
        }
        String hostName = host.files().readAttribute("/proc/sys/kernel/hostname")
                .orElseGet(() -> "unknown host");
        String createdAt = Instant.now(clock).truncatedTo(ChronoUnit.SECONDS).toString();
        return new Snapshot(Snapshot.SCHEMA_VERSION, toolVersion, hostName, createdAt, host.source(), argv,
                host.env(), sections);
    }
}
