package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * configs/slurm under a real Slurm: runs scripts/slurm-test.sh (munged, slurmctld and two slurmd on this machine),
 * with nccl-doctor from this test run's classes. Skipped, with the script's reason, where it exits 77: not root, or
 * Slurm and munge not installed (CI installs them: .ci/run). It never installs packages itself (--no-install).
 */
@Tag("slurm")
class RealSlurmTest {

    static final long LIMIT_S = 300;
    static final int SKIPPED = 77;

    @Test
    void theShippedScriptsDrainRunAndLaunchUnderSlurm(@TempDir Path dir) throws Exception {
        Path repo = Path.of("..").toAbsolutePath().normalize();
        Path out = dir.resolve("slurm-test.log");
        Process p = new ProcessBuilder("bash", repo.resolve("scripts/slurm-test.sh").toString(), "--no-install", "--doctor",
                doctor(dir, repo).toString()).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!p.waitFor(LIMIT_S, TimeUnit.SECONDS)) {
            p.destroy(); // SIGTERM: the script's trap stops the daemons it started
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        }
        String log = Files.readString(out, StandardCharsets.UTF_8);
        System.out.println(log); // the CI log keeps what ran
        List<String> lines = log.lines().toList();
        String last = lines.isEmpty() ? "(no output)" : lines.get(lines.size() - 1);
        Assumptions.assumeTrue(p.isAlive() || p.exitValue() != SKIPPED, () -> "scripts/slurm-test.sh skipped: " + last);
        assertThat(p.isAlive()).as("slurm-test.sh ran past " + LIMIT_S + " s").isFalse();
        assertThat(p.exitValue()).as(log).isZero();
        assertThat(log).contains("ok   health check: ", "with Reason=nccl-doctor: LINK_DEGRADED", "ok   srun --test-only accepts: srun -w ",
                "0 failed");
    }

    /** A launcher for the classes of this run: during `mvn verify` the jar is built only after the tests. */
    static Path doctor(Path dir, Path repo) throws Exception {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path launcher = dir.resolve("nccl-doctor");
        Files.writeString(launcher, "#!/bin/sh\nexec '" + java + "' -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Dnccldoctor.home='" + repo
                + "' -cp '" + cp + "' " + Main.class.getName() + " \"$@\"\n");
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        return launcher;
    }
}
