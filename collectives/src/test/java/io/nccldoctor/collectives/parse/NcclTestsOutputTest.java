package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.nccldoctor.collectives.Fixtures;
import io.nccldoctor.core.InputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Real published outputs (fixtures/public/README.md names each source and the facts asserted here). */
class NcclTestsOutputTest {

    static NcclTestsOutput read(String name) throws IOException {
        return NcclTestsOutput.parse(Files.readAllLines(Fixtures.publicFixture(name), StandardCharsets.UTF_8), name);
    }

    static NcclTestsOutput.Row row(NcclTestsOutput out, long size) {
        return out.rows().stream().filter(r -> r.sizeBytes() == size).findFirst().orElseThrow();
    }

    @Test
    void dgxcEightGpuAllReduce() throws IOException {
        NcclTestsOutput out = read("nccl-tests-h100-8gpu-allreduce-dgxc.txt");
        assertThat(out.devices()).hasSize(8);
        assertThat(out.devices().get(0)).contains("[0000:19:00]");
        assertThat(out.devices().get(7)).contains("[0000:e4:00]");
        assertThat(out.errorColumn()).isFalse();
        assertThat(out.rows()).hasSize(32);
        assertThat(out.rows().get(0).sizeBytes()).isEqualTo(8);
        NcclTestsOutput.Row gib = row(out, 1073741824L);
        assertThat(gib.root().get()).isEqualTo(-1);
        assertThat(gib.redop().get()).isEqualTo("sum");
        assertThat(gib.outOfPlace().timeUs()).isEqualTo(4029.4);
        assertThat(gib.outOfPlace().busBwGBps()).isEqualTo(466.33);
        assertThat(gib.inPlace().get().algBwGBps()).isEqualTo(267.34);
        assertThat(gib.inPlace().get().wrong().get()).isZero();
        NcclTestsOutput.Row big = row(out, 17179869184L);
        assertThat(big.count()).isEqualTo(4294967296L);
        assertThat(big.outOfPlace().timeUs()).isEqualTo(62648);
        assertThat(out.avgBusBwGBps().get()).isEqualTo(159.151);
        assertThat(out.outOfBounds().get()).isZero();
        assertThat(out.outOfBoundsOk().get()).isTrue();
        assertThat(out.totalWrong().get()).isZero();
        assertThat(out.testsVersion().isValue()).isFalse();
        assertThat(out.notUnderstood()).isEmpty();
    }

    @Test
    void twoNodeIbWithBareVersionBanner() throws IOException {
        NcclTestsOutput out = read("nccl-tests-h100-2node-ib-issue319.txt");
        assertThat(out.devices()).hasSize(16);
        assertThat(out.ncclLibrary().get()).isEqualTo("2.26.2");
        assertThat(out.rows()).hasSize(32);
        NcclTestsOutput.Row gib = row(out, 1073741824L);
        assertThat(gib.outOfPlace().busBwGBps()).isEqualTo(87.95);
        assertThat(gib.inPlace().get().busBwGBps()).isEqualTo(87.71);
        assertThat(row(out, 17179869184L).outOfPlace().timeUs()).isEqualTo(360942);
        assertThat(out.avgBusBwGBps().get()).isEqualTo(33.4128);
        double peak = out.rows().stream().mapToDouble(r -> r.outOfPlace().busBwGBps()).max().orElseThrow();
        assertThat(peak).isEqualTo(89.24);
    }

    @Test
    void versionHeaderDecodesLibraryCode() throws IOException {
        NcclTestsOutput out = read("nccl-tests-gh200-2node-version-header-cscs.txt");
        assertThat(out.testsVersion().get()).isEqualTo("2.18.2");
        assertThat(out.ncclHeaders().get()).isEqualTo("2.30.7");
        assertThat(out.ncclLibrary().get()).isEqualTo("2.30.7");
        assertThat(out.test().get()).isEqualTo("all_reduce_perf");
        assertThat(out.devices()).hasSize(2);
        assertThat(out.rows()).hasSize(8);
        for (NcclTestsOutput.Row r : out.rows()) {
            assertThat(r.outOfPlace().busBwGBps()).isEqualTo(r.outOfPlace().algBwGBps()); // 2 ranks: factor 1
        }
        assertThat(row(out, 134217728L).outOfPlace().timeUs()).isEqualTo(5871.07);
        assertThat(out.avgBusBwGBps().get()).isEqualTo(14.9966);
    }

    /**
     * nccl-tests 2.20 prints its git revision in the version header and "unalign: N" in the parameters line (the header
     * shape of a GB10 two-node run in NVIDIA/dgx-spark-playbooks pull request 103; the numbers here are made up).
     */
    @Test
    void versionHeaderWithGitRevision() {
        String text = String.join("\n",
                "# nccl-tests version 2.20.0 (b4d5bee) nccl-headers=23102 nccl-library=23102",
                "# Collective test starting: all_reduce_perf",
                "# nThread 1 nGpus 1 minBytes 8192 maxBytes 16384 step: 2(factor) warmup iters: 10 iters: 100 agg iters: 1 "
                        + "validation: 1 graph: 0 unalign: 0",
                "#",
                "# Using devices",
                "#  Rank  0 Group  0 Pid 1000001 on node-a device  0 [000f:01:00] NVIDIA GB10",
                "#  Rank  1 Group  0 Pid 1000002 on node-b device  0 [000f:01:00] NVIDIA GB10",
                "#",
                "#                                                              out-of-place                       in-place",
                "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong",
                "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)",
                "        8192          2048     float     sum      -1    36.00    0.23    0.23       0    31.00    0.26    0.26       0",
                "       16384          4096     float     sum      -1    32.00    0.51    0.51       0    31.50    0.52    0.52       0",
                "# Out of bounds values : 0 OK",
                "# Avg bus bandwidth    : 0.38 ");
        NcclTestsOutput out = NcclTestsOutput.parse(text.lines().toList(), "gb10.txt");
        assertThat(out.testsVersion().get()).isEqualTo("2.20.0 (b4d5bee)");
        assertThat(out.ncclHeaders().get()).isEqualTo("2.31.2");
        assertThat(out.ncclLibrary().get()).isEqualTo("2.31.2");
        assertThat(out.devices()).hasSize(2);
        assertThat(out.rows()).hasSize(2);
        assertThat(row(out, 16384L).inPlace().get().timeUs()).isEqualTo(31.5);
        assertThat(out.avgBusBwGBps().get()).isEqualTo(0.38);
    }

    /**
     * An output pasted into a GitHub issue without a code block: Markdown took every leading '#' (nccl-tests issues
     * 249 and 583 show such pastes). The same facts are read, and the header lines are not reported as unread.
     */
    @Test
    void outputWhoseHashesMarkdownAte() {
        String text = String.join("\n",
                "nccl-tests version 2.20.0 (b4d5bee) nccl-headers=23102 nccl-library=23102",
                "Collective test starting: all_reduce_perf",
                "nThread 1 nGpus 1 minBytes 8192 maxBytes 16384 step: 2(factor) warmup iters: 10 iters: 100 agg iters: 1 "
                        + "validation: 1 graph: 0 unalign: 0",
                "Using devices",
                " Rank  0 Group  0 Pid 1000001 on node-a device  0 [000f:01:00] NVIDIA GB10",
                " Rank  1 Group  0 Pid 1000002 on node-b device  0 [000f:01:00] NVIDIA GB10",
                "                                                             out-of-place                       in-place",
                "      size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong",
                "       (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)",
                "        8192          2048     float     sum      -1    36.00    0.23    0.23       0    31.00    0.26    0.26       0",
                "       16384          4096     float     sum      -1    32.00    0.51    0.51       0    31.50    0.52    0.52       0",
                "Out of bounds values : 0 OK",
                "Avg bus bandwidth    : 0.38 ");
        NcclTestsOutput out = NcclTestsOutput.parse(text.lines().toList(), "pasted.txt");
        assertThat(out.testsVersion().get()).isEqualTo("2.20.0 (b4d5bee)");
        assertThat(out.test().get()).isEqualTo("all_reduce_perf");
        assertThat(out.devices()).hasSize(2).first().asString().startsWith("Rank  0 Group  0 Pid 1000001 on node-a");
        assertThat(out.rows()).hasSize(2);
        assertThat(row(out, 8192L).outOfPlace().busBwGBps()).isEqualTo(0.23);
        assertThat(out.outOfBounds().get()).isZero();
        assertThat(out.avgBusBwGBps().get()).isEqualTo(0.38);
        assertThat(out.notUnderstood()).as("the header lines are known, not unread").isEmpty();
    }

    @Test
    void corruptedRunCountsWrongElementsAndHasNoFooter() throws IOException {
        NcclTestsOutput out = read("nccl-tests-gh200-16rank-corrupted-wrong.txt");
        assertThat(out.ncclLibrary().get()).isEqualTo("2.29.2");
        assertThat(out.devices()).hasSize(16);
        assertThat(out.rows()).hasSize(28);
        assertThat(out.rows().get(0).sizeBytes()).isEqualTo(1);
        assertThat(out.rows()).allMatch(r -> r.count() == r.sizeBytes() && r.type().equals("int8"));
        NcclTestsOutput.Row first = row(out, 2097152L);
        assertThat(first.outOfPlace().wrong().get()).isEqualTo(18134);
        assertThat(first.inPlace().get().wrong().get()).isEqualTo(9609);
        assertThat(row(out, 33554432L).outOfPlace().wrong().get()).isEqualTo(951005);
        assertThat(row(out, 33554432L).inPlace().get().wrong().get()).isEqualTo(820604);
        assertThat(row(out, 67108864L).outOfPlace().wrong().get()).isEqualTo(113492);
        assertThat(row(out, 67108864L).inPlace().get().wrong().get()).isZero();
        assertThat(row(out, 134217728L).outOfPlace().busBwGBps()).isEqualTo(89.85);
        assertThat(out.totalWrong().get()).isGreaterThan(951005L + 820604L + 113492L);
        assertThat(out.avgBusBwGBps().isValue()).isFalse();
        assertThat(out.outOfBounds().isValue()).isFalse();
        assertThat(out.failures()).singleElement().asString()
                .startsWith("3,935,945 wrong elements in 6 of 28 sizes (2,097,152 to 67,108,864 bytes)");
    }

    @Test
    void aCleanRunHasNoFailuresAndItsPeak() throws IOException {
        NcclTestsOutput out = read("nccl-tests-h100-8gpu-allreduce-dgxc.txt");
        assertThat(out.failures()).isEmpty();
        assertThat(out.peakBusBw().get().sizeBytes()).isEqualTo(8589934592L);
        assertThat(out.peakBusBw().get().outOfPlace().busBwGBps()).isEqualTo(480.16);
    }

    @Test
    void aFailedOutOfBoundsFooterIsAFailureInTheOldLayout() {
        NcclTestsOutput out = NcclTestsOutput.parse(List.of(
                "#       size         count    type   redop     time   algbw   busbw  error     time   algbw   busbw  error",
                "     1048576        262144   float     sum    40.10   26.15   45.76  2e+00    39.90   26.28   45.99  2e+00",
                "# Out of bounds values : 2 FAILED",
                "# Avg bus bandwidth    : 45.87"), "old.txt");
        assertThat(out.rows().get(0).outOfPlace().maxError().get()).isEqualTo(2.0);
        assertThat(out.failures()).containsExactly("the footer says 'Out of bounds values : 2 FAILED'");
    }

    @Test
    void oldLayoutWithErrorColumnAndNotApplicableCells() throws IOException {
        NcclTestsOutput out = read("nccl-tests-a100-allreduce-old-error-col.txt");
        assertThat(out.errorColumn()).isTrue();
        assertThat(out.devices()).hasSize(8);
        assertThat(out.rows()).hasSize(34);
        assertThat(out.rows().stream().filter(r -> r.sizeBytes() == 0)).hasSize(2);
        NcclTestsOutput.Row gib = row(out, 1073741824L);
        assertThat(gib.outOfPlace().timeUs()).isEqualTo(8159.5);
        assertThat(gib.inPlace().get().busBwGBps()).isEqualTo(229.81);
        assertThat(gib.outOfPlace().maxError().isValue()).isFalse(); // N/A: validation off
        assertThat(gib.root().isValue()).isFalse();
        assertThat(out.ncclInfoLines()).isEqualTo(1);
        assertThat(out.totalWrong().isValue()).isFalse();
        assertThat(out.avgBusBwGBps().get()).isEqualTo(68.4048);
    }

    @Test
    void oldAlltoAllRowsLeaveTheRedopBlank() throws IOException {
        NcclTestsOutput out = read("nccl-tests-a100-alltoall-old-na.txt");
        NcclTestsOutput.Row gib = row(out, 1073741824L);
        assertThat(gib.redop().isValue()).isFalse();
        assertThat(gib.outOfPlace().timeUs()).isEqualTo(4335.5);
        assertThat(gib.outOfPlace().busBwGBps()).isEqualTo(216.71);
        assertThat(gib.inPlace().get().busBwGBps()).isEqualTo(219.81);
        assertThat(out.rows().stream().filter(r -> r.sizeBytes() == 0)).hasSize(5);
        assertThat(out.avgBusBwGBps().get()).isEqualTo(58.6481);
        assertThat(out.notUnderstood()).isEmpty();
    }

    @Test
    void oldAllGatherWithoutRedopColumn() throws IOException {
        NcclTestsOutput out = read("nccl-tests-a100-allgather-old-noredop.txt");
        NcclTestsOutput.Row gib = row(out, 1073741824L);
        assertThat(gib.count()).isEqualTo(33554432L);
        assertThat(gib.outOfPlace().algBwGBps()).isEqualTo(243.29);
        assertThat(gib.inPlace().get().busBwGBps()).isEqualTo(220.61);
        assertThat(out.avgBusBwGBps().get()).isEqualTo(58.2651);
    }

    @Test
    void mpirunTagOutputPrefixesAreStripped() throws IOException {
        NcclTestsOutput out = read("nccl-tests-rtx5090-mpi-tag-output.txt");
        assertThat(out.testsVersion().get()).isEqualTo("2.18.0");
        assertThat(out.ncclLibrary().get()).isEqualTo("2.29.7");
        assertThat(out.devices()).hasSize(2);
        assertThat(out.rows()).hasSize(8);
        assertThat(row(out, 134217728L).outOfPlace().timeUs()).isEqualTo(58479.5);
        assertThat(row(out, 134217728L).inPlace().get().busBwGBps()).isEqualTo(2.31);
        assertThat(out.avgBusBwGBps().get()).isEqualTo(1.57614);
    }

    @Test
    void skypilotDoublePrefixIsStripped() throws IOException {
        NcclTestsOutput out = read("nccl-tests-h200-2node-skypilot-mpi-prefix.txt");
        assertThat(out.devices()).hasSize(16);
        assertThat(out.rows()).hasSize(24);
        NcclTestsOutput.Row gib = row(out, 1073741824L);
        assertThat(gib.redop().get()).isEqualTo("none");
        assertThat(gib.outOfPlace().busBwGBps()).isEqualTo(322.23);
        // all_gather: busbw = algbw * (n-1)/n with n = 16
        assertThat(gib.outOfPlace().busBwGBps()).isCloseTo(gib.outOfPlace().algBwGBps() * 15 / 16, within(0.01));
        assertThat(out.avgBusBwGBps().get()).isEqualTo(122.073);
    }

    @Test
    void singleRankHasZeroBusBandwidthAndExponentErrors() throws IOException {
        NcclTestsOutput out = read("nccl-tests-a10g-single-rank-old.txt");
        assertThat(out.errorColumn()).isTrue();
        NcclTestsOutput.Row big = row(out, 134217728L);
        assertThat(big.outOfPlace().busBwGBps()).isZero();
        assertThat(big.outOfPlace().maxError().get()).isZero();
        assertThat(big.inPlace().get().algBwGBps()).isEqualTo(232613.05);
        assertThat(out.avgBusBwGBps().get()).isZero();
    }

    @Test
    void textThatIsNotNcclTestsIsRefused() {
        assertThatThrownBy(() -> NcclTestsOutput.parse(List.of("hello", "world 1 2 3"), "x.txt"))
                .isInstanceOf(InputException.class).hasMessageContaining("x.txt: not nccl-tests output");
    }

    @Test
    void srunLabelsAreStripped() {
        NcclTestsOutput out = NcclTestsOutput.parse(List.of(
                "0: #       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong",
                "0:      1048576        262144     float     sum      -1    20.10   52.17   97.82      0    19.90   52.69   98.80      0",
                "0: # Avg bus bandwidth    : 98.31"), "srun.txt");
        assertThat(out.rows()).hasSize(1);
        assertThat(out.rows().get(0).outOfPlace().busBwGBps()).isEqualTo(97.82);
        assertThat(out.avgBusBwGBps().get()).isEqualTo(98.31);
    }

    @Test
    void aMinimumBandwidthThatWasNotMetFailsTheRun() throws IOException {
        NcclTestsOutput out = NcclTestsOutput.parse(List.of(
                "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong",
                "     1048576        262144     float     sum      -1    20.10   52.17   97.82      0    19.90   52.69   98.80      0",
                "# Out of bounds values : 0 OK",
                "# Avg bus bandwidth    : 98.31 FAILED"), "minbw.txt");
        assertThat(out.avgBusBwGBps().get()).isEqualTo(98.31);
        assertThat(out.avgBusBwOk().get()).isFalse();
        assertThat(out.failures()).containsExactly("the average bus bandwidth 98.31 GB/s is below 0.9 x NCCL_TESTS_MIN_BW (the footer says FAILED)");
        assertThat(read("nccl-tests-h100-8gpu-allreduce-dgxc.txt").avgBusBwOk().isAbsent()).isTrue();
    }
}
