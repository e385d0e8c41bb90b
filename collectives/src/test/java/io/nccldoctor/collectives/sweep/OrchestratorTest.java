package io.nccldoctor.collectives.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The orchestrator driving real child processes (a Python stand-in that succeeds, hangs, crashes or writes junk). */
class OrchestratorTest {

    @TempDir
    Path dir;

    Path child;
    Path childLog;
    final List<String> progress = new ArrayList<>();

    @BeforeEach
    void setUp() throws IOException {
        child = dir.resolve("test-child.py");
        Files.copy(Path.of("src/test/resources/sweep/test-child.py"), child);
        childLog = dir.resolve("children.log");
    }

    Path plan(String yaml) throws IOException {
        Path p = dir.resolve("plan.yaml");
        Files.writeString(p, yaml);
        return p;
    }

    Orchestrator.Summary sweep(Path plan, Path results, boolean resume, Map<String, String> env) throws Exception {
        Map<String, String> parent = new HashMap<>(System.getenv());
        parent.put("CHILD_LOG", childLog.toString());
        parent.putAll(env);
        return new Orchestrator(SweepPlan.load(plan), new Orchestrator.Options(results, resume, false, List.of("python3", child.toString()),
                parent, progress::add)).run();
    }

    List<String> starts() throws IOException {
        return Files.exists(childLog) ? Files.readAllLines(childLog) : List.of();
    }

    @Test
    void everyKindOfFailureIsRecordedAndTheSweepGoesOn() throws Exception {
        Path plan = plan("""
                name: faults
                collectives: [allreduce, allgather]
                timeoutSeconds: 5
                matrix:
                  MODE: [ok, hang, crash, garbage, invalid, exit127]
                """);
        Path results = dir.resolve("faults.jsonl");
        // 5 s per point: the stand-in child is python behind whatever shim the machine has, which took 5 s to start on a
        // machine with a load average of 17 (1 s per point cut the ok child too)
        Orchestrator.Summary s = sweep(plan, results, false, Map.of());
        assertThat(s.childrenRun()).isEqualTo(6);
        Map<String, List<SweepRecord>> byMode = ResultLog.read(results).stream()
                .collect(Collectors.groupingBy(r -> r.env().get("MODE")));
        assertThat(byMode.get("ok")).allMatch(SweepRecord::isPoint).hasSize(2);
        assertThat(byMode.get("ok").get(0).rows()).hasSize(2);
        assertThat(byMode.get("ok").get(0).ncclLibrary()).isEqualTo("/opt/nccl/lib/libnccl.so.2");
        assertThat(byMode.get("ok").get(0).transports()).as("from the child's NCCL log").containsEntry("P2P/IPC/read", 1L);
        assertThat(byMode.get("ok").get(0).algorithms()).containsEntry("RING/SIMPLE", 1L);
        assertThat(byMode.get("hang")).extracting(SweepRecord::failure).containsExactly("hang", "hang");
        assertThat(byMode.get("hang").get(0).detail()).startsWith("no result within 10 s (5 s per point); killed with its process tree");
        assertThat(byMode.get("hang").get(0).outputTail()).contains("NCCL INFO waiting for rank 1");
        assertThat(byMode.get("crash").get(0).isPoint()).as("the point before the fault is kept").isTrue();
        assertThat(byMode.get("crash").get(1).failure()).isEqualTo("crash");
        assertThat(byMode.get("crash").get(1).detail()).isEqualTo("killed by signal 11 (SIGSEGV)");
        assertThat(byMode.get("garbage")).extracting(SweepRecord::failure).containsOnly("garbage");
        assertThat(byMode.get("invalid")).extracting(SweepRecord::failure).containsOnly("invalid-result");
        assertThat(byMode.get("exit127")).extracting(SweepRecord::failure).containsOnly("crash");
        assertThat(byMode.get("exit127").get(0).outputTail()).anyMatch(l -> l.contains("undefined symbol: ncclCommInitRankConfig"));
        assertThat(s.points()).isEqualTo(3);
        assertThat(s.failures()).containsEntry("hang", 2).containsEntry("crash", 3);
    }

    @Test
    void resumeSkipsWhatIsDoneAndAnExistingFileIsNeverOverwritten() throws Exception {
        Path plan = plan("name: r\ncollectives: [allreduce]\nrepetitions: 2\nmatrix: {NCCL_PROTO: [default, Simple]}\n");
        Path results = dir.resolve("r.jsonl");
        sweep(plan, results, false, Map.of());
        assertThat(starts()).hasSize(4);
        List<SweepRecord> first = ResultLog.read(results);
        assertThatThrownBy(() -> sweep(plan, results, false, Map.of())).isInstanceOf(InputException.class)
                .hasMessageContaining("exists; give --resume");
        Orchestrator.Summary again = sweep(plan, results, true, Map.of());
        assertThat(again.childrenRun()).isZero();
        assertThat(again.childrenSkipped()).isEqualTo(4);
        assertThat(starts()).hasSize(4);
        assertThat(ResultLog.read(results)).isEqualTo(first);
    }

    /** "default" removes a variable the user exported; A/B arms alternate within each repetition. */
    @Test
    void defaultUnsetsTheVariableAndArmsAlternate() throws Exception {
        Path plan = plan("""
                name: ab
                collectives: [allgather]
                repetitions: 2
                libraries: {a: /opt/nccl-2.28/lib, b: /opt/nccl-2.30.7/lib}
                matrix: {NCCL_PROTO: [default, LL128]}
                """);
        sweep(plan, dir.resolve("ab.jsonl"), false, Map.of("NCCL_PROTO", "LL"));
        assertThat(starts()).extracting(l -> l.split(" ")[0] + " " + l.split(" ")[2]).containsExactly(
                "a/NCCL_PROTO=default/rep1 unset", "b/NCCL_PROTO=default/rep1 unset",
                "a/NCCL_PROTO=LL128/rep1 LL128", "b/NCCL_PROTO=LL128/rep1 LL128",
                "a/NCCL_PROTO=default/rep2 unset", "b/NCCL_PROTO=default/rep2 unset",
                "a/NCCL_PROTO=LL128/rep2 LL128", "b/NCCL_PROTO=LL128/rep2 LL128");
        ChildSpec a = SweepPlan.load(plan).children().get(0);
        Map<String, String> env = a.environment(Map.of("LD_LIBRARY_PATH", "/usr/lib", "NCCL_PROTO", "LL"), dir);
        assertThat(env).doesNotContainKey("NCCL_PROTO").containsEntry("LD_LIBRARY_PATH", "/opt/nccl-2.28/lib:/usr/lib")
                .containsEntry("NCCL_DEBUG", "INFO").containsEntry("NCCL_DEBUG_FILE", dir.resolve("nccl.%h.%p.log").toString())
                .containsEntry("LC_ALL", "C");
    }

    /** SIGKILL to the orchestrator halfway: --resume loses no finished point and runs none twice that was recorded. */
    @Test
    void killedHalfwayThenResumedLosesNoPoint() throws Exception {
        Path plan = plan("name: k\ncollectives: [allreduce, allgather]\nmatrix: {MODE: [slow]}\nrepetitions: 6\n");
        Path results = dir.resolve("k.jsonl");
        List<String> argv = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), SweepMain.class.getName(), plan.toString(), results.toString(), child.toString());
        ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(dir.resolve("main.out").toFile());
        pb.environment().put("CHILD_LOG", childLog.toString());
        Process main = pb.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while ((!Files.exists(results) || Files.readAllLines(results).size() < 5) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        List<ProcessHandle> spawned = main.descendants().toList(); // a child being started (python behind a shim)
        main.destroyForcibly(); // SIGKILL
        main.waitFor(10, TimeUnit.SECONDS);
        int recordedBefore = ResultLog.read(results).size();
        assertThat(recordedBefore).isBetween(5, 11);
        // A child spawned just before the kill may log its start (and an orphan may finish its last point) seconds
        // later on a loaded machine: count the starts once the orphans have exited and the log has stopped growing.
        for (ProcessHandle orphan : spawned) {
            orphan.onExit().completeOnTimeout(orphan, 30, TimeUnit.SECONDS).join();
        }
        int startsBefore = settledStarts();
        sweep(plan, results, true, Map.of());
        List<SweepRecord> all = ResultLog.read(results);
        assertThat(all).hasSize(12).allMatch(SweepRecord::isPoint);
        assertThat(all.stream().map(r -> r.child() + " " + r.collective()).distinct()).hasSize(12);
        assertThat(starts().size() - startsBefore).as("children rerun").isLessThanOrEqualTo(6 - recordedBefore / 2);
    }

    /** The number of child starts once the start log has not grown for a second (at most 20 s). */
    private int settledStarts() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        int seen = starts().size();
        while (System.nanoTime() < deadline) {
            Thread.sleep(1000);
            int now = starts().size();
            if (now == seen) {
                return now;
            }
            seen = now;
        }
        return seen;
    }

    /** Overhead per point with the stand-in child: process start to result file, printed for the record. */
    @Test
    void overheadPerPoint() throws Exception {
        Path plan = plan("name: o\ncollectives: [allreduce, allgather, alltoall]\nrepetitions: 5\n");
        Orchestrator.Summary s = sweep(plan, dir.resolve("o.jsonl"), false, Map.of());
        assertThat(s.points()).isEqualTo(15);
        System.out.printf("sweep overhead: %d ms per child, %d ms per point (Python stand-in child, process start to result file)%n",
                s.wallMs() / 5, s.wallMs() / 15);
    }
}
