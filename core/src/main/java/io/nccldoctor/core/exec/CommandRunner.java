package io.nccldoctor.core.exec;

import java.time.Duration;
import java.util.List;

/**
 * Runs an external program from an argument array (never a shell string), with {@code LC_ALL=C} and a time
 * limit. Live, recorded into a capture, or replayed from one.
 */
public interface CommandRunner {

    CommandResult run(List<String> argv, Duration timeout);
}
