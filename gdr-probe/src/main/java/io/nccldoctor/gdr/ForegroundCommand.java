package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the user's own command in the foreground, from an argument array (never a shell string): stdin, stdout and
 * stderr are the terminal's, so a training script or perftest prints as it always does. Past its time limit the whole
 * process tree gets SIGTERM, then SIGKILL 5 s later: mpirun and torchrun fork the ranks that hold the NICs.
 */
public final class ForegroundCommand {

    static final Duration GRACE = Duration.ofSeconds(5);

    private ForegroundCommand() {
    }

    /**
     * @param exitCode  the exit status, or why there is none (killed past the time limit)
     * @param timedOut  whether it was killed for running past the limit
     */
    public record Result(List<String> argv, Fact<Integer> exitCode, boolean timedOut, long durationMs) {

        public Result {
            argv = List.copyOf(argv);
        }

        /** Anything but exit status 0. */
        public boolean failed() {
            return timedOut || !exitCode.isValue() || exitCode.get() != 0;
        }
    }

    /** The command could not be started: not installed, not executable. */
    public static final class NotStarted extends RuntimeException {
        NotStarted(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * @param stdoutToStderr send the command's stdout to this process's stderr, so that this process's stdout stays
     *                       one machine-readable document (--json)
     */
    public static Result run(List<String> argv, Duration timeout, boolean stdoutToStderr) {
        ProcessBuilder pb = new ProcessBuilder(argv).inheritIO();
        if (stdoutToStderr) {
            pb.redirectOutput(ProcessBuilder.Redirect.PIPE);
        }
        long start = System.nanoTime();
        Process process;
        try {
            process = pb.start();
        } catch (IOException e) {
            String m = String.valueOf(e.getMessage());
            throw new NotStarted("cannot start " + argv.get(0) + ": " + (m.contains("error=2,") ? "command not found"
                    : m.contains("error=13,") ? "permission denied" : m), e);
        }
        Thread pump = stdoutToStderr ? copy(process.getInputStream(), System.err) : null;
        try {
            boolean finished = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!finished) {
                killTree(process);
            }
            if (pump != null) {
                pump.join(GRACE.toMillis());
            }
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            return finished ? new Result(argv, Fact.of(process.exitValue()), false, ms)
                    : new Result(argv, Fact.absent("killed with its process tree after " + timeout.toSeconds() + " s (--timeout)"), true, ms);
        } catch (InterruptedException e) {
            killTree(process);
            Thread.currentThread().interrupt();
            return new Result(argv, Fact.absent("interrupted; killed with its process tree"), false,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        }
    }

    private static void killTree(Process process) {
        List<ProcessHandle> tree = process.descendants().toList();
        tree.forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    private static Thread copy(InputStream in, OutputStream out) {
        Thread t = new Thread(() -> {
            try (in) {
                in.transferTo(out);
                out.flush();
            } catch (IOException ignored) {
                // the child closed its stdout or was killed: nothing more to copy
            }
        }, "child-stdout");
        t.setDaemon(true);
        t.start();
        return t;
    }
}
