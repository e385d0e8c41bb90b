package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * configs/slurm when nccl-doctor itself fails: the node was not checked, and that is said in syslog (a stand-in
 * logger records its arguments), on stderr and in the job's output (task-prolog.sh), while the job still runs, or
 * the node drains when the site chose NCCL_DOCTOR_ON_TOOL_FAILURE=drain.
 */
class SlurmToolFailureTest {

    @TempDir
    Path dir;

    Path syslog;
    Path notes;

    record Ran(int code, String out, String err) {
    }

    @BeforeEach
    void standIns() throws IOException {
        syslog = dir.resolve("syslog.txt");
        notes = dir.resolve("notes");
        standIn("logger", "echo \"$@\" >> " + syslog);
    }

    Path standIn(String name, String body) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    Ran bash(String script, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(List.of("bash", Path.of("../configs/slurm/" + script).toAbsolutePath().toString()))
                .redirectError(dir.resolve("err.txt").toFile()).redirectOutput(dir.resolve("out.txt").toFile());
        pb.environment().putAll(env);
        pb.environment().put("PATH", dir + ":" + System.getenv("PATH"));
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Ran(p.exitValue(), Files.readString(dir.resolve("out.txt")), Files.readString(dir.resolve("err.txt")));
    }

    Map<String, String> env(String doctor, String... more) {
        Map<String, String> env = new HashMap<>(Map.of("NCCL_DOCTOR", doctor, "NCCL_DOCTOR_TIMEOUT", "2",
                "NCCL_DOCTOR_NOTES", notes.toString(), "SLURM_JOB_ID", "4242"));
        for (int i = 0; i < more.length; i += 2) {
            env.put(more[i], more[i + 1]);
        }
        return env;
    }

    String syslog() throws IOException {
        return Files.exists(syslog) ? Files.readString(syslog) : "";
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "exit 3                 | the tool itself failed (exit 3)",
        "exit 2                 | a usage or input error (exit 2): check NCCL_DOCTOR_ARGS and the configs/ files",
        "sleep 60               | preflight did not finish within 2 s (exit 124)"})
    void aFailedCheckLetsTheJobRunAndSaysSoInSyslogStderrAndTheJobsOutput(String behaviour, String why) throws Exception {
        Path doctor = standIn("fake-doctor", "echo 'nccl-doctor: internal error: java.lang.IllegalStateException: boom'; " + behaviour);
        Ran r = bash("prolog.sh", env(doctor.toString()));
        assertThat(r.code()).as("the job runs: a broken check must not drain the fleet").isZero();
        assertThat(syslog()).as("syslog, at priority err, with the reason").startsWith("-p user.err -t nccl-doctor-prolog -- ")
                .contains("NODE NOT CHECKED (job 4242): " + why + "; the job runs unchecked");
        assertThat(r.err()).contains("nccl-doctor-prolog: NODE NOT CHECKED (job 4242): " + why);
        if (behaviour.equals("exit 3")) {
            assertThat(syslog()).as("the tool's last line travels with it").contains("IllegalStateException: boom");
        }
        Ran task = bash("task-prolog.sh", env(doctor.toString(), "SLURM_LOCALID", "0"));
        assertThat(task.code()).isZero();
        assertThat(task.out()).as("a TaskProlog 'print' line reaches the job's output")
                .startsWith("print nccl-doctor: WARNING: node ").contains("was not checked before this job: " + why);
        assertThat(bash("task-prolog.sh", env(doctor.toString(), "SLURM_LOCALID", "3")).out()).as("once per node, not per task").isEmpty();
    }

    @Test
    void aLauncherThatCannotStartIsNamed() throws Exception {
        Ran r = bash("prolog.sh", env(dir.resolve("no-such-doctor").toString()));
        assertThat(r.code()).isZero();
        assertThat(syslog()).contains("NODE NOT CHECKED (job 4242): cannot start '" + dir.resolve("no-such-doctor") + "' (exit 127: not found)");
        Path notExecutable = dir.resolve("not-executable");
        Files.writeString(notExecutable, "#!/bin/sh\nexit 0\n");
        bash("prolog.sh", env(notExecutable.toString()));
        assertThat(syslog()).contains("(exit 126: not executable)");
    }

    @Test
    void aCleanRunOrAFindingLeavesNoNote() throws Exception {
        Path healthy = standIn("healthy-doctor", "exit 0");
        assertThat(bash("prolog.sh", env(healthy.toString())).code()).isZero();
        Path failing = standIn("failing-doctor", "echo '  ERROR  GPU_COUNT_MISMATCH  7 GPUs, expected 8'; exit 1");
        assertThat(bash("prolog.sh", env(failing.toString())).code()).isEqualTo(1);
        assertThat(syslog()).doesNotContain("NODE NOT CHECKED").contains("node failed preflight (job 4242)");
        assertThat(notes.resolve("job-4242")).doesNotExist();
        assertThat(bash("task-prolog.sh", env(healthy.toString())).out()).isEmpty();
    }

    @Test
    void failClosedDrainsInsteadWhenTheSiteAsksForIt() throws Exception {
        Path broken = standIn("broken-doctor", "exit 3");
        Ran r = bash("prolog.sh", env(broken.toString(), "NCCL_DOCTOR_ON_TOOL_FAILURE", "drain"));
        assertThat(r.code()).as("a failed prolog drains the node and requeues the job").isEqualTo(1);
        assertThat(syslog()).contains("NODE NOT CHECKED (job 4242): the tool itself failed (exit 3); NCCL_DOCTOR_ON_TOOL_FAILURE=drain");
    }

    @Test
    void theHealthCheckLogsAFailedCheckAndDrainsOnlyWhenAsked() throws Exception {
        Path calls = dir.resolve("scontrol.log");
        Path scontrol = standIn("fake-scontrol", "echo \"$@\" >> " + calls + "\nexit 0");
        Path broken = standIn("broken-doctor", "echo 'nccl-doctor: no java found'; exit 3");
        Ran open = bash("healthcheck.sh", env(broken.toString(), "SCONTROL", scontrol.toString()));
        assertThat(open.code()).isZero();
        assertThat(syslog()).startsWith("-p user.err -t nccl-doctor-healthcheck -- ")
                .contains("NODE NOT CHECKED: the tool itself failed (exit 3); its state is left as it is: nccl-doctor: no java found");
        assertThat(calls).as("the node's state is not touched").doesNotExist();
        Ran closed = bash("healthcheck.sh", env(broken.toString(), "SCONTROL", scontrol.toString(), "NCCL_DOCTOR_ON_TOOL_FAILURE", "drain"));
        assertThat(closed.code()).isEqualTo(1);
        assertThat(Files.readString(calls)).contains("state=drain reason=nccl-doctor: not checked: the tool itself failed (exit 3)");
    }
}
