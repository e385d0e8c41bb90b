package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Real nccl-tests pastes (corpus/nccl-tests/README.md names each source): a run that stopped on nccl-tests' own CUDA
 * failure and its TESTCHECK relay lines, and a table a page trimmed to its out-of-place columns under a version line
 * cut after the version.
 */
class NcclTestsStoppedAndTrimmedTest {

    private static NcclTestsOutput read(String name) throws IOException {
        return NcclTestsOutput.parse(Files.readAllLines(Path.of("../corpus/nccl-tests", name), StandardCharsets.UTF_8), name);
    }

    /** common.h CUDACHECK, then TESTCHECK once per frame: one failure with its cause and its trace, no unread lines. */
    @Test
    void aCudaFailureChainIsOneFailureWithItsTrace() throws IOException {
        NcclTestsOutput out = read("nccl-tests-2.19.7-h200-nccl-2.18.3-illegal-memory-access-chain.txt");
        assertThat(out.notUnderstood()).isEmpty();
        assertThat(out.rows()).isEmpty();
        assertThat(out.failures()).singleElement().asString()
                .startsWith("nccl-tests stopped on a CUDA error on nccltest08192: 'an illegal memory access was encountered' (common.cu:502)")
                .contains("6 'Test failure' relay lines").contains("common.cu:632 < common.cu:930 < all_reduce.cu:574");
        assertThat(out.ncclLibrary().get()).as("nccl-library=21803").isEqualTo("2.18.3");
    }

    /** Synthetic: relay lines whose cause was cut (the older form without the pid) are still a failure, said so. */
    @Test
    void relayLinesWithoutTheirCauseAreStillAFailure() {
        NcclTestsOutput out = NcclTestsOutput.parse(List.of("# nThread 1 nGpus 1 minBytes 8 maxBytes 8 step: 2(factor) warmup iters: 5 "
                + "iters: 20 validation: 1", " .. node1: Test failure common.cu:393"), "synthetic");
        assertThat(out.failures()).singleElement().asString().startsWith("nccl-tests stopped on an error whose first line is not in the text")
                .endsWith("(TESTCHECK, common.cu:393)");
    }

    /** "# nccl-tests version 2.19.6" alone gives the version; the library is absent, never guessed; the columns are the header's. */
    @Test
    void aVersionLineCutAfterTheVersionAndATrimmedTable() throws IOException {
        NcclTestsOutput out = read("nccl-tests-2.19.6-gb300-4gpu-trimmed-columns-out-of-place-only.txt");
        assertThat(out.testsVersion().get()).isEqualTo("2.19.6");
        assertThat(out.ncclLibrary().isValue()).isFalse();
        assertThat(out.ncclLibrary().reason()).contains("ends after the version");
        assertThat(out.notUnderstood()).isEmpty();
        assertThat(out.rows()).hasSize(11).allSatisfy(r -> assertThat(r.inPlace().isValue()).isFalse());
        assertThat(out.peakBusBw().get().outOfPlace().busBwGBps()).isEqualTo(646.91);
        assertThat(out.avgBusBwGBps().get()).isEqualTo(390.79);
    }
}
