package io.nccldoctor.reports.pairwise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.nccldoctor.core.InputException;
import io.nccldoctor.core.exec.CommandResult;
import io.nccldoctor.core.exec.CommandRunner;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.RulesConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pairwise and bisection runs over real nccl-tests outputs: fixtures/pairwise/planted-slow (README there), and a
 * stand-in launcher that answers each job with the fast or the slow of those outputs by whether the job holds the
 * planted node.
 */
class PairwiseTest {

    static final Path PLANTED = Path.of("src/test/resources/fixtures/pairwise/planted-slow");
    static final Path FAST = PLANTED.resolve("nid005471_nid005487.txt");
    static final Path SLOW = PLANTED.resolve("nid005471-nid005502.log");

    static PairwiseOptions options(List<String> nodes, Path results, boolean bisect) {
        return new PairwiseOptions(nodes, results, Launcher.SLURM, 4, PairwiseOptions.DEFAULT_COMMAND, List.of(), Duration.ofMinutes(1),
                PairwiseOptions.DEFAULT_SLOW_BELOW, bisect, false);
    }

    /** Answers srun with the slow output when -w names the slow node, the fast one otherwise; counts the launches. */
    static final class StandIn implements CommandRunner {
        final String slow;
        final List<List<String>> launched = new ArrayList<>();

        StandIn(String slow) {
            this.slow = slow;
        }

        @Override
        public CommandResult run(List<String> argv, Duration timeout) {
            launched.add(argv);
            List<String> nodes = Arrays.asList(argv.get(argv.indexOf("-w") + 1).split(","));
            try {
                return new CommandResult.Exited(argv, 0, Files.readString(nodes.contains(slow) ? SLOW : FAST), "", 1);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Test
    void thePlantedSlowNodeIsNamedFromAFolderOfRealOutputs() {
        PairwiseReport r = Pairwise.read(options(List.of(), PLANTED, false), RulesConfig.defaults(), "now");
        assertThat(r.verdict().kind()).isEqualTo("SLOW_NODE");
        assertThat(r.verdict().slowNodes()).containsExactly("nid005502");
        assertThat(r.verdict().evidence()).containsExactly(
                "6 measured pairs of all_reduce_perf; the fastest at 122.57 GB/s busbw; slow below 98.06 GB/s (0.80 × the fastest)",
                "nid005502: all 3 of its pairs slow (nid005471–nid005502 6.02, nid005487–nid005502 6.02, nid005502–nid005518 6.02); "
                        + "the 3 pairs without it at 122.57 GB/s");
        assertThat(r.findings()).extracting(Finding::code, Finding::subject).containsExactly(
                tuple("PAIRWISE_SLOW_NODE", "nid005502"));
        assertThat(r.exitCode()).as("a warning, unless configs/rules.yaml raises it").isZero();
        assertThat(r.notes()).containsExactly("1 file not read as a pair: README.md (not a text output (.txt, .log, .out or no extension))",
                "5 of 6 files ran on hosts their name does not name (first: nid005471-nid005502.log ran on nid005471, nid005487): "
                        + "the name is trusted");
        assertThat(r.pairs()).filteredOn(PairwiseReport.Pair::slow).extracting(PairwiseReport.Pair::file)
                .containsExactly("nid005471-nid005502.log", "nid005487+nid005502.out", "nid005502__nid005518.txt");
    }

    @Test
    void twoSlowNodesAreEachShownByAPairWithAFastNode(@TempDir Path dir) throws IOException {
        copy(dir, "a_b", SLOW, "a_c", SLOW, "a_d", SLOW, "b_c", SLOW, "b_d", SLOW, "c_d", FAST);
        PairwiseReport r = Pairwise.read(options(List.of(), dir, false), RulesConfig.defaults(), "now");
        assertThat(r.verdict().kind()).isEqualTo("SLOW_NODES");
        assertThat(r.verdict().slowNodes()).containsExactly("a", "b");
    }

    @Test
    void threeNodesWithOneSlowOutvoteAMedian(@TempDir Path dir) throws IOException {
        copy(dir, "x_y", SLOW, "x_z", SLOW, "y_z", FAST);
        assertThat(Pairwise.read(options(List.of(), dir, false), RulesConfig.defaults(), "now").verdict().slowNodes()).containsExactly("x");
    }

    @Test
    void twoNodesOrEveryPairSlowCannotBeToldApart(@TempDir Path dir) throws IOException {
        copy(dir, "p_q", SLOW);
        PairwiseReport one = Pairwise.read(options(List.of(), dir, false), RulesConfig.defaults(), "now");
        assertThat(one.verdict().kind()).isEqualTo("INCONCLUSIVE");
        assertThat(one.findings()).extracting(Finding::code).containsExactly("PAIRWISE_INCONCLUSIVE");
        copy(dir, "p_r", SLOW, "q_r", FAST, "r_s", SLOW, "q_s", SLOW);
        PairwiseReport path = Pairwise.read(options(List.of(), dir, false), RulesConfig.defaults(), "now");
        assertThat(path.verdict().kind()).as("p and s are slow with fast q and r; p-q slow too").isEqualTo("SLOW_NODES");
    }

    @Test
    void aSlowPairOfTwoFastNodesIsThePath(@TempDir Path dir) throws IOException {
        copy(dir, "a_b", FAST, "a_c", FAST, "b_c", SLOW, "a_d", FAST, "b_d", FAST, "c_d", FAST);
        PairwiseReport r = Pairwise.read(options(List.of(), dir, false), RulesConfig.defaults(), "now");
        assertThat(r.verdict().kind()).isEqualTo("SLOW_PATHS");
        assertThat(r.findings()).extracting(Finding::code, Finding::subject)
                .containsExactly(tuple("PAIRWISE_SLOW_PATH", "b–c"));
    }

    @Test
    void aPairwiseRunWritesOneFilePerPairAndResumesWithoutRerunning(@TempDir Path dir) {
        List<String> nodes = List.of("n1", "n2", "n3", "n4");
        StandIn first = new StandIn("n3");
        PairwiseReport r = Pairwise.run(options(nodes, dir, false), first, RulesConfig.defaults(), line -> { }, "now");
        assertThat(first.launched).hasSize(6);
        assertThat(first.launched.get(0)).containsExactly("srun", "-w", "n1,n2", "-N2", "--ntasks-per-node=4", "all_reduce_perf",
                "-b", "1G", "-e", "8G", "-f", "2", "-g", "1");
        assertThat(r.verdict().slowNodes()).containsExactly("n3");
        assertThat(dir.resolve("n1_n3.txt")).exists();
        assertThat(dir.resolve("n1_n3.txt.partial")).doesNotExist();
        StandIn second = new StandIn("n3");
        PairwiseReport again = Pairwise.run(options(nodes, dir, false), second, RulesConfig.defaults(), line -> { }, "now");
        assertThat(second.launched).as("every pair is complete").isEmpty();
        assertThat(again.jobs()).extracting(PairwiseReport.JobLine::status).containsOnly("complete");
        assertThat(again.verdict().slowNodes()).containsExactly("n3");
    }

    @Test
    void anIncompleteResultIsRunAgainAndOthersFilesCount(@TempDir Path dir) throws IOException {
        List<String> lines = Files.readAllLines(FAST);
        Files.write(dir.resolve("n1_n2.txt"), lines.subList(0, lines.size() - 4)); // cut before the footer
        Files.copy(FAST, dir.resolve("n1-n3.log"));
        StandIn runner = new StandIn("none");
        Pairwise.run(options(List.of("n1", "n2", "n3"), dir, false), runner, RulesConfig.defaults(), line -> { }, "now");
        assertThat(runner.launched).extracting(a -> a.get(2)).as("n1_n2 was cut, n1-n3.log is someone else's complete run")
                .containsExactly("n1,n2", "n2,n3");
    }

    @Test
    void bisectionFindsTheNodeInAboutTwoLogNRuns(@TempDir Path dir) {
        List<String> nodes = List.of("g1", "g2", "g3", "g4", "g5", "g6", "g7", "g8");
        StandIn runner = new StandIn("g6");
        PairwiseReport r = Pairwise.run(options(nodes, dir, true), runner, RulesConfig.defaults(), line -> { }, "now");
        assertThat(runner.launched).extracting(a -> a.get(2))
                .containsExactly("g1,g2,g3,g4", "g5,g6,g7,g8", "g5,g6", "g7,g8", "g7,g5", "g7,g6");
        assertThat(r.verdict().slowNodes()).containsExactly("g6");
        assertThat(r.rounds()).hasSize(2);
        assertThat(dir.resolve("group_g1_to_g4_4.txt")).exists();
        assertThat(dir.resolve("g5_g6.txt")).as("a half of two nodes is a pair").exists();
    }

    @Test
    void bisectionStopsAndSaysSoWhenNeitherHalfIsSlower(@TempDir Path dir) {
        StandIn runner = new StandIn("none");
        PairwiseReport r = Pairwise.run(options(List.of("a", "b", "c", "d", "e"), dir, true), runner, RulesConfig.defaults(),
                line -> { }, "now");
        assertThat(runner.launched).extracting(a -> a.get(2)).containsExactly("a,b", "c,d,e");
        assertThat(r.notes()).containsExactly("neither half is slower (122.57 and 122.57 GB/s): no single slow node among these 5, or "
                + "one in each half; run --pairwise on a,b,c,d,e");
        assertThat(Pairwise.plan(options(List.of("a", "b", "c", "d", "e", "f"), dir, true)).lines().skip(1)).containsExactly(
                "srun -w a,b,c -N3 --ntasks-per-node=4 all_reduce_perf -b 1G -e 8G -f 2 -g 1 > group_a_to_c_3.txt",
                "srun -w d,e,f -N3 --ntasks-per-node=4 all_reduce_perf -b 1G -e 8G -f 2 -g 1 > group_d_to_f_3.txt");
    }

    @Test
    void theDryRunPlanIsOneSrunLinePerPairAndMarksCompleteOnes(@TempDir Path dir) throws IOException {
        Files.copy(FAST, dir.resolve("a_b.txt"));
        String plan = Pairwise.plan(options(List.of("a", "b", "c"), dir, false));
        assertThat(plan.lines()).containsExactly(
                "# pairwise over 3 nodes: 3 jobs, one at a time; results in " + dir,
                "# a_b: complete in a_b.txt, not run again",
                "srun -w a,c -N2 --ntasks-per-node=4 all_reduce_perf -b 1G -e 8G -f 2 -g 1 > a_c.txt",
                "srun -w b,c -N2 --ntasks-per-node=4 all_reduce_perf -b 1G -e 8G -f 2 -g 1 > b_c.txt");
    }

    @Test
    void anMpiLaunchGetsAHostfile(@TempDir Path dir) {
        PairwiseOptions o = new PairwiseOptions(List.of("a", "b"), dir, Launcher.MPI, 8, List.of("all_reduce_perf"), List.of("-x", "NCCL_DEBUG"),
                Duration.ofMinutes(1), 0.8, false, false);
        Job j = Plans.pairs(o).get(0);
        assertThat(j.argv()).containsExactly("mpirun", "--hostfile", dir.resolve("hostfiles/a_b").toString(), "-np", "16", "--map-by",
                "ppr:8:node", "-x", "NCCL_DEBUG", "all_reduce_perf");
        assertThat(j.hostfile()).hasValue("a slots=8\nb slots=8\n");
    }

    @Test
    void fileNamesSplitByTheNodeListOrByLookingAlike() {
        assertThat(PairFiles.parse("gpu-01-gpu-02.log", Set.of()).pair()).hasValue(List.of("gpu-01", "gpu-02"));
        assertThat(PairFiles.parse("a-b-c.txt", Set.of()).pair()).as("a/b-c or a-b/c").isEmpty();
        assertThat(PairFiles.parse("a-b-c.txt", Set.of("a-b", "c")).pair()).hasValue(List.of("a-b", "c"));
        assertThat(PairFiles.parse("node1.cluster_node2.cluster", Set.of()).pair()).hasValue(List.of("node1.cluster", "node2.cluster"));
        assertThat(PairFiles.parse("summary.json", Set.of()).why()).startsWith("not a text output");
    }

    @Test
    void hostlistsExpandAsSlurmDoes() {
        assertThat(Hostlist.expand(List.of("gpu[01-03,07]", "cpu1"))).containsExactly("gpu01", "gpu02", "gpu03", "gpu07", "cpu1");
        assertThat(Hostlist.expand(List.of("r[1-2]n[8-9]"))).containsExactly("r1n8", "r1n9", "r2n8", "r2n9");
        assertThatThrownBy(() -> Hostlist.expand(List.of("gpu[1-2],gpu2"))).isInstanceOf(InputException.class)
                .hasMessageContaining("gpu2 is given twice");
        assertThatThrownBy(() -> Hostlist.expand(List.of("gpu[3-1]"))).isInstanceOf(InputException.class).hasMessageContaining("backwards");
    }

    private static void copy(Path dir, Object... namesAndFiles) throws IOException {
        for (int i = 0; i < namesAndFiles.length; i += 2) {
            Files.copy((Path) namesAndFiles[i + 1], dir.resolve(namesAndFiles[i] + ".txt"));
        }
    }
}
