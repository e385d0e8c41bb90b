package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** configs/slurm: the exit codes that drain a node, with a stand-in nccl-doctor and scontrol. */
class SlurmScriptsTest {

    @TempDir
    Path dir;

    Path standIn(String name, String body) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    record Ran(int code, double seconds, String err) {
    }

    Ran bash(String script, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(List.of("bash", Path.of("../configs/slurm/" + script).toAbsolutePath().toString()))
                .redirectError(dir.resolve("err.txt").toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().putAll(env);
        pb.environment().put("PATH", dir + ":" + System.getenv("PATH"));
        long t0 = System.nanoTime();
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Ran(p.exitValue(), (System.nanoTime() - t0) / 1e9, Files.readString(dir.resolve("err.txt")));
    }

    /** Only an error-level finding drains; a broken check, a usage error or a run past the limit lets the job run. */
    @ParameterizedTest
    @CsvSource({"0, 0", "1, 1", "2, 0", "3, 0", "hang, 0"})
    void prologDrainsOnlyOnAFinding(String behaviour, int expected) throws Exception {
        Path doctor = standIn("fake-doctor", behaviour.equals("hang") ? "sleep 60"
                : "echo 'Findings'; echo '  ERROR  GPU_COUNT_MISMATCH  7 GPUs, expected 8'; exit " + behaviour);
        Ran r = bash("prolog.sh", Map.of("NCCL_DOCTOR", doctor.toString(), "NCCL_DOCTOR_TIMEOUT", "2"));
        assertThat(r.code()).isEqualTo(expected);
        assertThat(r.seconds()).isLessThan(15);
        if (behaviour.equals("1")) {
            assertThat(r.err()).contains("node failed preflight").contains("GPU_COUNT_MISMATCH");
        }
        if (behaviour.equals("hang")) {
            assertThat(r.err()).contains("did not finish within 2 s");
        }
    }

    @Test
    void healthCheckDrainsWithTheFindingAndResumesOnlyItsOwnDrain() throws Exception {
        Path calls = dir.resolve("scontrol.log");
        Path scontrol = standIn("fake-scontrol", "echo \"$@\" >> " + calls + "\n"
                + "[ \"$1\" = show ] && echo '   State=DRAIN Reason=nccl-doctor: GPU_COUNT_MISMATCH [root@2026-11-30]'\nexit 0");
        Path failing = standIn("failing-doctor", "echo '  ERROR  GPU_COUNT_MISMATCH  7 GPUs, expected 8'; exit 1");
        Ran drained = bash("healthcheck.sh", Map.of("NCCL_DOCTOR", failing.toString(), "SCONTROL", scontrol.toString()));
        assertThat(drained.code()).isEqualTo(1);
        assertThat(Files.readString(calls)).contains("state=drain reason=nccl-doctor: GPU_COUNT_MISMATCH  7 GPUs, expected 8");
        Files.delete(calls);
        Path healthy = standIn("healthy-doctor", "exit 0");
        assertThat(bash("healthcheck.sh", Map.of("NCCL_DOCTOR", healthy.toString(), "SCONTROL", scontrol.toString())).code()).isZero();
        assertThat(Files.readAllLines(calls)).anyMatch(l -> l.startsWith("show node")).anyMatch(l -> l.endsWith("state=resume"));
    }
}
