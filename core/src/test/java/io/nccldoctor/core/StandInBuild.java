package io.nccldoctor.core;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Builds the host-memory stand-ins for libcuda, libnccl, NVML and libibverbs (collectives/src/test/c) with make and
 * gcc, once per folder and test JVM, under a time limit. Without make or gcc the test is skipped by assumption, as
 * with {@link StubLibraries}; a build that fails fails the test with the compiler's output.
 */
public final class StandInBuild {

    private StandInBuild() {
    }

    /** @param sources the folder with the Makefile; @param out where the libraries go, one folder per variant */
    public static synchronized Path make(Path sources, Path out) {
        Path abs = out.toAbsolutePath().normalize();
        try {
            Files.createDirectories(abs);
            Path log = abs.resolve("build.log");
            ProcessBuilder pb = new ProcessBuilder(List.of("make", "-s", "-C", sources.toAbsolutePath().normalize().toString(), "OUT=" + abs))
                    .redirectErrorStream(true).redirectOutput(log.toFile());
            pb.environment().put("LC_ALL", "C");
            Process p;
            try {
                p = pb.start();
            } catch (IOException e) {
                assumeTrue(false, "make is not installed: the native-path tests need make and gcc");
                return abs;
            }
            if (!p.waitFor(180, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("building the stand-ins took over 180 s; see " + log);
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            assumeTrue(p.exitValue() == 0 || !output.contains("cc: not found") && !output.contains("gcc: not found"),
                    "gcc is not installed: the native-path tests need make and gcc");
            if (p.exitValue() != 0) {
                throw new IllegalStateException("building the stand-ins failed: " + output);
            }
            return abs;
        } catch (IOException e) {
            throw new IllegalStateException("cannot build the stand-ins: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
