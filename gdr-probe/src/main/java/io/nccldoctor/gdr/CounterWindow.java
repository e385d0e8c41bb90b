package io.nccldoctor.gdr;

import io.nccldoctor.core.Host;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Two counter snapshots around something: the user's command, or a wait. The delta between them is what that run did
 * to the fabric counters (plus whatever else the node sent meanwhile: run on a node that is otherwise quiet).
 *
 * @param command the command run between the snapshots, when there was one
 */
public record CounterWindow(CounterSnapshot before, CounterSnapshot after, CounterDelta delta,
                            Optional<ForegroundCommand.Result> command) {

    /** Snapshots, runs argv in the foreground (see {@link ForegroundCommand}), snapshots again. */
    public static CounterWindow during(CounterProbe probe, Host host, List<String> argv, Duration timeout, boolean stdoutToStderr) {
        return around(probe, host, () -> Optional.of(ForegroundCommand.run(argv, timeout, stdoutToStderr)));
    }

    /** Two snapshots {@code wait} apart. */
    public static CounterWindow interval(CounterProbe probe, Host host, Duration wait) {
        return around(probe, host, () -> {
            try {
                Thread.sleep(wait.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Optional.empty();
        });
    }

    static CounterWindow around(CounterProbe probe, Host host, Supplier<Optional<ForegroundCommand.Result>> between) {
        CounterSnapshot before = probe.run(host);
        Optional<ForegroundCommand.Result> command = between.get();
        CounterSnapshot after = probe.run(host);
        return new CounterWindow(before, after, CounterDelta.of(before, after), command);
    }
}
