package io.nccldoctor.collectives.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.InputException;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Rank 0 in this JVM, the other rank in a second JVM on loopback; and the time limits when rank 0 never comes. */
class RendezvousTest {

    @TempDir
    Path dir;

    static byte[] id() {
        byte[] b = new byte[Rendezvous.ID_BYTES];
        new Random(42).nextBytes(b);
        return b;
    }

    /** Starts RendezvousChild in a new JVM with this test's class path. */
    static Process child(String spec, String key, int timeoutSeconds) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"), RendezvousChild.class.getName(), spec, key,
                String.valueOf(timeoutSeconds))).redirectErrorStream(true).start();
    }

    static String finish(Process p) throws Exception {
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("child finished").isTrue();
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void aSecondProcessReadsRankZerosIdFromASharedFile() throws Exception {
        String spec = "file:" + dir.resolve("ncclid");
        Process other = child(spec, "SLURM_JOB_ID=7", 30); // waits for the file
        Thread.sleep(300);
        Rendezvous.parse(spec).publish(id(), "SLURM_JOB_ID=7", 1, Duration.ofSeconds(30));
        assertThat(finish(other)).isEqualTo("id " + HexFormat.of().formatHex(id()));
        assertThat(other.exitValue()).isZero();
    }

    @Test
    void aSecondProcessReadsRankZerosIdOverTcpOnLoopback() throws Exception {
        String spec = "tcp://127.0.0.1:" + freePort();
        Process other = child(spec, "job", 30); // retries until rank 0 listens
        Thread.sleep(300);
        Rendezvous.parse(spec).publish(id(), "job", 1, Duration.ofSeconds(30));
        assertThat(finish(other)).isEqualTo("id " + HexFormat.of().formatHex(id()));
    }

    @Test
    void withoutRankZeroBothKindsTimeOutAndSaySo() throws Exception {
        long start = System.nanoTime();
        Fact<byte[]> file = Rendezvous.parse("file:" + dir.resolve("never")).fetch("", Duration.ofSeconds(1));
        Fact<byte[]> tcp = Rendezvous.parse("tcp://127.0.0.1:" + freePort()).fetch("", Duration.ofSeconds(1));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        assertThat(file.isValue()).isFalse();
        assertThat(file.reason()).startsWith("rank 0 did not publish its id within 1 s at file:").contains("does not exist");
        assertThat(tcp.reason()).startsWith("rank 0 did not answer at tcp://127.0.0.1:");
    }

    @Test
    void aPreviousJobsFileIsNotRead() throws Exception {
        Path f = dir.resolve("ncclid");
        Rendezvous.parse("file:" + f).publish(id(), "SLURM_JOB_ID=6", 1, Duration.ofSeconds(5));
        Fact<byte[]> r = Rendezvous.parse("file:" + f).fetch("SLURM_JOB_ID=7", Duration.ofMillis(300));
        assertThat(r.reason()).contains("is from another job (key 'SLURM_JOB_ID=6', this job 'SLURM_JOB_ID=7')");
        Files.writeString(f, "garbage\n");
        assertThat(Rendezvous.parse("file:" + f).fetch("", Duration.ofMillis(100)).reason())
                .contains("does not hold an nccl-doctor rendezvous line");
    }

    @Test
    void anotherJobsRankZeroOnThePortIsReported() throws Exception {
        int port = freePort();
        Rendezvous.parse("tcp://127.0.0.1:" + port).publish(id(), "job-a", 1, Duration.ofSeconds(10));
        Fact<byte[]> r = Rendezvous.parse("tcp://127.0.0.1:" + port).fetch("job-b", Duration.ofSeconds(5));
        assertThat(r.reason()).contains("another job's rank 0 holds this port");
    }

    @Test
    void badSpecsAreInputErrors() {
        for (String s : List.of("nfs:/x", "tcp://host", "tcp://host:99999", "file:")) {
            assertThatThrownBy(() -> Rendezvous.parse(s)).isInstanceOf(InputException.class).hasMessageContaining("use file:PATH");
        }
        assertThat(Rendezvous.parse("tcp://[fe80::1]:29500")).isEqualTo(new Rendezvous.Tcp("fe80::1", 29500));
    }
}
