package io.nccldoctor.core.exec;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Starts real processes. stdout and stderr go to temporary files, so a chatty child can never block on a
 * full pipe; stdin is /dev/null; the locale is C so that parsers see untranslated, dot-decimal output.
 */
public final class ProcessCommandRunner implements CommandRunner {

    private final Map<String, String> extraEnv;

    public ProcessCommandRunner() {
        this(Map.of());
    }

    /** @param extraEnv variables set for every child on top of this process's environment (LC_ALL and LANG stay C) */
    public ProcessCommandRunner(Map<String, String> extraEnv) {
        this.extraEnv = Map.copyOf(extraEnv);
    }

    @Override
    public CommandResult run(List<String> argv, Duration timeout) {
        Path out = null;
        Path err = null;
        try {
            out = Files.createTempFile("nccl-doctor-", ".out");
            err = Files.createTempFile("nccl-doctor-", ".err");
            ProcessBuilder pb = new ProcessBuilder(argv)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            pb.environment().putAll(extraEnv);
            pb.environment().put("LC_ALL", "C");
            pb.environment().put("LANG", "C");
            long start = System.nanoTime();
            Process process;
            try {
                process = pb.start();
            } catch (IOException e) {
                return new CommandResult.NotRun(argv, startFailure(argv.get(0), e));
            }
            boolean finished = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!finished) {
                killTree(process);
                return new CommandResult.TimedOut(argv, timeout.toMillis(), read(out), read(err));
            }
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            return new CommandResult.Exited(argv, process.exitValue(), read(out), read(err), ms);
        } catch (IOException e) {
            return new CommandResult.NotRun(argv, "cannot run " + argv.get(0) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new CommandResult.NotRun(argv, "interrupted while running " + argv.get(0));
        } finally {
            delete(out);
            delete(err);
        }
    }

    /** "error=2, No such file or directory" from the JDK becomes "command not found: lspci". */
    private static String startFailure(String program, IOException e) {
        String m = String.valueOf(e.getMessage());
        if (m.contains("error=2,")) {
            return "command not found: " + program;
        }
        if (m.contains("error=13,")) {
            return "permission denied: " + program;
        }
        return "cannot start " + program + ": " + m;
    }

    private static void killTree(Process process) throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor(2, TimeUnit.SECONDS);
    }

    private static String read(Path p) throws IOException {
        return new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
    }

    private static void delete(Path p) {
        if (p != null) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException ignored) {
                // a leftover temp file is harmless; the result matters more than the clean-up
            }
        }
    }
}
