package io.nccldoctor.collectives.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.collectives.coll.Collective;
import io.nccldoctor.collectives.coll.DataType;
import io.nccldoctor.collectives.Fixtures;
import io.nccldoctor.core.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner against stand-in nccl-tests binaries: shell scripts that print a real published output. */
class ReferenceRunnerTest {

    @TempDir
    Path dir;

    static ReferenceRunner.Plan plan(String collective, Duration timeout) {
        return new ReferenceRunner.Plan(Collective.parse(collective), DataType.FLOAT32, "sum", "8", "128M", 2, 1, 5, 20, 1, timeout);
    }

    /** An executable NAME in dir that records its arguments and runs BODY. */
    static Path fake(Path dir, String name, String body) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, "#!/bin/sh\necho \"$@\" > \"" + dir.resolve(name + ".args") + "\"\n" + body + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    static String cat(String fixture) {
        return "cat '" + Fixtures.publicFixture(fixture) + "'";
    }

    @Test
    void runsTheBinaryWithNcclTestsFlagsAndReadsItsTable() throws IOException {
        fake(dir, "all_reduce_perf", cat("nccl-tests-h100-8gpu-allreduce-dgxc.txt"));
        ReferenceRun r = new ReferenceRunner(Map.of()).run(dir, plan("allreduce", Duration.ofSeconds(20)), null);
        assertThat(Files.readString(dir.resolve("all_reduce_perf.args")).strip())
                .isEqualTo("-b 8 -e 128M -f 2 -g 1 -d float -w 5 -n 20 -c 1 -o sum");
        assertThat(r.exitCode().get()).isZero();
        assertThat(r.problem().isValue()).isFalse();
        assertThat(r.output().get().rows()).hasSize(32);
        assertThat(r.output().get().avgBusBwGBps().get()).isEqualTo(159.151);
        assertThat(r.failed()).isFalse();
    }

    @Test
    void wrongElementsFailTheRun() throws IOException {
        fake(dir, "all_reduce_perf", cat("nccl-tests-gh200-16rank-corrupted-wrong.txt"));
        ReferenceRun r = new ReferenceRunner(Map.of()).run(dir, plan("allreduce", Duration.ofSeconds(20)), null);
        assertThat(r.problem().isValue()).isFalse();
        assertThat(r.failed()).isTrue();
    }

    @Test
    void anMpiBuildIsFoundAndNonReducingCollectivesGetNoOp() throws IOException {
        fake(dir, "alltoall_perf_mpi", cat("nccl-tests-a100-alltoall-old-na.txt"));
        ReferenceRun r = new ReferenceRunner(Map.of()).run(dir, plan("alltoall", Duration.ofSeconds(20)), null);
        assertThat(r.argv().get(0)).endsWith("alltoall_perf_mpi");
        assertThat(r.argv()).doesNotContain("-o");
        assertThat(r.output().get().avgBusBwGBps().get()).isEqualTo(58.6481);
    }

    @Test
    void aNonZeroExitKeepsTheTailOfStderr() throws IOException {
        fake(dir, "all_gather_perf", "echo 'Test NCCL failure common.cu:1279 unhandled system error' >&2\nexit 3");
        ReferenceRun r = new ReferenceRunner(Map.of()).run(dir, plan("allgather", Duration.ofSeconds(20)), null);
        assertThat(r.exitCode().get()).isEqualTo(3);
        assertThat(r.problem().get()).endsWith("all_gather_perf exited with status 3");
        assertThat(r.stderrTail()).containsExactly("Test NCCL failure common.cu:1279 unhandled system error");
        assertThat(r.output().isValue()).isFalse();
        assertThat(r.failed()).isTrue();
    }

    @Test
    void aHangIsKilledAtTheTimeLimit() throws IOException {
        fake(dir, "sendrecv_perf", "echo '# nccl-tests version 2.17.9 nccl-headers=22902 nccl-library=22902'\nsleep 30");
        long start = System.nanoTime();
        ReferenceRun r = new ReferenceRunner(Map.of()).run(dir, plan("sendrecv", Duration.ofSeconds(1)), null);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
        assertThat(r.exitCode().isValue()).isFalse();
        assertThat(r.problem().get()).startsWith("did not finish within 1 s");
        assertThat(r.failed()).isTrue();
    }

    @Test
    void aFolderWithoutTheBinaryIsBadInput() {
        assertThatThrownBy(() -> ReferenceRunner.binary(dir, Collective.parse("broadcast")))
                .isInstanceOf(InputException.class).hasMessageContaining("no executable broadcast_perf (or broadcast_perf_mpi)");
        assertThatThrownBy(() -> ReferenceRunner.binary(dir.resolve("nope"), Collective.parse("broadcast")))
                .isInstanceOf(InputException.class).hasMessageContaining("no such folder");
    }

    @Test
    void aggregationOtherThanTheMeanIsPassedAsNcclTestsMinusA() {
        ReferenceRunner.Plan slowest = new ReferenceRunner.Plan(Collective.parse("allgather"), DataType.FLOAT32, "sum", "8", "1M", 2, 1, 5,
                20, 1, Duration.ofSeconds(1), 3);
        assertThat(ReferenceRunner.argv(Path.of("/x/all_gather_perf"), slowest)).endsWith("-c", "1", "-a", "3");
        assertThat(ReferenceRunner.argv(Path.of("/x/all_gather_perf"), plan("allgather", Duration.ofSeconds(1)))).doesNotContain("-a");
        assertThatThrownBy(() -> new ReferenceRunner.Plan(Collective.parse("allgather"), DataType.FLOAT32, "sum", "8", "1M", 2, 1, 5, 20, 1,
                Duration.ofSeconds(1), 7)).isInstanceOf(InputException.class).hasMessageStartingWith("-a 7:");
    }

    @Test
    void sizesFollowNcclTestsSyntax() {
        assertThatThrownBy(() -> new ReferenceRunner.Plan(Collective.parse("allreduce"), DataType.FLOAT32, "sum", "8", "128MB", 2, 1, 5,
                20, 1, Duration.ofSeconds(1))).isInstanceOf(InputException.class).hasMessageStartingWith("size '128MB'");
        assertThat(ReferenceRunner.argv(Path.of("/x/reduce_scatter_perf"), plan("reducescatter", Duration.ofSeconds(1))))
                .isEqualTo(List.of("/x/reduce_scatter_perf", "-b", "8", "-e", "128M", "-f", "2", "-g", "1", "-d", "float", "-w", "5",
                        "-n", "20", "-c", "1", "-o", "sum"));
    }

    @Test
    void eachProcessWritesAnNcclLogThatIsParsedIntoTheResult() throws IOException {
        Path logs = Files.createDirectories(dir.resolve("logs"));
        fake(dir, "all_reduce_perf", "f=$(echo \"$NCCL_DEBUG_FILE\" | sed \"s/%h/$(uname -n)/; s/%p/$$/\")\n"
                + "echo \"$NCCL_DEBUG\" > '" + dir.resolve("debug.level") + "'\n"
                + "cat '" + Fixtures.publicFixture("nccl-log-roce-2node-completion-error-status4.txt") + "' > \"$f\"\n"
                + cat("nccl-tests-h100-8gpu-allreduce-dgxc.txt"));
        ReferenceRun r = new ReferenceRunner(Map.of()).run(dir, plan("allreduce", Duration.ofSeconds(20)), logs);
        assertThat(Files.readString(dir.resolve("debug.level")).strip()).isEqualTo("INFO");
        assertThat(r.ncclLogs()).hasSize(1);
        assertThat(r.ncclLogs().keySet().iterator().next()).startsWith("nccl.").endsWith(".log").doesNotContain("%");
        assertThat(r.ncclLogs().values().iterator().next().ibErrors().get(0).status()).isEqualTo(4);
        assertThat(r.problem().isValue()).isFalse();
        assertThat(r.failed()).as("an IB completion error in a log fails the run").isTrue();
    }

    @Test
    void aUsersOwnDebugFileIsLeftAlone() throws IOException {
        fake(dir, "all_reduce_perf", "echo \"$NCCL_DEBUG_FILE\" > '" + dir.resolve("file.seen") + "'\n"
                + cat("nccl-tests-h100-8gpu-allreduce-dgxc.txt"));
        ReferenceRun r = new ReferenceRunner(Map.of("NCCL_DEBUG_FILE", "/tmp/mine.%p")).run(dir, plan("allreduce", Duration.ofSeconds(20)),
                dir.resolve("unused"));
        assertThat(r.logsNote()).startsWith("not captured: NCCL_DEBUG_FILE=/tmp/mine.%p is set");
        assertThat(r.ncclLogs()).isEmpty();
        assertThat(r.failed()).isFalse();
    }
}
