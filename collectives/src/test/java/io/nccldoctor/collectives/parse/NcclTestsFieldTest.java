package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.collectives.Fixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Published outputs that the reader once misread or dropped: %g #wrong counts, N/A cells under "validation: 1", pasted
 * command lines, Markdown-mangled pastes, a row cut mid-line (fixtures/public/README.md names each source and fact).
 */
class NcclTestsFieldTest {

    static NcclTestsOutput read(String name) throws IOException {
        return NcclTestsOutput.parse(Files.readAllLines(Fixtures.publicFixture(name), StandardCharsets.UTF_8), name);
    }

    static NcclTestsOutput.Row row(NcclTestsOutput out, long size) {
        return out.rows().stream().filter(r -> r.sizeBytes() == size).findFirst().orElseThrow();
    }

    /** nccl-tests prints #wrong with %6g: from a million on the count is "1.04858e+06", a number, not N/A. */
    @Test
    void wrongCountsInExponentFormAreCounts() throws IOException {
        NcclTestsOutput out = read("nccl-tests-rtx3090-2rank-corrupted-wrong-gformat.txt");
        assertThat(out.rows()).hasSize(27);
        NcclTestsOutput.Row exact = row(out, 1048576);
        assertThat(exact.outOfPlace().wrong().get()).isEqualTo(524288);
        assertThat(exact.outOfPlace().wrongRounded()).isFalse();
        NcclTestsOutput.Row first = row(out, 2097152);
        assertThat(first.outOfPlace().wrong().get()).as("1.04858e+06").isEqualTo(1048580);
        assertThat(first.outOfPlace().wrongRounded()).isTrue();
        assertThat(row(out, 536870912).inPlace().get().wrong().get()).as("2.68435e+08").isEqualTo(268435000);
        assertThat(row(out, 8388608).outOfPlace().wrong().get()).as("4.1943e+06").isEqualTo(4194300);
        assertThat(out.totalWrong().get()).isEqualTo(1_073_741_424L);
        assertThat(out.outOfBounds().get()).isEqualTo(108);
        assertThat(out.outOfBoundsOk().get()).isFalse();
        assertThat(out.failures()).hasSize(2);
        assertThat(out.failures().get(0)).startsWith("about 1,073,741,424 wrong elements in 27 of 27 sizes (8 to 536,870,912 bytes)")
                .contains("6 significant digits");
        assertThat(out.peakBusBw().get().outOfPlace().busBwGBps()).isEqualTo(7.50);
        assertThat(out.notUnderstood()).isEmpty();
        NcclTestsCommand c = out.command().get();
        assertThat(c.launcher().get()).isEqualTo("mpirun");
        assertThat(c.program().get()).isEqualTo("./local_run_inc.sh");
        assertThat(c.binary().reason()).contains("./local_run_inc.sh, not an nccl-tests binary");
        assertThat(out.parameters()).singleElement().satisfies(p -> {
            assertThat(p.validation().get()).isEqualTo(1);
            assertThat(p.maxBytes().get()).isEqualTo(1_000_000_000L);
        });
    }

    /**
     * alltoall leaves its in-place result unchecked: N/A there with "validation: 1" in the header is that, not -c 0.
     * The paste ends in a row cut mid-line, which is listed, not read as a one-placement row.
     */
    @Test
    void inPlaceNotApplicableUnderValidationIsAlltoallsUncheckedResult() throws IOException {
        NcclTestsOutput out = read("nccl-tests-rtx4090-alltoall-inplace-na-p2p-level-cut.txt");
        assertThat(out.rows()).hasSize(3);
        NcclTestsOutput.Row r = row(out, 16);
        assertThat(r.outOfPlace().wrong().get()).isZero();
        assertThat(r.inPlace().get().wrong().isAbsent()).isTrue();
        assertThat(r.inPlace().get().wrong().reason()).contains("does not check the in-place result of alltoall")
                .contains("validation: 1").doesNotContain("-c 0");
        assertThat(out.warnings()).isEmpty();
        assertThat(out.notUnderstood()).singleElement().asString().contains(":14: 64 ").contains("7 cells where the columns take 13");
        NcclTestsCommand c = out.command().get();
        assertThat(c.env()).containsExactly(Map.entry("NCCL_P2P_LEVEL", "SYS"));
        assertThat(c.binary().get()).isEqualTo("alltoall_perf");
        assertThat(c.flags()).containsEntry("minbytes", "8").containsEntry("maxbytes", "128M").containsEntry("stepfactor", "2")
                .containsEntry("ngpus", "2");
    }

    @Test
    void aOneRowAlltoallWithSudoPromptAndZeroAverage() throws IOException {
        NcclTestsOutput out = read("nccl-tests-rtx5090-alltoall-1gpu-inplace-na-sudo.txt");
        NcclTestsOutput.Row r = row(out, 33554432);
        assertThat(r.outOfPlace().algBwGBps()).isEqualTo(1715.44);
        assertThat(r.inPlace().get().algBwGBps()).isEqualTo(43046.10);
        assertThat(r.inPlace().get().wrong().reason()).contains("does not check the in-place result");
        assertThat(out.avgBusBwGBps().get()).isZero();
        assertThat(out.command().get().program().get()).isEqualTo("./build/./alltoall_perf");
        assertThat(out.command().get().launcher().isAbsent()).isTrue();
        assertThat(out.parameters().get(0).stepKind().get()).isEqualTo("bytes");
        assertThat(out.parameters().get(0).step().get()).isEqualTo(1048576);
        assertThat(out.notUnderstood()).singleElement().asString().endsWith(":2: [sudo] password for m2:");
    }

    @Test
    void validationZeroExplainsEveryNotApplicableCell() throws IOException {
        NcclTestsOutput out = read("nccl-tests-a100-alltoall-old-na.txt");
        assertThat(out.parameters().get(0).validation().get()).isZero();
        assertThat(out.parameters().get(0).aggIters().isAbsent()).as("before 2.13 there is no 'agg iters'").isTrue();
        NcclTestsOutput.Row r = row(out, 1073741824L);
        assertThat(r.outOfPlace().maxError().reason()).isEqualTo("N/A: not validated (validation: 0, the run used -c 0)");
        assertThat(r.inPlace().get().maxError().reason()).isEqualTo("N/A: not validated (validation: 0, the run used -c 0)");
    }

    /**
     * A paste whose '#' lines Markdown partly ate (the parameters line, "Using devices" and rank 0 lost theirs), under a
     * command line quoted with "> " and continued with "\".
     */
    @Test
    void markdownQuotedMultiLineMpirunCommand() throws IOException {
        NcclTestsOutput out = read("nccl-tests-h100-16rank-markdown-mpirun-command.txt");
        assertThat(out.devices()).hasSize(16);
        assertThat(out.devices().get(0)).startsWith("Rank  0 Group  0 Pid   6899 on ztan-mig-235z");
        assertThat(out.parameters()).singleElement().satisfies(p -> assertThat(p.maxBytes().get()).isEqualTo(8589934592L));
        assertThat(out.rows()).hasSize(31);
        assertThat(out.peakBusBw().get().sizeBytes()).isEqualTo(8589934592L);
        assertThat(out.peakBusBw().get().outOfPlace().busBwGBps()).isEqualTo(338.82);
        assertThat(out.avgBusBwGBps().get()).isEqualTo(70.742);
        assertThat(out.notUnderstood()).isEmpty();
        NcclTestsCommand c = out.command().get();
        assertThat(c.text()).startsWith("mpirun -v --mca btl self,tcp").endsWith("all_reduce_perf -b 8 -e 8G -f 2 -g 1")
                .doesNotContain("\\").doesNotContain(">");
        assertThat(c.launcher().get()).isEqualTo("mpirun");
        assertThat(c.envForwarded()).containsExactly("${HOST_VARS}");
        assertThat(c.program().get()).isEqualTo("/opt/src/nccl-tests/build/all_reduce_perf");
        assertThat(c.flags()).containsExactly(Map.entry("minbytes", "8"), Map.entry("maxbytes", "8G"),
                Map.entry("stepfactor", "2"), Map.entry("ngpus", "1"));
    }

    /** A real -S run's command: -x variables with and without values, joined short options "-g1" and "-b16G". */
    @Test
    void mpirunEnvironmentAndJoinedFlagsOfATimestampRun() throws IOException {
        NcclTestsOutput out = read("nccl-tests-gb200-alltoall-mpirun-env-pr349-no-table.txt");
        NcclTestsCommand c = out.command().get();
        assertThat(c.env()).containsEntry("NCCL_SOCKET_IFNAME", "enP22p1s0f1").containsEntry("NCCL_IB_DISABLE", "1")
                .containsEntry("NCCL_NVLS_ENABLE", "1").containsEntry("UCX_NET_DEVICES", "enP22p1s0f1").hasSize(6);
        assertThat(c.envForwarded()).containsExactly("LD_LIBRARY_PATH");
        assertThat(c.binary().get()).isEqualTo("alltoall_perf");
        assertThat(c.flags()).containsEntry("ngpus", "1").containsEntry("minbytes", "16G").containsEntry("maxbytes", "16G")
                .containsEntry("check", "1").containsEntry("local_register", "1").containsEntry("run_cycles", "0")
                .containsEntry("report_timestamps", "1");
        assertThat(out.test().get()).isEqualTo("alltoall_perf");
        assertThat(out.ncclLibrary().get()).isEqualTo("2.28.3");
        assertThat(out.parameters().get(0).minBytes().get()).isEqualTo(17179869184L);
        assertThat(out.rows()).isEmpty();
        assertThat(out.notUnderstood()).singleElement().asString().endsWith(":13: #           timestamp");
    }

    @Test
    void versionlessHeaderWithNcclBannerAndValidation() throws IOException {
        NcclTestsOutput out = read("nccl-tests-h200-allgather-gke-validation-header.txt");
        assertThat(out.ncclLibrary().get()).isEqualTo("2.25.1");
        NcclTestsParameters p = out.parameters().get(0);
        assertThat(p.warmupIters().get()).isEqualTo(50);
        assertThat(p.iters().get()).isEqualTo(100);
        assertThat(p.validation().get()).isEqualTo(1);
        assertThat(p.graphLaunches().get()).isZero();
        assertThat(p.unalign().isAbsent()).isTrue();
        assertThat(out.rows()).hasSize(24);
        assertThat(out.peakBusBw().get().outOfPlace().busBwGBps()).isEqualTo(32.20);
        assertThat(out.totalWrong().get()).isZero();
        assertThat(out.notUnderstood()).isEmpty();
    }

    /** The fork fields of the DGX Cloud output ("side_work: 0 work_sms: 0 direction: H2D") are kept, not dropped. */
    @Test
    void parameterFieldsOfAForkAreKept() throws IOException {
        NcclTestsParameters p = read("nccl-tests-h100-8gpu-allreduce-dgxc.txt").parameters().get(0);
        assertThat(p.other()).containsEntry("side_work", "0").containsEntry("work_sms", "0").containsEntry("direction", "H2D");
        assertThat(p.gpusPerThread().get()).isEqualTo(1);
    }
}
