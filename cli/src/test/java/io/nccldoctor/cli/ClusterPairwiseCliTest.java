package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.core.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `cluster --pairwise` and `--bisect` through the command line: plan, folder judging, usage errors. */
class ClusterPairwiseCliTest {

    static final String PLANTED = "../reports/src/test/resources/fixtures/pairwise/planted-slow";

    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Cli.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void theDryRunPrintsOneSrunLinePerPairOfAHostlist(@TempDir Path dir) {
        Run r = run("cluster", "--pairwise", "gpu[01-04]", "--gpus-per-node", "8", "--results", dir.toString(), "--dry-run",
                "--launcher-args", "-p gpu --mpi=pmix");
        assertThat(r.code()).isZero();
        assertThat(r.out().lines()).hasSize(7).element(1)
                .isEqualTo("srun -w gpu01,gpu02 -N2 --ntasks-per-node=8 -p gpu --mpi=pmix all_reduce_perf -b 1G -e 8G -f 2 -g 1 > gpu01_gpu02.txt");
    }

    @Test
    void aFolderOfPairsIsJudgedAsJson() throws Exception {
        Run r = run("cluster", "--pairwise", "--results", PLANTED, "--json");
        assertThat(r.code()).isZero();
        JsonNode doc = Json.mapper().readTree(r.out());
        assertThat(doc.path("verdict").path("kind").asText()).isEqualTo("SLOW_NODE");
        assertThat(doc.path("verdict").path("slowNodes").get(0).asText()).isEqualTo("nid005502");
        assertThat(doc.path("pairs").size()).isEqualTo(6);
        assertThat(doc.path("pairs").get(0).path("busBwGBps").asDouble()).isEqualTo(6.02);
    }

    @Test
    void rulesYamlCanMakeASlowNodeFailTheRun(@TempDir Path dir) throws Exception {
        Path rules = dir.resolve("rules.yaml");
        Files.writeString(rules, "severity:\n  PAIRWISE_SLOW_NODE: error\n");
        Run r = run("cluster", "--pairwise", "--results", PLANTED, "--rules", rules.toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).contains("ERROR PAIRWISE_SLOW_NODE  nid005502");
    }

    @Test
    void badInputIsOneLineAndExitTwo() {
        assertThat(run("cluster", "--pairwise", "--bisect", "a", "b").err()).contains("--pairwise and --bisect: give one");
        Run one = run("cluster", "--pairwise", "onlyone", "--dry-run");
        assertThat(one.code()).isEqualTo(2);
        assertThat(one.err().strip()).isEqualTo("nccl-doctor: --pairwise needs 2 nodes or more; got 1: onlyone");
        assertThat(run("cluster").err()).contains("give snapshots, capture folders or bandwidth files");
    }

    @Test
    void explainKnowsThePairwiseCodes() {
        Run r = run("explain", "PAIRWISE_SLOW_NODE");
        assertThat(r.code()).isZero();
        assertThat(r.out()).startsWith("PAIRWISE_SLOW_NODE (warn): A node makes every pair it is in slow");
    }
}
