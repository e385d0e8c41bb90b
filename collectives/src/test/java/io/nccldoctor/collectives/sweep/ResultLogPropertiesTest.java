package io.nccldoctor.collectives.sweep;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.nccldoctor.core.InputException;
import io.nccldoctor.core.fuzz.FuzzBudget;
import io.nccldoctor.core.fuzz.Mutation;
import io.nccldoctor.core.fuzz.Mutations;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * `sweep --resume` and every reader of sweep results over result files damaged as a kill, an editor or a transfer
 * damages them (SYNTHETIC mutations of the example result and of one this orchestrator writes at the start): read, or
 * refused with an {@link InputException}; never another exception, never past 10 s. Cases: {@link FuzzBudget}.
 */
@AddLifecycleHook(FuzzBudget.class)
class ResultLogPropertiesTest {

    private static final String PLAN = "name: r\ncollectives: [allreduce, allgather]\nmatrix: {NCCL_PROTO: [default, LL128]}\n";
    private static Path work;
    private static Path plan;
    private static List<Path> seeds;
    private static int serial;

    @BeforeContainer
    static void seeds() throws Exception {
        work = Files.createTempDirectory("nccl-doctor-sweep-fuzz");
        Path child = Files.copy(Path.of("src/test/resources/sweep/test-child.py"), work.resolve("test-child.py"));
        plan = Files.writeString(work.resolve("plan.yaml"), PLAN);
        Path written = work.resolve("written.jsonl");
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("CHILD_LOG", work.resolve("children.log").toString());
        new Orchestrator(SweepPlan.load(plan), new Orchestrator.Options(written, false, false, List.of("python3", child.toString()), env,
                line -> { })).run();
        seeds = List.of(written, Path.of("../configs/examples/field-report-cluster/ab-nccl-2.28.3-vs-2.30.7.jsonl"));
    }

    @AfterContainer
    static void cleanUp() throws IOException {
        try (Stream<Path> s = Files.walk(work)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    @Provide
    Arbitrary<List<Mutation>> damage() {
        return Mutations.json();
    }

    @Property(tries = 150)
    void readOrRefusedNeverCrashed(@ForAll("damage") List<Mutation> m, @ForAll int pick) throws IOException {
        Path seed = seeds.get(Math.floorMod(pick, seeds.size()));
        Path dir = Files.createDirectories(work.resolve("case-" + (++serial % 20)));
        Path f = Files.write(dir.resolve("results.jsonl"), Mutation.applyAll(Files.readAllBytes(seed), m));
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            try {
                ResultLog.contents(f);
            } catch (InputException refused) {
                // one line naming FILE:LINE: the contract
            }
            if (Math.floorMod(pick, 4) == 0) {
                resume(f);
            }
        }, () -> "past 10 s on " + m);
    }

    /** --resume over the damaged file; children that would run are `true` (no result: recorded as failures). */
    private static void resume(Path results) throws Exception {
        try {
            new Orchestrator(SweepPlan.load(plan), new Orchestrator.Options(results, true, false, List.of("true"), Map.of("PATH",
                    System.getenv("PATH")), line -> { })).run();
        } catch (InputException refused) {
            // the file is not a sweep result: one line, exit 2
        }
    }
}
