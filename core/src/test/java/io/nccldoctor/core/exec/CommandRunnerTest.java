package io.nccldoctor.core.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Json;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The live runner's three outcomes, and that a recorded runner gives back exactly what was recorded. */
class CommandRunnerTest {

    private final ProcessCommandRunner live = new ProcessCommandRunner();

    @Test
    void exitCodeAndBothStreamsAreKept() {
        var r = live.run(List.of("sh", "-c", "echo out; echo err >&2; exit 3"), Duration.ofSeconds(10));
        assertThat(r).isInstanceOf(CommandResult.Exited.class);
        var e = (CommandResult.Exited) r;
        assertThat(e.exitCode()).isEqualTo(3);
        assertThat(e.stdout()).isEqualTo("out\n");
        assertThat(e.stderr()).isEqualTo("err\n");
        assertThat(r.stdoutIfSucceeded().describe()).isEqualTo("error: sh exited with 3: err");
    }

    @Test
    void theLocaleIsC() {
        var r = live.run(List.of("sh", "-c", "echo $LC_ALL"), Duration.ofSeconds(10));
        assertThat(r.stdoutIfSucceeded().get()).isEqualTo("C\n");
    }

    @Test
    void aChildThatOutlivesItsLimitIsKilledWithItsChildren() {
        long start = System.nanoTime();
        var r = live.run(List.of("sh", "-c", "echo started; sleep 30 & sleep 30"), Duration.ofMillis(300));
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertThat(r).isInstanceOf(CommandResult.TimedOut.class);
        assertThat(((CommandResult.TimedOut) r).stdout()).isEqualTo("started\n");
        assertThat(ms).as("the runner must not wait for the killed child's 30 s sleep").isLessThan(10_000);
        assertThat(r.stdoutIfSucceeded().describe()).contains("did not finish within 300 ms");
    }

    @Test
    void aMissingBinaryIsNotRunWithAClearReason() {
        var r = live.run(List.of("nccl-doctor-no-such-binary", "-x"), Duration.ofSeconds(5));
        assertThat(r).isInstanceOf(CommandResult.NotRun.class);
        assertThat(r.stdoutIfSucceeded().describe()).isEqualTo("absent: command not found: nccl-doctor-no-such-binary");
    }

    @Test
    void recordedOutcomesReplayIdenticallyAfterAJsonRoundTrip() throws Exception {
        List<CommandResult> recorded = List.of(
                live.run(List.of("sh", "-c", "echo hi; exit 1"), Duration.ofSeconds(10)),
                live.run(List.of("sh", "-c", "sleep 5"), Duration.ofMillis(200)),
                live.run(List.of("no-such-binary-here"), Duration.ofSeconds(5)));
        String json = Json.mapper().writerFor(new com.fasterxml.jackson.core.type.TypeReference<List<CommandResult>>() { })
                .writeValueAsString(recorded);
        List<CommandResult> back = Json.mapper().readValue(json, new com.fasterxml.jackson.core.type.TypeReference<List<CommandResult>>() { });
        var replay = new RecordedCommandRunner(back);
        assertThat(replay.run(List.of("sh", "-c", "echo hi; exit 1"), Duration.ofSeconds(1))).isEqualTo(recorded.get(0));
        assertThat(replay.run(List.of("sh", "-c", "sleep 5"), Duration.ofSeconds(1))).isInstanceOf(CommandResult.TimedOut.class);
        assertThat(replay.run(List.of("no-such-binary-here"), Duration.ofSeconds(1)).stdoutIfSucceeded().reason())
                .isEqualTo("command not found: no-such-binary-here");
        assertThat(replay.run(List.of("lspci"), Duration.ofSeconds(1)).stdoutIfSucceeded().reason())
                .as("what did not run on the captured host must not be invented on replay")
                .isEqualTo("not in the capture: lspci");
    }
}
