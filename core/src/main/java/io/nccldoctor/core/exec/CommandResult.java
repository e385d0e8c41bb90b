package io.nccldoctor.core.exec;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.nccldoctor.core.Fact;
import java.util.List;

/** How one external command ended: it exited, it ran out of time, or it never started. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "outcome")
@JsonSubTypes({
    @JsonSubTypes.Type(value = CommandResult.Exited.class, name = "exited"),
    @JsonSubTypes.Type(value = CommandResult.TimedOut.class, name = "timedOut"),
    @JsonSubTypes.Type(value = CommandResult.NotRun.class, name = "notRun")})
public sealed interface CommandResult permits CommandResult.Exited, CommandResult.TimedOut, CommandResult.NotRun {

    List<String> argv();

    record Exited(List<String> argv, int exitCode, String stdout, String stderr, long durationMs)
            implements CommandResult {
    }

    /** Killed, with its process tree, after {@code timeoutMs}; output is what it had written by then. */
    record TimedOut(List<String> argv, long timeoutMs, String stdout, String stderr) implements CommandResult {
    }

    /** The program could not be started: not installed, not executable, or not in the capture being replayed. */
    record NotRun(List<String> argv, String reason) implements CommandResult {
    }

    /** stdout of a run that exited 0; otherwise why there is none, with the first line of stderr. */
    default Fact<String> stdoutIfSucceeded() {
        String name = argv().get(0);
        if (this instanceof Exited e) {
            if (e.exitCode() == 0) {
                return Fact.of(e.stdout());
            }
            String firstErr = e.stderr().lines().filter(l -> !l.isBlank()).findFirst().orElse("no message");
            return Fact.error(name + " exited with " + e.exitCode() + ": " + firstErr);
        }
        if (this instanceof TimedOut t) {
            return Fact.error(name + " did not finish within " + t.timeoutMs() + " ms and was killed");
        }
        return Fact.absent(((NotRun) this).reason());
    }
}
