package io.nccldoctor.reports.results;

import static io.nccldoctor.reports.results.JudgementRulesTest.defaults;
import static io.nccldoctor.reports.results.JudgementRulesTest.read;
import static io.nccldoctor.reports.results.JudgementRulesTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The two runs of NVIDIA/nccl-tests#256 (corpus/nccl-tests, cited in its README): 16 x H200 on two servers, once on
 * bare metal (1, 3 and 9 GiB; 458.65, 483.77, 488.81 GB/s) and once inside KVM guests (32 MiB to 7.59 GiB by x3; 57.78
 * GB/s at best). The grids share no size, so the ratio is read on a log-size interpolation and says where.
 */
class VmBareMetalPairTest {

    static final Path METAL = Path.of("../corpus/nccl-tests/nccl-tests-h200-16rank-2node-bare-metal-nccl-tests256.txt");
    static final Path VM = Path.of("../corpus/nccl-tests/nccl-tests-h200-16rank-2node-kvm-vm-nccl-tests256.txt");

    @Test
    void theVmRunGivenWithTheBareMetalRunIsFlaggedWithItsRatio() {
        assertThat(run(new RunBelowPeers(), read(METAL, VM), defaults())).singleElement().satisfies(f -> {
            assertThat(f.subject()).isEqualTo("nccl-tests-h200-16rank-2node-kvm-vm-nccl-tests256");
            assertThat(f.title()).contains("16 x NVIDIA H200 on 2 nodes (8 per node)").contains("runs at 12 % of")
                    .contains("'nccl-tests-h200-16rank-2node-bare-metal-nccl-tests256'").endsWith("(ratio 0.12)");
            // at 2717908992 B the VM reached 57.78; bare metal between 458.65 (1 GiB) and 483.77 (3 GiB), log2-interpolated,
            // is 480.7: 0.120. At 7.59 GiB 54.97 against 488.03 (between 3 and 9 GiB): 0.113. The median of four is 0.12.
            assertThat(f.evidence().get(0)).startsWith("median ratio 0.12").contains("over 4 sizes from 1 GiB to 7.59 GiB")
                    .contains("at 7.59 GiB: 54.97 GB/s against 488.03 GB/s");
            assertThat(f.evidence()).anyMatch(e -> e.startsWith("interpolated in log2(size): ")
                    && e.contains("2.53 GiB ('nccl-tests-h200-16rank-2node-bare-metal-nccl-tests256', between 1 GiB and 3 GiB)")
                    && e.contains("7.59 GiB ('nccl-tests-h200-16rank-2node-bare-metal-nccl-tests256', between 3 GiB and 9 GiB)"));
        });
    }

    @Test
    void eachRunAloneHasNoPeerToBeBelow() {
        assertThat(run(new RunBelowPeers(), read(VM), defaults())).isEmpty();
        assertThat(run(new RunBelowPeers(), read(METAL), defaults())).isEmpty();
    }
}
