package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.InputException;
import io.nccldoctor.collectives.parse.NcclTestsOutput.Row;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Real pastes (corpus/nccl-tests/README.md names each source) that hold several runs, a command of another run, diff
 * quoting, a row cut after its out-of-place half, mscclpp-test's in-place-first table, or facts the table reader once
 * left unread: each run is read as its own table, never merged into one sweep.
 */
class NcclTestsSeveralRunsTest {

    private static final Path CORPUS = Path.of("../corpus/nccl-tests");

    private static NcclTestsOutput read(String name) throws IOException {
        return NcclTestsOutput.parse(Files.readAllLines(CORPUS.resolve(name), StandardCharsets.UTF_8), name);
    }

    private static List<Long> sizes(NcclTestsOutput out) {
        return out.rows().stream().map(Row::sizeBytes).toList();
    }

    /** hisohara/ai-scripts: an egrep of four runs, each under "====== N-node ======", three sizes each. */
    @Test
    void sectionsOfFourRunsAreFourSweeps() throws IOException {
        NcclTestsOutput out = read("rccl-tests-mi300x-egrep-four-runs-sections.txt");
        assertThat(sizes(out)).containsExactly(4294967296L, 8589934592L, 17179869184L);
        assertThat(out.peakBusBw().get().outOfPlace().busBwGBps()).isEqualTo(319.08);
        assertThat(out.furtherRuns()).hasSize(3);
        assertThat(out.furtherRuns().stream().map(r -> r.peakBusBw().get().outOfPlace().busBwGBps()).toList())
                .containsExactly(350.24, 350.59, 350.84);
        assertThat(out.furtherRuns()).allSatisfy(r -> assertThat(sizes(r)).containsExactly(4294967296L, 8589934592L, 17179869184L));
        assertThat(out.furtherRuns().get(0).warnings()).anyMatch(w -> w.equals("a further run, from line 7: the section line '====== 2-node ======' above its first row"));
        assertThat(out.warnings()).anyMatch(w -> w.startsWith("3 further runs in this text, starting at lines 7, 11, 15"));
        assertThat(out.notUnderstood()).hasSize(2).allMatch(l -> l.contains(": $ ")); // the two shell commands, not nccl-tests'
    }

    /** A sweep whose sizes start again is another sweep (nccl-tests -N), with the run's header carried over. */
    @Test
    void sizesStartingAgainAreAnotherCycle() {
        List<String> text = List.of("# Collective test starting: all_reduce_perf",
                "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong",
                "           8             2     float     sum      -1    10.00    0.00    0.00      0    10.00    0.00    0.00      0",
                "          16             4     float     sum      -1    10.00    0.00    0.00      0    10.00    0.00    0.00      0",
                "           8             2     float     sum      -1    12.00    0.00    0.00      0    12.00    0.00    0.00      0");
        NcclTestsOutput out = NcclTestsOutput.parse(text, "synthetic");
        assertThat(sizes(out)).containsExactly(8L, 16L);
        NcclTestsOutput cycle = out.furtherRuns().get(0);
        assertThat(sizes(cycle)).containsExactly(8L);
        assertThat(cycle.rows().get(0).outOfPlace().timeUs()).isEqualTo(12.0);
        assertThat(cycle.test().get()).isEqualTo("all_reduce_perf");
        assertThat(cycle.warnings()).anyMatch(w -> w.contains("the sizes start again (8 bytes after 16)"));
    }

    /** NVIDIA/nccl#340: a table and its footer, then the next run's command and parameters line. */
    @Test
    void aCommandAfterTheFooterIsTheNextRuns() throws IOException {
        NcclTestsOutput out = read("nccl-tests-old-layout-table-then-next-run-command.txt");
        assertThat(out.rows()).hasSize(12);
        assertThat(out.command().isValue()).as("the table's own command is not in the paste").isFalse();
        assertThat(out.parameters()).isEmpty();
        assertThat(out.avgBusBwGBps().get()).isEqualTo(6.6972);
        NcclTestsOutput next = out.furtherRuns().get(0);
        assertThat(next.command().get().text()).isEqualTo("./broadcast_perf -b 8 -e 128M -f 2 -g 2");
        assertThat(next.test().get()).isEqualTo("broadcast_perf");
        assertThat(next.rows()).isEmpty();
        assertThat(next.parameters().get(0).maxBytes().get()).isEqualTo(134217728L);
    }

    /** hisohara/ai-scripts: two mpirun commands, then the second one's 16-rank table. */
    @Test
    void theLastCommandBeforeTheHeaderIsTheRuns() throws IOException {
        NcclTestsOutput out = read("rccl-tests-mi300x-16rank-two-commands-snip.txt");
        assertThat(out.command().get().flags()).containsEntry("maxbytes", "16G");
        assertThat(out.command().get().text()).contains("-np 16");
        assertThat(out.parameters().get(0).maxBytes().get()).isEqualTo(17179869184L);
        assertThat(out.warnings()).anyMatch(w -> w.startsWith("several command lines before the output") && w.contains("-e 8G"));
        assertThat(out.rows()).hasSize(32);
        assertThat(out.furtherRuns()).isEmpty();
        assertThat(out.warnings()).noneMatch(w -> w.startsWith("the command's -e"));
    }

    /** A command whose -e is not the parameters line's maxBytes is said to be another run's (synthetic lines). */
    @Test
    void aCommandOfAnotherSizeIsSaid() {
        List<String> text = List.of("$ mpirun -np 8 ./all_reduce_perf -b 8 -e 8G -f 2 -g 1",
                "# nThread 1 nGpus 1 minBytes 8 maxBytes 17179869184 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0");
        NcclTestsOutput out = NcclTestsOutput.parse(text, "synthetic");
        assertThat(out.warnings()).contains("the command's -e 8G (8589934592 bytes) is not the parameters line's maxBytes 17179869184: "
                + "the command is another run's, and its flags and environment may not be this table's");
        assertThat(NcclTestsCommand.size("1250M").get()).as("nccl-tests#107's -b 1250M, printed as minBytes 1310720000").isEqualTo(1310720000L);
    }

    /** GoogleCloudPlatform/ai-infra-cluster-provisioning PR #376: a README's table quoted in a review as added diff lines. */
    @Test
    void diffQuotedRowsAreRead() throws IOException {
        NcclTestsOutput out = read("nccl-tests-h100-a3mega-diff-quoted-rows.txt");
        assertThat(out.notUnderstood()).isEmpty();
        assertThat(out.rows()).hasSize(11);
        assertThat(out.peakBusBw().get().outOfPlace().busBwGBps()).isEqualTo(89.25);
        assertThat(out.peakBusBw().get().sizeBytes()).isEqualTo(4294967296L);
        assertThat(out.rows().get(8).inPlace().get().busBwGBps()).isEqualTo(51.92);
        assertThat(out.rows().get(10).inPlace().isValue()).as("the last row is cut after its out-of-place half").isFalse();
        assertThat(out.warnings()).anyMatch(w -> w.startsWith("the text is quoted from a diff"));
        assertThat(out.notUnderstood()).isEmpty();
    }

    /** A diff's removed lines are the old text: listed as not read, not merged into the table. */
    @Test
    void removedDiffLinesAreNotRead() {
        List<String> text = List.of(
                "-           8             2     float     sum      -1    99.00    0.00    0.00      0    99.00    0.00    0.00      0",
                "+           8             2     float     sum      -1    10.00    0.00    0.00      0    10.00    0.00    0.00      0");
        NcclTestsOutput out = NcclTestsOutput.parse(text, "synthetic");
        assertThat(out.rows()).singleElement().satisfies(r -> assertThat(r.outOfPlace().timeUs()).isEqualTo(10.0));
        assertThat(out.notUnderstood()).singleElement().asString().contains("a line the diff removes");
    }

    /** A Markdown quote ("> " before every line) is taken off the whole paste, as a reply quotes an output (synthetic lines). */
    @Test
    void aQuotedPasteIsRead() {
        List<String> text = List.of("> #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong",
                ">            8             2     float     sum      -1    10.00    0.00    0.00      0    10.00    0.00    0.00      0",
                ">");
        NcclTestsOutput out = NcclTestsOutput.parse(text, "synthetic");
        assertThat(out.rows()).singleElement().satisfies(r -> assertThat(r.inPlace().get().timeUs()).isEqualTo(10.0));
        assertThat(out.notUnderstood()).isEmpty();
    }

    /** NVIDIA/nccl#948: the only row ends after its out-of-place cells. */
    @Test
    void aRowCutAfterItsOutOfPlaceHalfIsReadHalf() throws IOException {
        NcclTestsOutput out = read("nccl-tests-a100-8rank-row-cut-after-out-of-place.txt");
        Row r = out.rows().get(0);
        assertThat(r.sizeBytes()).isEqualTo(8);
        assertThat(r.outOfPlace().timeUs()).isEqualTo(32.47);
        assertThat(r.outOfPlace().wrong().get()).isZero();
        assertThat(r.inPlace().reason()).contains("its in-place cells are not in the text");
        assertThat(out.notUnderstood()).isEmpty();
        assertThat(out.ranks().get()).isEqualTo(8);
    }

    /** microsoft/mscclpp PR #87: in-place columns first; the one row measured out of place, its cells under those columns. */
    @Test
    void mscclppsOutOfPlaceRowIsReadByItsPlace() throws IOException {
        NcclTestsOutput out = read("mscclpp-test-alltoall-1n8p-inplace-first-oop-row.txt");
        Row r = out.rows().get(0);
        assertThat(r.sizeBytes()).isEqualTo(1073741824L);
        assertThat(r.outOfPlace().timeUs()).isEqualTo(7186.2);
        assertThat(r.outOfPlace().busBwGBps()).isEqualTo(130.74);
        assertThat(r.inPlace().reason()).contains("out of place only");
        assertThat(out.notUnderstood()).isEmpty();
    }

    /** microsoft/mscclpp PR #117: every row measured in place only, which a row of this model cannot hold: refused, with why. */
    @Test
    void mscclppsInPlaceOnlyRowsAreRefusedWithTheReason() throws IOException {
        NcclTestsOutput out = read("mscclpp-test-reducescatter-1n8p-inplace-only-rows.txt");
        assertThat(out.rows()).isEmpty();
        assertThat(out.notUnderstood()).filteredOn(l -> l.contains("measured this size in place only")).hasSize(3);
    }

    /** rccl-tests -N 2: "# Testing 1 cycle." is rccl-tests' own line (ROCm/rccl-tests TimeTest). */
    @Test
    void testingOneCycleIsKnown() throws IOException {
        NcclTestsOutput out = read("rccl-tests-mi355x-16rank-testing-1-cycle.txt");
        assertThat(out.notUnderstood()).isEmpty();
        assertThat(out.rows()).hasSize(31);
        assertThat(out.furtherRuns()).isEmpty();
    }

    /** NVIDIA/nccl-tests#248: NCCL's own banner in the INFO lines gives the library's version. */
    @Test
    void theLibraryVersionComesFromNcclsInfoBanner() throws IOException {
        assertThat(read("nccl-tests-gh200-2pod-sendrecv-nccl-info-version.txt").ncclLibrary().get()).isEqualTo("2.22.3");
    }

    /** NVIDIA/nccl-tests#287: one rank prints no "Collective test" line; the command's binary names the test. */
    @Test
    void theCommandsBinaryNamesTheTest() throws IOException {
        assertThat(read("nccl-tests-rtx5090-alltoall-1rank-binary-names-test.txt").test().get()).isEqualTo("alltoall_perf");
    }

    @Test
    void aTextWithoutOutputIsStillRefused() {
        assertThatThrownBy(() -> NcclTestsOutput.parse(List.of("====== 1-node ======"), "x")).isInstanceOf(InputException.class);
    }
}
