package io.nccldoctor.cli;

import io.nccldoctor.core.StandInBuild;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * nccl-doctor as a user starts it, in its own JVM, with the host-memory stand-ins for libcuda, libnccl, NVML and
 * libibverbs (collectives/src/test/c) on its library path: the library search, the loader and the native calls all
 * run as on a GPU node. The stand-ins are built once per test JVM into target/standins.
 */
final class StandInTool {

    private static Path built;

    /** How a run ended; ms is for the test's own report, never asserted. */
    record Ran(int code, String out, String err, long ms) {
    }

    private StandInTool() {
    }

    static synchronized Path dir() {
        if (built == null) {
            built = StandInBuild.make(Path.of("../collectives/src/test/c"), Path.of("target/standins"));
        }
        return built;
    }

    /** LD_LIBRARY_PATH of the given stand-in folders (cuda13, nccl-2.28.3, nvml, ibverbs, ...). */
    static String path(String... folders) {
        List<String> dirs = new ArrayList<>();
        for (String f : folders) {
            dirs.add(dir().resolve(f).toString());
        }
        return String.join(":", dirs);
    }

    /**
     * Runs the tool with this JVM's class path and the given variables on top of a clean environment (no launcher,
     * NCCL or library variables of the machine running the tests), killed with its children past the limit.
     */
    static Ran run(Map<String, String> env, Duration limit, String... args) {
        try {
            Path out = Files.createTempFile("standin-out", ".txt");
            Path err = Files.createTempFile("standin-err", ".txt");
            long start = System.nanoTime();
            Process p = builder(env, args).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor();
                throw new AssertionError("nccl-doctor " + String.join(" ", args) + " was still running after " + limit.toSeconds()
                        + " s; its output: " + Files.readString(out) + Files.readString(err));
            }
            long ms = (System.nanoTime() - start) / 1_000_000;
            Ran r = new Ran(p.exitValue(), read(out), read(err), ms);
            Files.delete(out);
            Files.delete(err);
            return r;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Starts the tool without waiting, stdout and stderr both to the file (for several processes of one job). */
    static Process start(Map<String, String> env, Path output, String... args) throws IOException {
        return builder(env, args).redirectErrorStream(true).redirectOutput(output.toFile()).start();
    }

    private static ProcessBuilder builder(Map<String, String> env, String... args) {
        List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        argv.addAll(List.of(args));
        Map<String, String> clean = new HashMap<>();
        for (String k : List.of("PATH", "HOME", "TMPDIR", "USER")) {
            if (System.getenv(k) != null) {
                clean.put(k, System.getenv(k));
            }
        }
        clean.putAll(env);
        ProcessBuilder pb = new ProcessBuilder(argv);
        pb.environment().clear();
        pb.environment().putAll(clean);
        return pb;
    }

    private static String read(Path p) throws IOException {
        return new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
    }

    /** Processes of this user whose command line holds the marker (a folder only one test run used). */
    static List<String> processesWith(String marker) {
        return ProcessHandle.allProcesses().filter(ph -> ph.info().commandLine().map(c -> c.contains(marker)).orElse(false))
                .map(ph -> ph.pid() + " " + ph.info().commandLine().orElse("")).toList();
    }
}
