package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.core.Json;
import io.nccldoctor.core.output.Marker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.Command;

/**
 * What the README promises of every verb, one dynamic test per verb: --json on stdout with "generator", "schemaVersion"
 * and "kind" first; the exit codes of its table (0 or 1 for a result, 2 and one line for bad usage or input, never a
 * stack trace); and, for every verb that writes a file, the output rule (-o replaces its own earlier output, refuses any
 * other file without --force, never creates a folder, leaves nothing beside the file).
 */
class VerbContractTest {

    static final String CAPTURE = CliTest.FIXTURES + "arrowlake-ws";
    static final String DGX = CliTest.FIXTURES + "dgx-class";
    static final String E = CliTest.EXAMPLE + "/";
    static final String PAIRS = "../reports/src/test/resources/fixtures/pairwise/planted-slow";

    /** Verbs without --json, each with the reason: the test fails when a verb is added to neither list. */
    static final Map<String, String> NO_JSON = Map.of(
            "capture", "its result is the capture folder, whose manifest.json is already JSON",
            "sweep-child", "internal: the child of sweep, it writes the JSONL result file",
            "parse", "its documents are the parse kinds' own (ParseCommand): add it here once each carries schemaVersion and kind");

    @TempDir
    Path tmp;

    /** One good run of a verb: its arguments, the kind its --json names, and the exit codes its text allows for that run. */
    record Good(String verb, List<String> args, String kind, Set<Integer> codes) {
    }

    private List<Good> goodRuns() throws Exception {
        Path bin = Files.createDirectories(tmp.resolve("build"));
        Path fake = bin.resolve("all_reduce_perf");
        Files.writeString(fake, "#!/bin/sh\ncat '" + Path.of(CliTest.collectivesFixture("nccl-tests-h100-2node-ib-issue319.txt"))
                .toAbsolutePath() + "'\n");
        assertThat(fake.toFile().setExecutable(true)).isTrue();
        return List.of(
                new Good("align", List.of("align", "--collective", "alltoall", "--dtype", "float", "--count", "134217726", "--ranks", "3"),
                        "align", Set.of(1)),
                new Good("run", List.of("run", "--reference", "nccl-tests", "--nccl-tests-dir", bin.toString(), "--log-dir",
                        tmp.resolve("logs").toString(), "--force"), "run", Set.of(0)),
                new Good("report", List.of("report", E + "allreduce.txt", E + "allgather.txt"), "report", Set.of(0, 1)),
                new Good("compare", List.of("compare", CliTest.AB), "compare", Set.of(0)),
                new Good("rulezero", List.of("rulezero", E + "suspect-alltoall.csv", "--reference", E + "alltoall-nccl-tests.txt"),
                        "rulezero", Set.of(1)),
                new Good("cluster", List.of("cluster", CAPTURE, DGX), "cluster", Set.of(0, 1)),
                new Good("counters", List.of("counters", "--from", CAPTURE), "counters", Set.of(0, 1)),
                new Good("topo", List.of("topo", "--from", CAPTURE), "topo", Set.of(0, 1)),
                new Good("gdr", List.of("gdr", "--from", CAPTURE), "gdr", Set.of(0, 1)),
                new Good("preflight", List.of("preflight", "--from", CAPTURE), "preflight", Set.of(0, 1)),
                new Good("sweep", List.of("sweep", "../configs/sweeps/ab-nccl.yaml", "--dry-run"), "sweep-plan", Set.of(0)),
                new Good("explain", List.of("explain", "GDR_DISABLED_BY_DISTANCE"), "explain", Set.of(0)),
                new Good("tune", List.of("tune", oneArm().toString()), "tune", Set.of(0)));
    }

    /**
     * Second forms of a verb whose result is of another shape: cluster's pairwise judgement, preflight's network checks
     * (on a capture they are "not checked": a capture cannot run NCCL), tune writing its files.
     */
    private List<Good> variants() throws Exception {
        return List.of(
                new Good("cluster --pairwise", List.of("cluster", "--pairwise", "--results", PAIRS), "cluster-pairwise", Set.of(0, 1)),
                new Good("preflight --quick --network", List.of("preflight", "--from", CAPTURE, "--quick", "--network"), "preflight",
                        Set.of(0, 1)));
    }

    /** One NCCL library's runs, as tune wants them: the b arm of the example's A/B sweep. */
    private Path oneArm() throws Exception {
        Path p = tmp.resolve("b.jsonl");
        if (!Files.exists(p)) {
            Files.write(p, Files.readAllLines(Path.of(CliTest.AB)).stream().filter(l -> l.contains("\"arm\":\"b\"")).toList());
            assertThat(Files.size(p)).as("the b arm's lines").isPositive();
        }
        return p;
    }

    @Test
    void everyVerbIsCheckedOrSaysWhyNot() throws Exception {
        List<String> named = new ArrayList<>(goodRuns().stream().map(Good::verb).toList());
        named.addAll(NO_JSON.keySet());
        List<String> verbs = RootCommand.VERBS.stream().map(v -> v.getAnnotation(Command.class).name()).toList();
        assertThat(named).as("each verb has a --json check, or a reason in NO_JSON").containsExactlyInAnyOrderElementsOf(verbs);
    }

    @TestFactory
    Stream<DynamicTest> jsonOnStdoutWithGeneratorSchemaVersionAndKind() throws Exception {
        return Stream.concat(goodRuns().stream(), variants().stream()).map(g -> DynamicTest.dynamicTest(g.verb(), () -> {
            List<String> args = new ArrayList<>(g.args());
            args.add("--json");
            CliTest.Run r = CliTest.run(args.toArray(String[]::new));
            assertThat(r.code()).as("%s: %s", g.verb(), r.err()).isIn(g.codes());
            JsonNode doc = Json.mapper().readTree(r.out());
            assertThat(doc.fieldNames()).toIterable().as(g.verb()).startsWith("generator", "schemaVersion", "kind");
            assertThat(doc.get("generator").asText()).isEqualTo(Marker.GENERATOR);
            assertThat(doc.get("schemaVersion").isInt()).isTrue();
            assertThat(doc.get("kind").asText()).isEqualTo(g.kind());
        }));
    }

    @TestFactory
    Stream<DynamicTest> theTextRunExitsAsDocumentedWithoutAStackTrace() throws Exception {
        return Stream.concat(goodRuns().stream(), variants().stream()).map(g -> DynamicTest.dynamicTest(g.verb(), () -> {
            CliTest.Run r = CliTest.run(g.args().toArray(String[]::new));
            assertThat(r.code()).as("%s: %s", g.verb(), r.err()).isIn(g.codes());
            assertThat(r.out()).as(g.verb()).isNotBlank();
            assertThat(r.out() + r.err()).doesNotContain("\tat ").doesNotContain("Exception");
        }));
    }

    /** A flag no verb has: exit 2, one line on stderr naming it, the help pointer, nothing on stdout. */
    @TestFactory
    Stream<DynamicTest> badUsageIsExit2InOneLine() {
        return RootCommand.VERBS.stream().map(v -> v.getAnnotation(Command.class).name()).filter(v -> !v.equals("sweep-child"))
                .map(verb -> DynamicTest.dynamicTest(verb, () -> {
                    CliTest.Run r = CliTest.run(verb, "--no-such-flag");
                    assertThat(r.code()).as(verb).isEqualTo(2);
                    assertThat(r.err().lines().toList()).as(verb).hasSize(2);
                    assertThat(r.err().lines().findFirst().orElse("")).as("the flag, or what is missing before it")
                            .matches("nccl-doctor: (Unknown option: '--no-such-flag'|Missing required .*)");
                    assertThat(r.err()).contains("Try 'nccl-doctor " + verb + " --help'.");
                    assertThat(r.out()).isEmpty();
                }));
    }

    /** Input that is missing or malformed: exit 2, one line that names it, no stack trace. */
    @TestFactory
    Stream<DynamicTest> badInputIsExit2InOneLine() throws Exception {
        Path junk = Files.writeString(tmp.resolve("junk.txt"), "some notes\nnothing to see\n");
        Path busy = Files.createDirectories(tmp.resolve("busy"));
        Files.writeString(busy.resolve("mine.txt"), "mine\n");
        Map<String, List<String>> bad = Map.ofEntries(
                Map.entry("align", List.of("align", "--collective", "alltoall", "--dtype", "float", "--count", "8", "--ranks", "0")),
                Map.entry("run", List.of("run", "--collective", "nosuchcollective")),
                Map.entry("parse", List.of("parse", "nccl-tests", "/nonexistent/out.txt")),
                Map.entry("report", List.of("report", junk.toString())),
                Map.entry("compare", List.of("compare", "/nonexistent/a.jsonl", "/nonexistent/b.jsonl")),
                Map.entry("rulezero", List.of("rulezero", junk.toString())),
                Map.entry("cluster", List.of("cluster", "/nonexistent/snapshots")),
                Map.entry("counters", List.of("counters", "--from", "/nonexistent/capture")),
                Map.entry("topo", List.of("topo", "--from", "/nonexistent/capture")),
                Map.entry("gdr", List.of("gdr", "--from", "/nonexistent/capture")),
                Map.entry("preflight", List.of("preflight", "--from", "/nonexistent/capture")),
                Map.entry("sweep", List.of("sweep", "nosuchplan")),
                Map.entry("capture", List.of("capture", busy.toString())),
                Map.entry("explain", List.of("explain", "NO_SUCH_CODE")),
                Map.entry("tune", List.of("tune", "/nonexistent/tune.jsonl")),
                Map.entry("sweep-child", List.of("sweep-child", "--request", junk.toString(), "--result", tmp.resolve("r.jsonl").toString())));
        assertThat(bad.keySet()).as("every verb").containsExactlyInAnyOrderElementsOf(
                RootCommand.VERBS.stream().map(v -> v.getAnnotation(Command.class).name()).toList());
        return bad.entrySet().stream().sorted(Map.Entry.comparingByKey()).map(e -> DynamicTest.dynamicTest(e.getKey(), () -> {
            CliTest.Run r = CliTest.run(e.getValue().toArray(String[]::new));
            assertThat(r.code()).as("%s: %s", e.getKey(), r.err()).isEqualTo(2);
            assertThat(r.err().strip()).as(e.getKey()).startsWith("nccl-doctor: ").doesNotContain("\n").doesNotContain("internal error");
        }));
    }

    /** The verbs that write a report file, each with a good run and a file name of a format it writes. */
    private List<Good> writers() throws Exception {
        List<Good> runs = goodRuns();
        runs = new ArrayList<>(runs);
        runs.addAll(variants());
        Map<String, String> name = Map.of("report", "r.json", "compare", "ab.md", "rulezero", "rz.html", "cluster", "cluster.txt",
                "preflight", "nccl-doctor.prom", "topo", "topo.txt", "gdr", "gdr.json", "tune", "nccl_tuner.conf",
                "cluster --pairwise", "pairs.json");
        return runs.stream().filter(g -> name.containsKey(g.verb())).map(g -> new Good(g.verb(), g.args(), name.get(g.verb()), g.codes()))
                .toList();
    }

    @TestFactory
    Stream<DynamicTest> theOutputRuleHoldsForEveryVerbThatWritesAFile() throws Exception {
        return writers().stream().map(g -> DynamicTest.dynamicTest(g.verb(), () -> {
            Path dir = Files.createDirectories(tmp.resolve("out-" + g.verb().replace(' ', '_')));
            Path f = dir.resolve(g.kind());
            CliTest.Run first = write(g, f);
            assertThat(first.code()).as("%s: %s", g.verb(), first.err()).isIn(g.codes());
            assertThat(Marker.in(f)).as("%s: the marker", f).isTrue();
            CliTest.Run again = write(g, f);
            assertThat(again.code()).as("%s replaces its own output: %s", g.verb(), again.err()).isIn(g.codes());
            Files.writeString(f, "mine\n");
            CliTest.Run refused = write(g, f);
            assertThat(refused.code()).as(g.verb()).isEqualTo(2);
            assertThat(refused.err()).contains("exists and is not an earlier nccl-doctor output").contains("--force");
            assertThat(Files.readString(f)).as("untouched").isEqualTo("mine\n");
            CliTest.Run forced = write(g, f, "--force");
            assertThat(forced.code()).as("%s --force: %s", g.verb(), forced.err()).isIn(g.codes());
            assertThat(Marker.in(f)).isTrue();
            CliTest.Run noFolder = write(g, dir.resolve("missing/" + g.kind()));
            assertThat(noFolder.code()).isEqualTo(2);
            assertThat(noFolder.err()).contains("does not exist; create it first");
            assertThat(dir.resolve("missing")).doesNotExist();
            try (Stream<Path> left = Files.list(dir)) {
                assertThat(left).as("nothing beside the file").containsExactly(f);
            }
        }));
    }

    private static CliTest.Run write(Good g, Path f, String... more) {
        List<String> args = new ArrayList<>(g.args());
        args.addAll(List.of("-o", f.toString()));
        args.addAll(List.of(more));
        return CliTest.run(args.toArray(String[]::new));
    }
}
