package io.nccldoctor.core.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write stopped by SIGTERM or SIGINT (a job's time limit, Ctrl-C) leaves no temporary file behind, and the target is
 * either the old complete file or the new complete one; before the shutdown hook, 7 of 8 such kills left a
 * .nccl-doctor-report-PID-N.tmp. Each trial stops a child that replaces an 8 MiB file in a loop at a different moment.
 */
class AtomicFileKillTest {

    @TempDir
    Path tmp;

    @Test
    void aStoppedWriteLeavesNoTemporaryFileAndNoHalfFile() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        for (int trial = 0; trial < 6; trial++) {
            Path dir = Files.createDirectories(tmp.resolve("trial" + trial));
            Path target = dir.resolve("report.prom");
            // env --default-signal=INT: a shell without job control starts background jobs with SIGINT ignored, and a JVM
            // that inherits an ignored SIGINT never runs its shutdown hooks for it (as under `mvn verify &` or a CI runner)
            Process p = new ProcessBuilder("env", "--default-signal=INT", java, "-cp", System.getProperty("java.class.path"), AtomicWriteLoop.class.getName(),
                    target.toString()).redirectErrorStream(true).start();
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            int writesBeforeSignal = 1 + trial % 3;
            for (int seen = 0; seen < writesBeforeSignal; ) {
                String line = out.readLine();
                assertThat(line).as("the child runs").isNotNull();
                if (line.startsWith("writing ")) {
                    seen++;
                }
            }
            Thread.sleep(trial * 7L); // a different point of the write each time (not a timing assertion)
            if (trial % 2 == 0) {
                p.destroy(); // SIGTERM
            } else {
                new ProcessBuilder("kill", "-INT", String.valueOf(p.pid())).start().waitFor(10, TimeUnit.SECONDS);
            }
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the child stops").isTrue();
            try (Stream<Path> left = Files.list(dir)) {
                List<String> names = left.map(f -> f.getFileName().toString()).toList();
                assertThat(names).as("trial %d: nothing but the target", trial).allMatch(n -> n.equals("report.prom"));
            }
            if (Files.exists(target)) {
                assertThat(Files.size(target)).as("trial %d: a whole file, never half", trial).isEqualTo(AtomicWriteLoop.SIZE);
            }
        }
    }
}
