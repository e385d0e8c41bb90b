package io.nccldoctor.collectives.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs work that only a process boundary can bound: a child process that reports each step on a progress file, and
 * is killed with its process tree when no step begins within the limit. For an NCCL without non-blocking
 * initialisation, whose ncclCommInitAll / ncclGroupEnd can block forever in native code. The child's stdout and
 * stderr go to files; the parent shows them.
 */
public final class WatchedChild {

    /** How the child ended. */
    public sealed interface Ended permits Exited, Stalled {
    }

    /** @param stdout everything it printed; @param stderrTail its last 20 lines of stderr */
    public record Exited(int exitCode, String stdout, List<String> stderrTail) implements Ended {
    }

    /** @param lastStep the last step it began, and where it stayed */
    public record Stalled(String lastStep, long limitSeconds, List<String> stdoutTail, List<String> stderrTail) implements Ended {
    }

    private WatchedChild() {
    }

    /** The child's side: each step, appended to the progress file before it begins. */
    public static Consumer<String> progressTo(Path file) {
        return step -> {
            try {
                Files.writeString(file, step + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new IllegalStateException("cannot write the progress file " + file + ": " + e.getMessage(), e);
            }
        };
    }

    /**
     * @param argv     the child's command; the caller adds the option naming the progress file ({@code progress})
     * @param progress the file the child appends its steps to
     * @param limit    the longest the child may stay in one step
     */
    public static Ended run(List<String> argv, Map<String, String> env, Path work, Path progress, Duration limit)
            throws IOException, InterruptedException {
        Path out = work.resolve("stdout.txt");
        Path err = work.resolve("stderr.txt");
        Files.deleteIfExists(progress);
        ProcessBuilder pb = new ProcessBuilder(argv).redirectOutput(out.toFile()).redirectError(err.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        pb.environment().clear();
        pb.environment().putAll(env);
        Process p = pb.start();
        long lastSize = -1;
        long lastChange = System.nanoTime();
        while (!p.waitFor(100, TimeUnit.MILLISECONDS)) {
            long size = Files.exists(progress) ? Files.size(progress) : 0;
            if (size != lastSize) {
                lastSize = size;
                lastChange = System.nanoTime();
            } else if (System.nanoTime() - lastChange > limit.toNanos()) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
                List<String> steps = Files.exists(progress) ? text(progress).lines().toList() : List.of();
                return new Stalled(steps.isEmpty() ? "starting" : steps.get(steps.size() - 1), limit.toSeconds(), tail(out), tail(err));
            }
        }
        return new Exited(p.exitValue(), text(out), tail(err));
    }

    /** Malformed bytes (a native library's output) become replacement characters instead of an exception. */
    private static String text(Path file) throws IOException {
        return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    }

    private static List<String> tail(Path file) throws IOException {
        List<String> lines = text(file).lines().filter(l -> !l.isBlank()).toList();
        return List.copyOf(lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    }
}
