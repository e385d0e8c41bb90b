package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * rccl-tests' own lines (src/util.cu and src/common.cu of ROCm/rccl-tests, RCCL's src/init.cc showVersion), on real
 * outputs of corpus/nccl-tests: the version header with RCCL's codes, the older "rccl-tests: Version" line, RCCL's
 * version block, the asterisks line above the footer and the footer that names the test.
 */
class RcclTestsHeaderTest {

    private static NcclTestsOutput read(String name) throws IOException {
        return NcclTestsTimestampPrefixTest.read(name);
    }

    /** ROCm/rocm-systems#3415: rccl-headers=22803 is RCCL 2.28.3, as RCCL's own "RCCL version : 2.28.3-…" says. */
    @Test
    void theVersionHeaderGivesRcclsVersionsAndItsBlockIsRead() throws IOException {
        NcclTestsOutput out = read("rccl-tests-radeon-8050s-version-header-rccl-banner.txt");
        assertThat(out.tool()).isEqualTo("rccl-tests");
        assertThat(out.testsVersion().get()).isEqualTo("2.17.9-users/speriaswamy-amd/gfx1151-rccl-tests-enablement:f220897c9b");
        assertThat(out.ncclHeaders().get()).isEqualTo("2.28.3");
        assertThat(out.ncclLibrary().get()).isEqualTo("2.28.3");
        assertThat(out.test().get()).isEqualTo("all_reduce_perf");
        assertThat(out.devices()).singleElement().satisfies(d -> assertThat(d).endsWith("Radeon 8050S Graphics"));
        assertThat(out.notUnderstood()).as("the RCCL version, HIP, ROCm, Hostname and Librccl path lines").isEmpty();
    }

    /** crickett-hpe/hpc-ai-envs#30: the older line names rccl-tests' git revision, not an nccl-tests version. */
    @Test
    void theOlderVersionLineIsRcclTestsRevision() throws IOException {
        NcclTestsOutput out = read("rccl-tests-mi300x-8gpu-old-version-line.txt");
        assertThat(out.tool()).isEqualTo("rccl-tests");
        assertThat(out.testsVersion().get()).isEqualTo("develop:83d38d9");
        assertThat(out.ncclLibrary().isValue()).isFalse();
        assertThat(out.devices()).hasSize(8);
        assertThat(out.rows()).singleElement().satisfies(r -> {
            assertThat(r.outOfPlace().busBwGBps()).isEqualTo(161.14);
            assertThat(r.inPlace().get().busBwGBps()).isEqualTo(154.63);
        });
        assertThat(out.notUnderstood()).isEmpty();
    }

    /** ROCm/rccl#2075: rows only, then the asterisks line and the footer, the only line that names alltoall. */
    @Test
    void theFooterNamesTheTestWhenTheHeaderIsCut() throws IOException {
        String name = "rccl-tests-alltoall-header-cut-footer-names-test.txt";
        NcclTestsOutput out = read(name);
        assertThat(out.test().get()).isEqualTo("alltoall_perf");
        assertThat(out.tool()).as("the asterisks line is rccl-tests'").isEqualTo("rccl-tests");
        assertThat(out.rows()).hasSize(10);
        assertThat(out.peakBusBw().get().outOfPlace().busBwGBps()).isEqualTo(6.34);
        assertThat(out.peakBusBw().get().sizeBytes()).isEqualTo(128L << 20);
        assertThat(out.rows()).allSatisfy(r -> assertThat(r.inPlace().get().wrong().reason()).contains("does not check the in-place result"));
        assertThat(out.avgBusBwGBps().get()).isEqualTo(2.38156);
        assertThat(out.failures()).isEmpty();
        assertThat(out.notUnderstood()).as("only the next test's banner").containsExactly(name + ":18: ======== scatter_perf ====");
    }

    /** ROCm/rccl#2075 and #2078: the asterisks line is read (no row carries an asterisk: nothing exceeded). */
    @Test
    void theAsterisksLineIsRcclTestsFooter() throws IOException {
        String broadcast = "rccl-tests-broadcast-asterisks-line-next-test-cut.txt";
        NcclTestsOutput b = read(broadcast);
        assertThat(b.test().get()).isEqualTo("broadcast_perf");
        assertThat(b.notUnderstood()).containsExactly(broadcast + ":18: ======== reduce_scatter_p");
        assertThat(b.peakBusBw().get().outOfPlace().busBwGBps()).isEqualTo(7.15);
        NcclTestsOutput a = read("rccl-tests-allreduce-2g-16g-asterisks-line.txt");
        assertThat(a.tool()).isEqualTo("rccl-tests");
        assertThat(a.test().get()).isEqualTo("all_reduce_perf");
        assertThat(a.peakBusBw().get().outOfPlace().busBwGBps()).isEqualTo(360.98);
        assertThat(a.notUnderstood()).isEmpty();
        assertThat(a.rows()).noneMatch(r -> r.outOfPlace().overThreshold() || r.inPlace().get().overThreshold());
        assertThat(a.failures()).isEmpty();
    }

    /** nccl-tests' own header keeps its name: the reader says rccl-tests only where the text does. */
    @Test
    void nccltestsOutputIsNotCalledRcclTests() throws IOException {
        assertThat(read("nccl-tests-a100-pcie-2pod-kubectl-timestamps-header-only.txt").tool()).isEqualTo("nccl-tests");
    }
}
