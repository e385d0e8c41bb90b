package io.nccldoctor.gdr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The user's command between two snapshots: its exit status, and its whole tree killed past the time limit. */
class ForegroundCommandTest {

    @TempDir
    Path tmp;

    @Test
    void theExitStatusIsReported() {
        ForegroundCommand.Result ok = ForegroundCommand.run(List.of("sh", "-c", "exit 0"), Duration.ofSeconds(30), false);
        assertThat(ok.exitCode().get()).isZero();
        assertThat(ok.failed()).isFalse();
        ForegroundCommand.Result bad = ForegroundCommand.run(List.of("sh", "-c", "exit 3"), Duration.ofSeconds(30), true);
        assertThat(bad.exitCode().get()).isEqualTo(3);
        assertThat(bad.failed()).isTrue();
    }

    @Test
    void pastTheLimitTheProcessTreeIsKilled() throws Exception {
        Path pid = tmp.resolve("grandchild.pid");
        long start = System.nanoTime();
        ForegroundCommand.Result r = ForegroundCommand.run(List.of("sh", "-c", "sleep 60 & echo $! > " + pid + "; wait"),
                Duration.ofSeconds(1), false);
        assertThat(r.timedOut()).isTrue();
        assertThat(r.failed()).isTrue();
        assertThat(r.exitCode().reason()).isEqualTo("killed with its process tree after 1 s (--timeout)");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("not the 60 s of the sleep").isLessThan(Duration.ofSeconds(20));
        long grandchild = Long.parseLong(Files.readString(pid).strip());
        Thread.sleep(200);
        assertThat(running(grandchild)).as("the backgrounded sleep (a rank under mpirun) is gone too").isFalse();
    }

    /** Alive and not a zombie: a killed orphan stays a zombie until a (container's) init reaps it. */
    static boolean running(long pid) throws Exception {
        Path stat = Path.of("/proc", String.valueOf(pid), "stat");
        if (!Files.exists(stat)) {
            return false;
        }
        String s = Files.readString(stat);
        return s.charAt(s.lastIndexOf(')') + 2) != 'Z';
    }

    @Test
    void aCommandThatCannotStartIsOneMessage() {
        assertThatThrownBy(() -> ForegroundCommand.run(List.of("/nonexistent/train.sh"), Duration.ofSeconds(5), false))
                .isInstanceOf(ForegroundCommand.NotStarted.class).hasMessage("cannot start /nonexistent/train.sh: command not found");
    }
}
