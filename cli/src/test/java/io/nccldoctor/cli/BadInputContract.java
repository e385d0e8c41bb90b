package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The bad-input contract of the README, checked on one run of the real command line (in-process, through
 * {@link Cli#run}): exit 0, 1 or 2, never 3; no stack trace anywhere; exit 2 is exactly one line on stderr that names
 * the input; and the run ends within {@link #LIMIT} (a watchdog thread, not a measured time).
 */
final class BadInputContract {

    /**
     * Far above any real input's time here (tens of milliseconds; seconds for a 10 MB line on a machine with a load
     * average of 17, where 10 s was passed by sound runs): what passes it is a hang or a super-linear walk, which on a
     * 10 MB line takes hours.
     */
    static final Duration LIMIT = Duration.ofSeconds(60);
    /** A frame's indent is spaces or tabs, never \s: that spans lines, and a run of blank lines would make the search quadratic. */
    private static final Pattern STACK = Pattern.compile("(?m)^[ \\t]*at [\\w$.]+\\(|Exception in thread|^Caused by: ");

    record Run(int code, String out, String err) {
    }

    private BadInputContract() {
    }

    static Run run(String... args) {
        return assertTimeoutPreemptively(LIMIT, () -> {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = Cli.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
            return new Run(code, out.toString(), err.toString());
        }, () -> "past " + LIMIT.toSeconds() + " s: " + String.join(" ", args));
    }

    /** Runs and holds the result to the contract; {@code names} is what an exit-2 line must name (the input's path). */
    static Run holds(String names, String... args) {
        return holdsNamingOneOf(List.of(names), args);
    }

    /** The same, where any of several inputs may be the bad one (a seed that is itself refused names its own path). */
    static Run holdsNamingOneOf(List<String> names, String... args) {
        Run r = run(args);
        String cmd = String.join(" ", Arrays.asList(args));
        assertThat(r.code()).as("exit code of %s (3 is the tool broken); stderr: %s", cmd, r.err()).isBetween(0, 2);
        assertThat(STACK.matcher(r.err()).find()).as("a stack trace on stderr of %s: %s", cmd, r.err()).isFalse();
        assertThat(STACK.matcher(r.out()).find()).as("a stack trace on stdout of %s", cmd).isFalse();
        if (r.code() == 2) {
            assertThat(r.err().strip().lines().count()).as("exit 2 of %s is one line on stderr: %s", cmd, r.err()).isEqualTo(1);
            assertThat(names).as("exit 2 of %s names an input: %s", cmd, r.err()).anyMatch(r.err()::contains);
        }
        return r;
    }
}
