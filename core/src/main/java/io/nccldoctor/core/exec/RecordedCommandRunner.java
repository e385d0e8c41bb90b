package io.nccldoctor.core.exec;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Replays commands recorded in a capture: the same argv gives the same outcome. An argv that was never
 * recorded did not run on the captured host, so it is reported as not run rather than invented.
 */
public final class RecordedCommandRunner implements CommandRunner {

    private final Map<List<String>, CommandResult> recorded = new LinkedHashMap<>();

    public RecordedCommandRunner(List<CommandResult> results) {
        for (CommandResult r : results) {
            recorded.put(List.copyOf(r.argv()), r);
        }
    }

    @Override
    public CommandResult run(List<String> argv, Duration timeout) {
        CommandResult r = recorded.get(List.copyOf(argv));
        if (r == null) {
            return new CommandResult.NotRun(argv, "not in the capture: " + String.join(" ", argv));
        }
        return r;
    }
}
