package io.nccldoctor.reports.rulezero;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.reports.ResultThresholds;
import io.nccldoctor.reports.results.Ceiling;
import io.nccldoctor.reports.results.Sweep;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real nccl-tests outputs (collectives' fixtures/public, each cited in its README) as the reference, against suspect
 * tables written here at some of their sizes.
 */
class PublishedReferenceTest {

    @TempDir
    Path dir;

    /** microsoft/superbenchmark's alltoall_perf on 8 A100s (old layout, no test line: the file name says alltoall). */
    @Test
    void a100AlltoallAgainstAHarnessTable() throws IOException {
        Sweep a100 = Inputs.named(Inputs.read(Inputs.FIXTURES.resolve("nccl-tests-a100-alltoall-old-na.txt")), "alltoall");
        assertThat(a100.ranks().get()).isEqualTo(8);
        Path table = dir.resolve("harness.csv");
        Files.writeString(table, """
                # a harness on the same 8 GPUs
                collective,dtype,count,ranks,busbw
                alltoall,float,268435456,8,214.0
                alltoall,float,268435400,8,40.0
                alltoall,float,64,8,0.0
                alltoall,float,4294967296,8,220.0
                """);
        RuleZero z = RuleZero.of(SuspectTable.parse(table), List.of(a100), List.of(), ResultThresholds.DEFAULTS);
        assertThat(z.rows()).extracting(Judgement::verdict).containsExactly(Verdict.CONSISTENT, Verdict.HARNESS_ARTIFACT,
                Verdict.NO_REFERENCE, Verdict.NO_REFERENCE);

        Judgement oneGiB = z.rows().get(0);
        assertThat(oneGiB.reference().get().kind()).isEqualTo(ReferenceMatch.Kind.SAME_SIZE);
        assertThat(oneGiB.reference().get().busBwGBps()).as("the published row at 1073741824 B").isEqualTo(216.71);
        assertThat(oneGiB.why()).startsWith("214.00 GB/s is 99 % of nccl-tests' 216.71 GB/s");

        Judgement handSized = z.rows().get(1);
        assertThat(handSized.audit().asGiven().chunkBytes()).as("33,554,425 floats per peer").isEqualTo(134_217_700L);
        assertThat(handSized.audit().asGiven().misalignedChunks()).as("k x 134,217,700 is 4, 8, 12, 0 … mod 16").containsExactly(1, 2, 3, 5, 6, 7);
        assertThat(handSized.audit().asNcclTests().count()).isEqualTo(268_435_392L);
        assertThat(handSized.reference().get().kind()).isEqualTo(ReferenceMatch.Kind.INTERPOLATED);
        assertThat(handSized.reference().get().rowBytes()).containsExactly(536_870_912L, 1_073_741_824L);
        assertThat(handSized.reference().get().busBwGBps()).isBetween(216.7, 216.71);
        assertThat(handSized.why()).contains("18 % of nccl-tests'").contains("chunks 1, 2, 3, 5, 6, 7 start off 16-byte boundaries")
                .contains("nccl-tests would use 268,435,392 elements");

        assertThat(z.rows().get(2).why()).as("nccl-tests prints 0.00 at 256 B").contains("prints a busbw of 0.00 GB/s");
        assertThat(z.rows().get(3).why()).startsWith("16 GiB lies outside the sizes of 'nccl-tests-a100-alltoall-old-na' (32 B to 8 GiB)");
        assertThat(z.verdictLine()).startsWith("HARNESS_ARTIFACT: it is the harness, not the hardware: 1 of 4 sizes run below 50 %")
                .endsWith("; 2 of 4 sizes without a reference.");
    }

    /**
     * NVIDIA/nccl-tests issue #319: 2 nodes of 8 H100 with 8 x 400 Gb/s ConnectX-7 each, allreduce at 88 GB/s busbw.
     * A harness at that speed is not to blame: nccl-tests is as slow, far below the NICs' line rate.
     */
    @Test
    void h100IssueAllreduceIsTheFabric() throws IOException {
        Sweep issue = Inputs.named(Inputs.read(Inputs.FIXTURES.resolve("nccl-tests-h100-2node-ib-issue319.txt")), "allreduce");
        Path table = dir.resolve("harness.json");
        Files.writeString(table, """
                [
                  {"collective": "allreduce", "dtype": "float", "count": 268435456, "ranks": 16, "busbw": 84.0},
                  {"collective": "allreduce", "dtype": "float", "bytes": 3221225472, "ranks": 16, "time_us": 68000}
                ]
                """);
        // the line rate as NodeCeilings adds it up: 8 ports x 400 Gbit/s per node
        Ceiling line = new Ceiling("lccn09: NIC line rate", 3200 / 8.0, "8 x ConnectX-7 (3200 Gbit/s)",
                List.of("8x ConnectX-7 IB at 400 Gb/s (the issue's description)"), Ceiling.Kind.LINE_RATE);
        RuleZero z = RuleZero.of(SuspectTable.parse(table), List.of(issue), List.of(line), ResultThresholds.DEFAULTS);
        assertThat(z.rows()).extracting(Judgement::verdict).containsExactly(Verdict.FABRIC, Verdict.FABRIC);
        assertThat(z.rows().get(0).reference().get().busBwGBps()).isEqualTo(87.95);
        Judgement threeGiB = z.rows().get(1);
        assertThat(threeGiB.reference().get().kind()).isEqualTo(ReferenceMatch.Kind.INTERPOLATED);
        assertThat(threeGiB.reference().get().rowBytes()).containsExactly(2_147_483_648L, 4_294_967_296L);
        // 3 GiB in 68 ms: algbw 47.37 GB/s, busbw x 2 x 15/16 = 88.82 GB/s
        assertThat(threeGiB.suspect().busBw().get()).isBetween(88.8, 88.85);
        assertThat(z.verdictLine()).isEqualTo("FABRIC: nccl-tests is as slow as the suspect: at 2 of 2 sizes both stay below 50 % of the "
                + "400.00 GB/s ceiling (lccn09: NIC line rate): look at the fabric, not the harness.");
    }
}
