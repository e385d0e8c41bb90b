package io.nccldoctor.collectives.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.InputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sweep's own inputs when they are not as it wrote them: a child that writes bytes that are not UTF-8, a result
 * file with such bytes, a null line, a last line without its newline (whole, or torn by a kill).
 */
class SweepBadInputTest {

    @TempDir
    Path dir;

    Path child;
    final List<String> progress = new ArrayList<>();

    @BeforeEach
    void setUp() throws IOException {
        child = Files.copy(Path.of("src/test/resources/sweep/test-child.py"), dir.resolve("test-child.py"));
    }

    Orchestrator.Summary sweep(String yaml, Path results, boolean resume) throws Exception {
        Path plan = Files.writeString(dir.resolve("plan.yaml"), yaml);
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("CHILD_LOG", dir.resolve("children.log").toString());
        return new Orchestrator(SweepPlan.load(plan), new Orchestrator.Options(results, resume, false, List.of("python3", child.toString()),
                env, progress::add)).run();
    }

    @Test
    void aChildThatWritesBytesThatAreNotUtf8IsReadNotFatal() throws Exception {
        Path results = dir.resolve("binary.jsonl");
        Orchestrator.Summary s = sweep("name: b\ncollectives: [allreduce]\nmatrix: {MODE: [binary]}\n", results, false);
        assertThat(s.points()).as("the whole line is a result; the line of 0xFF 0xFE 0xFD is not").isEqualTo(1);
        List<SweepRecord> read = ResultLog.read(results);
        assertThat(read).singleElement().satisfies(r -> assertThat(r.ncclLibrary()).isEqualTo("/opt/nccl/lib\uFFFD/libnccl.so.2"));
        Orchestrator.Summary again = sweep("name: b\ncollectives: [allreduce]\nmatrix: {MODE: [binary]}\n", results, true);
        assertThat(again.childrenSkipped()).as("--resume reads the child's folder with the same bytes").isEqualTo(1);
    }

    @Test
    void resumeOverAResultFileWithBytesThatAreNotUtf8() throws Exception {
        Path results = dir.resolve("r.jsonl");
        sweep("name: r\ncollectives: [allreduce]\n", results, false);
        byte[] b = Files.readAllBytes(results);
        String text = new String(b, StandardCharsets.UTF_8).replace("/opt/nccl/lib/", "/opt/nccl/lib/\u0000X");
        byte[] damaged = text.getBytes(StandardCharsets.UTF_8);
        damaged[text.indexOf("\u0000X")] = (byte) 0xE9; // a Latin-1 'é' in a path: not UTF-8
        damaged[text.indexOf("\u0000X") + 1] = '/';
        Files.write(results, damaged);
        ResultLog.Contents c = ResultLog.contents(results);
        assertThat(c.records()).hasSize(1);
        assertThat(c.notes()).containsExactly(results + ": 1 byte that is not UTF-8 read as U+FFFD (a character cut in two, a terminal "
                + "escape or binary data); the rest was read");
        assertThat(sweep("name: r\ncollectives: [allreduce]\n", results, true).childrenSkipped()).isEqualTo(1);
    }

    @Test
    void aNullLineInASweepResultIsOneLineNamingIt() throws Exception {
        Path results = dir.resolve("n.jsonl");
        sweep("name: n\ncollectives: [allreduce]\n", results, false);
        Files.writeString(results, Files.readString(results) + "null\n");
        assertThatThrownBy(() -> ResultLog.read(results)).isInstanceOf(InputException.class)
                .hasMessageStartingWith(results + ":2: null, not a sweep result record");
        Files.writeString(results, Files.readString(results).replace("null\n", "{\"type\": \"point\", \"child\": \"x\"}\n"));
        assertThatThrownBy(() -> ResultLog.read(results)).hasMessageStartingWith(results + ":2: a sweep result record needs collective");
    }

    @Test
    void aWholeLastLineWithoutItsNewlineIsKeptAndNotRunAgain() throws Exception {
        Path results = dir.resolve("k.jsonl");
        String yaml = "name: k\ncollectives: [allreduce, allgather]\n";
        sweep(yaml, results, false);
        String text = Files.readString(results);
        Files.writeString(results, text.stripTrailing()); // edited, or copied without the final newline
        assertThat(ResultLog.read(results)).hasSize(2);
        Orchestrator.Summary again = sweep(yaml, results, true);
        assertThat(again.childrenRun()).as("both points are recorded").isZero();
        assertThat(Files.readString(results)).isEqualTo(text);
    }

    @Test
    void aTornLastLineIsSaidAndItsPointIsReadAgain() throws Exception {
        Path results = dir.resolve("t.jsonl");
        String yaml = "name: t\ncollectives: [allreduce]\nmatrix: {NCCL_PROTO: [Simple, LL]}\n";
        sweep(yaml, results, false);
        List<String> lines = Files.readAllLines(results);
        Files.writeString(results, lines.get(0) + "\n" + lines.get(1).substring(0, 100)); // killed while writing the second
        ResultLog.Contents c = ResultLog.contents(results);
        assertThat(c.records()).hasSize(1);
        assertThat(c.notes()).singleElement().asString().startsWith(results + ":2: the last line has no newline and is not a whole record "
                + "(100 characters");
        progress.clear();
        Orchestrator.Summary again = sweep(yaml, results, true);
        assertThat(progress.get(0)).as("said on the progress line").startsWith(results + ":2: the last line has no newline");
        assertThat(again.childrenRun()).as("the point is taken again from the child's own result in the work folder").isZero();
        assertThat(again.points()).isEqualTo(1);
        assertThat(ResultLog.read(results)).hasSize(2).allMatch(SweepRecord::isPoint);
    }
}
