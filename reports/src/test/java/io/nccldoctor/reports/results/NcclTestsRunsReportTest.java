package io.nccldoctor.reports.results;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RulesConfig;
import io.nccldoctor.reports.Severity;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * nccl-tests texts of several runs reach the report as several sweeps, and a run whose processes each ran alone is a
 * finding, judged on real pastes (corpus/nccl-tests/README.md names each source).
 */
class NcclTestsRunsReportTest {

    private static final Path CORPUS = Path.of("../corpus/nccl-tests");

    private static ResultSet read(String name) {
        return new ResultInputs(p -> {
            throw new AssertionError("no capture here");
        }).read(List.of(CORPUS.resolve(name).toString()), "2026-12-02T00:00:00Z");
    }

    private static Report judge(ResultSet set) {
        return Reports.judge(set, List.of(), new RuleContext(RulesConfig.defaults(), NodeShape.none()));
    }

    /** hisohara/ai-scripts: four runs under "====== N-node ======" are four sweeps, the 1-node run's 319.08 GB/s its own. */
    @Test
    void fourRunsAreFourSweeps() {
        ResultSet set = read("rccl-tests-mi300x-egrep-four-runs-sections.txt");
        assertThat(set.sweeps()).hasSize(4);
        assertThat(set.sweeps().stream().map(s -> s.largest().get().outOfPlace().busBwGBps()).toList())
                .containsExactly(319.08, 350.24, 350.59, 350.84);
        assertThat(set.sweeps()).allSatisfy(s -> assertThat(s.rows()).hasSize(3));
        assertThat(set.sweeps().get(1).label()).endsWith(" run 2");
    }

    /** NVIDIA/nccl-tests#107: nccl-tests without MPI under mpirun -np 2, "Rank 0" on both hosts: an error, was PASS. */
    @Test
    void aRankListedTwiceIsProcessesRunningAlone() {
        Report r = judge(read("nccl-tests-v100-built-without-mpi-rank0-twice.txt"));
        List<Finding> f = r.findings().stream().filter(x -> x.code().equals("TESTS_RANKS_ALONE")).toList();
        assertThat(f).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.ERROR);
            assertThat(x.title()).contains("name a rank more than once");
            assertThat(x.evidence()).singleElement().asString()
                    .startsWith("Rank 0 is listed 2 times, on ip-172-31-20-228, ip-172-31-22-230");
        });
    }

    /** A run whose ranks are each listed once raises nothing (NVIDIA/nccl#948: ranks 0 to 7 on two hosts). */
    @Test
    void ranksListedOnceRaiseNothing() {
        Report r = judge(read("nccl-tests-a100-8rank-row-cut-after-out-of-place.txt"));
        assertThat(r.findings()).noneMatch(x -> x.code().equals("TESTS_RANKS_ALONE"));
    }

    /**
     * A shared note's nccl-tests 2.19.7 on NCCL 2.18.3: an illegal memory access right after the column header, then six
     * relay lines; the report said PASS over a sweep with no rows, and now says the run stopped, with the error.
     */
    @Test
    void aRunThatStoppedOnAnErrorIsAnError() {
        ResultSet set = read("nccl-tests-2.19.7-h200-nccl-2.18.3-illegal-memory-access-chain.txt");
        assertThat(set.sweeps()).singleElement().satisfies(s -> assertThat(s.rows()).isEmpty());
        Report r = judge(set);
        assertThat(r.findings()).filteredOn(x -> x.code().equals("TESTS_ERROR")).singleElement().satisfies(x -> {
            assertThat(x.severity()).isEqualTo(Severity.ERROR);
            assertThat(x.title()).contains("printed an error: nccl-tests stopped on a CUDA error on nccltest08192: "
                    + "'an illegal memory access was encountered' (common.cu:502); then 6 'Test failure' relay lines");
            assertThat(x.evidence()).last().asString().isEqualTo("rows measured before it: 0 ("
                    + CORPUS.resolve("nccl-tests-2.19.7-h200-nccl-2.18.3-illegal-memory-access-chain.txt") + ")");
        });
    }

    /** Runs that printed no error raise nothing, whatever else is wrong with them (a rank listed twice). */
    @Test
    void runsWithoutAnErrorRaiseNoTestsError() {
        for (String name : List.of("nccl-tests-v100-built-without-mpi-rank0-twice.txt", "nccl-tests-a100-8rank-row-cut-after-out-of-place.txt",
                "rccl-tests-mi300x-egrep-four-runs-sections.txt")) {
            assertThat(judge(read(name)).findings()).as(name).noneMatch(x -> x.code().equals("TESTS_ERROR"));
        }
    }

    /** NVIDIA/nccl-tests#287: one rank names no collective; the command's alltoall_perf does. */
    @Test
    void theBinaryNamesTheCollective() {
        ResultSet set = read("nccl-tests-rtx5090-alltoall-1rank-binary-names-test.txt");
        assertThat(set.sweeps().get(0).collective().get()).isEqualTo("alltoall");
    }

    /** NVIDIA/nccl-tests#248: the version from NCCL's INFO banner reaches the sweep. */
    @Test
    void theInfoBannerGivesTheSweepsVersion() {
        assertThat(read("nccl-tests-gh200-2pod-sendrecv-nccl-info-version.txt").sweeps().get(0).ncclVersion().get()).isEqualTo("2.22.3");
    }
}
