package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Real nccl-tests and rccl-tests pastes (corpus/nccl-tests/README.md names each source) in shapes the table reader
 * must read as the plain output or refuse with the reason: RCCL's version block without rccl-tests' header, a table a
 * page rendered as Markdown, a last row cut inside its last cell, the old in-place error sendrecv never counted, and
 * a wrapper's "Running …/nccl-tests-2.13.6/bin/all_gather_perf" line.
 */
class NcclTestsPastedShapesTest {

    private static final Path CORPUS = Path.of("../corpus/nccl-tests");

    private static List<String> lines(String name) throws IOException {
        return Files.readAllLines(CORPUS.resolve(name), StandardCharsets.UTF_8);
    }

    private static NcclTestsOutput read(String name) throws IOException {
        return NcclTestsOutput.parse(lines(name), name);
    }

    @Test
    void rcclsVersionBlockMakesTheProgramRcclTests() throws IOException {
        NcclTestsOutput out = read("rccl-tests-mi300x-rccl-version-block-no-tests-header.txt");
        assertThat(out.tool()).as("'RCCL version : 2.28.3-…' is printed by RCCL only").isEqualTo("rccl-tests");
        assertThat(out.ncclLibrary().get()).isEqualTo("2.28.3");
        assertThat(out.testsVersion().isValue()).isFalse();
        assertThat(out.rows()).hasSize(5);
        assertThat(out.peakBusBw().get().outOfPlace().busBwGBps()).isEqualTo(0.54);
        assertThat(out.notUnderstood()).singleElement().asString().contains(":15: ").contains("cells where the columns take 13");
    }

    @Test
    void theOlderOneLineRcclBannerToo() {
        NcclTestsOutput out = NcclTestsOutput.parse(List.of("RCCL version 2.16.5+hip5.6 HEAD:b5b0e7a", "#       size         count      type"
                + "   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong",
                "        1024           256     float     sum      -1    53.88    0.02    0.04      0    54.23    0.02    0.04      0"), "synthetic");
        assertThat(out.tool()).isEqualTo("rccl-tests");
        assertThat(out.ncclLibrary().get()).isEqualTo("2.16.5");
    }

    @Test
    void aMarkdownRenderedTableIsReadByTheSameColumns() throws IOException {
        NcclTestsOutput out = read("rccl-tests-mi300x-mscclpp-markdown-rendered-table.txt");
        assertThat(out.columns()).containsExactly("size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong", "time", "algbw",
                "busbw", "#wrong");
        assertThat(out.rows()).hasSize(9);
        NcclTestsOutput.Row first = out.rows().get(0);
        assertThat(first.sizeBytes()).isEqualTo(1024);
        assertThat(first.count()).isEqualTo(512);
        assertThat(first.type()).isEqualTo("half");
        assertThat(first.redop().get()).isEqualTo("sum");
        assertThat(first.root().get()).isEqualTo(-1);
        assertThat(first.outOfPlace().timeUs()).isEqualTo(5.39);
        assertThat(first.inPlace().get().timeUs()).isEqualTo(5.45);
        NcclTestsOutput.Row last = out.rows().get(8);
        assertThat(last.sizeBytes()).isEqualTo(262144);
        assertThat(last.outOfPlace().busBwGBps()).isEqualTo(39.27);
        assertThat(last.inPlace().get().busBwGBps()).isEqualTo(37.93);
        assertThat(out.totalWrong().get()).isZero();
        assertThat(out.notUnderstood()).as("only the row cut after its time").singleElement().asString()
                .contains("524288 262144 half sum -1 13.7").contains("6 cells where the columns take 13");
        assertThat(out.warnings()).anySatisfy(w -> assertThat(w).contains("rendered as Markdown"));
    }

    /** SYNTHETIC: the real table's first row with two cells merged into one Markdown cell, which no split can undo. */
    @Test
    void aMarkdownCellHoldingTwoValuesIsRefusedNotShifted() throws IOException {
        List<String> text = new ArrayList<>(lines("rccl-tests-mi300x-mscclpp-markdown-rendered-table.txt").subList(0, 3));
        text.add("1024 | 512 half | sum | -1 | 5.39 | 0.19 | 0.33 | 0 | 5.45 | 0.19 | 0.33 | 0");
        NcclTestsOutput out = NcclTestsOutput.parse(text, "merged");
        assertThat(out.rows()).isEmpty();
        assertThat(out.notUnderstood()).singleElement().asString().contains("the Markdown cell '512 half' holds several values");
    }

    @Test
    void aRowCutInsideItsLastCellIsACutRow() throws IOException {
        NcclTestsOutput out = read("nccl-tests-v100-4gpu-old-error-last-cell-cut.txt");
        assertThat(out.rows()).extracting(NcclTestsOutput.Row::sizeBytes).containsExactly(8L, 16L, 32L, 64L);
        assertThat(out.errorColumn()).isTrue();
        assertThat(out.notUnderstood()).singleElement().asString().contains("128").contains("the error cell '3e' is a number cut short")
                .contains("the row is cut");
        assertThat(out.devices()).as("after the line that opens with a backtick").hasSize(4);
        assertThat(out.ranks().get()).isEqualTo(4);
    }

    @Test
    void anOldInPlaceErrorOfATableThatNamesNoTestSaysWhoCountsIt() throws IOException {
        NcclTestsOutput out = read("nccl-tests-old-layout-no-redop-inplace-error-3e02.txt");
        assertThat(out.rows()).singleElement().satisfies(r -> assertThat(r.inPlace().get().maxError().get()).isEqualTo(300.0));
        assertThat(out.warnings()).anySatisfy(w -> assertThat(w).contains("3e+02 at 37748744 bytes")
                .contains("the text does not name the test").contains("sendrecv does not count its in-place error")
                .contains("which this text does not show"));
        assertThat(out.failures()).isEmpty();
    }

    /** SYNTHETIC: the same real block after a command line naming sendrecv_perf, as the author ran it. */
    @Test
    void anOldSendrecvInPlaceErrorIsSaidUncounted() throws IOException {
        List<String> text = new ArrayList<>(List.of("$ ./build/sendrecv_perf -b 37748744 -e 37748744 -g 2"));
        text.addAll(lines("nccl-tests-old-layout-no-redop-inplace-error-3e02.txt"));
        NcclTestsOutput out = NcclTestsOutput.parse(text, "sendrecv");
        assertThat(out.warnings()).anySatisfy(w -> assertThat(w).startsWith("the in-place maximum error of sendrecv_perf is above 0 in 1 size "
                + "(3e+02 at 37748744 bytes), which nccl-tests does not count"));
        List<String> allGather = new ArrayList<>(List.of("$ ./build/all_gather_perf -b 37748744 -e 37748744 -g 2"));
        allGather.addAll(lines("nccl-tests-old-layout-no-redop-inplace-error-3e02.txt"));
        assertThat(NcclTestsOutput.parse(allGather, "all_gather").warnings()).as("all_gather counts it: nothing to excuse")
                .noneSatisfy(w -> assertThat(w).contains("in-place maximum error"));
    }

    @Test
    void aRunningLineNamesTheTestAndTheVersionOfItsDirectory() throws IOException {
        NcclTestsOutput out = read("nccl-tests-rtx4090-nix-running-path-2.13.6.txt");
        assertThat(out.test().get()).isEqualTo("all_gather_perf");
        assertThat(out.testsVersion().get()).isEqualTo("2.13.6");
        assertThat(out.ncclHeaders().isValue()).as("no version header, as before 2.17.4").isFalse();
        assertThat(out.notUnderstood()).as("only the cut footer").allSatisfy(s -> assertThat(s).doesNotContain("Running"));
        List<String> real = lines("nccl-tests-rtx4090-nix-running-path-2.13.6.txt");
        NcclTestsOutput noVersion = NcclTestsOutput.parse(List.of("Running ./build/reduce_scatter_perf", real.get(7), real.get(9)), "x");
        assertThat(noVersion.test().get()).isEqualTo("reduce_scatter_perf");
        assertThat(noVersion.testsVersion().isValue()).as("a directory without a version gives none").isFalse();
    }
}
