package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.core.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `compare`, `report` and `rulezero` as a user runs them on real published outputs (corpus/, collectives'
 * fixtures/public): folders and several files per arm, --json, the published baseline as the reference.
 */
class JudgementCommandsTest {

    static final Path CORPUS = Path.of("../corpus/nccl-tests");
    static final Path FIXTURES = Path.of("../collectives/src/test/resources/fixtures/public");

    @TempDir
    Path tmp;

    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Cli.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    private Path folder(String name, Path... files) throws IOException {
        Path d = Files.createDirectories(tmp.resolve(name));
        for (Path f : files) {
            Files.copy(f, d.resolve(f.getFileName()));
        }
        return d;
    }

    @Test
    void compareTakesTwoFoldersOfNcclTestsOutputs() throws IOException {
        Path a = folder("one-node", FIXTURES.resolve("nccl-tests-h100-8gpu-allreduce-dgxc.txt"),
                CORPUS.resolve("nccl-tests-h100-p5-aws-batch-mpi-tag-wide-header.txt"),
                CORPUS.resolve("nccl-tests-h100-p5-1node-nvls-single-row-silent-cut.txt"));
        Path b = folder("two-nodes", CORPUS.resolve("nccl-tests-h100-p5-2node-efa-srun-label-nofooter.txt"),
                CORPUS.resolve("nccl-tests-h100-gcp-a3mega-2node-hash-eaten.txt"),
                CORPUS.resolve("nccl-tests-h100-p5-2node-nvls-single-row-silent-cut.txt"));
        Run r = run("compare", a.toString(), b.toString());
        assertThat(r.err()).isEmpty();
        assertThat(r.code()).as(r.out()).isZero();
        assertThat(r.out()).startsWith("nccl-doctor compare: B = two-nodes (NCCL unknown) against A = one-node (NCCL unknown)")
                .contains("  allreduce: no detectable change, median x0.55")
                .contains("note: A ran on 8 ranks, B on 16 ranks");
        Path md = tmp.resolve("ab.md");
        assertThat(run("compare", a.toString(), b.toString(), "-o", md.toString()).code()).isZero();
        assertThat(Files.readString(md, StandardCharsets.UTF_8)).contains("| 2 GiB | 3 | 3 | 468.60 | 438.85 | 0.94 | ")
                .contains("| 0.100 | NO_CHANGE |");
    }

    @Test
    void compareTakesSeveralFilesPerArmAndPrintsJson() throws IOException {
        Run r = run("compare", "--a", FIXTURES.resolve("nccl-tests-h100-8gpu-allreduce-dgxc.txt").toString(),
                CORPUS.resolve("nccl-tests-h100-p5-aws-batch-mpi-tag-wide-header.txt").toString(),
                "--b", CORPUS.resolve("nccl-tests-h100-p5-2node-efa-srun-label-nofooter.txt").toString(), "--json");
        assertThat(r.err()).isEmpty();
        JsonNode doc = Json.mapper().readTree(r.out());
        assertThat(doc.get("kind").asText()).isEqualTo("compare");
        assertThat(doc.get("schemaVersion").asInt()).isEqualTo(1);
        assertThat(doc.at("/a/sweeps").asInt()).isEqualTo(2);
        assertThat(doc.at("/a/name").asText()).isEqualTo("nccl-tests-h100-8gpu-allreduce-dgxc.txt + 1 more");
        assertThat(run("compare", "one.txt", "--a", "x").err()).contains("either as A B or as --a FILES --b FILES");
    }

    @Test
    void compareOnUnequalGridsSaysWhichSizesWereInterpolated() {
        Run r = run("compare", CORPUS.resolve("nccl-tests-a100-broadcast-old-root-col.txt").toString(),
                CORPUS.resolve("nccl-tests-rtx5090-broadcast-socket-step4-version-header.txt").toString());
        assertThat(r.out()).contains("8 sizes interpolated").contains("B's runs did not measure 8 sizes the other runs did")
                .contains("broadcast 2 KiB, broadcast 8 KiB");
    }

    @Test
    void reportHoldsAHealthyDgxRunAgainstItsBaselineAndSaysSo() {
        Run r = run("report", FIXTURES.resolve("nccl-tests-h100-8gpu-allreduce-dgxc.txt").toString());
        assertThat(r.code()).isZero();
        assertThat(Unwrapped.of(r.out())).contains("PASS: 0 error, 0 warning, 1 info finding over 1 sweep and 0 nodes; judged against published "
                + "baselines (configs/baselines.yaml): 1 of 1 sweep")
                .contains("INFO AT_BASELINE");
    }

    @Test
    void reportRefusesABaselinesFileWithoutSources() throws IOException {
        Path bad = tmp.resolve("baselines.yaml");
        Files.writeString(bad, """
                version: 1
                baselines:
                  - id: unsourced
                    match: {gpuModel: "H100"}
                    collectives: [allreduce]
                    minBytes: 1073741824
                    expectedGBps: 480
                    low: 460
                    kind: statement
                    spreadSource: "none"
                """);
        Run r = run("report", FIXTURES.resolve("nccl-tests-h100-8gpu-allreduce-dgxc.txt").toString(), "--baselines", bad.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().strip()).startsWith("nccl-doctor: " + bad + ": baseline unsourced: no source").doesNotContain("\n");
    }

    @Test
    void rulezeroWithoutNcclTestsUsesTheBaselineAndSaysSo() throws IOException {
        Path suspect = tmp.resolve("harness.csv");
        Files.writeString(suspect, "collective,dtype,count,ranks,busbw\nallreduce,float,1073741824,8,190.0\n");
        Run r = run("rulezero", suspect.toString(), "--gpu", "NVIDIA H100 80GB HBM3", "--nodes", "1");
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(1);
        assertThat(Unwrapped.of(r.out())).startsWith("nccl-doctor rulezero: BELOW_BASELINE: no nccl-tests run given, so the reference is a published "
                + "baseline (configs/baselines.yaml)");
        Run none = run("rulezero", suspect.toString());
        assertThat(none.code()).isZero();
        assertThat(none.out()).contains("NO_REFERENCE");
    }
}
