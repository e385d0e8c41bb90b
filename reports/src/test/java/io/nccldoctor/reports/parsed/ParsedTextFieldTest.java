package io.nccldoctor.reports.parsed;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.gdr.PerftestOutput;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The human forms of `parse nccl-tests` and `parse perftest` on published outputs (their READMEs name the sources). */
class ParsedTextFieldTest {

    private static String ncclTests(String name) throws IOException {
        Path p = Path.of("../collectives/src/test/resources/fixtures/public", name);
        return NcclTestsText.render(NcclTestsOutput.parse(Files.readAllLines(p), name), name);
    }

    private static String perftest(String name) throws IOException {
        Path p = Path.of("../gdr-probe/src/test/resources/fixtures/public", name);
        return PerftestText.render(PerftestOutput.parse(Files.readAllLines(p), name), name);
    }

    @Test
    void ncclTestsShowsTheCommandTheParametersAndWhyCellsSayNotApplicable() throws IOException {
        String text = ncclTests("nccl-tests-rtx4090-alltoall-inplace-na-p2p-level-cut.txt");
        assertThat(text).contains("  command: NCCL_P2P_LEVEL=SYS ./build/alltoall_perf -b 8 -e 128M -f 2 -g 2\n")
                .contains("    environment: NCCL_P2P_LEVEL=SYS\n")
                .contains("    alltoall_perf flags: {minbytes=8, maxbytes=128M, stepfactor=2, ngpus=2}\n")
                .contains("  parameters: nThread 1, nGpus 2, 8 to 134217728 bytes, step 2 (factor), warmup 5, iters 20, validation 1, graph 0\n")
                .contains("  3 cells N/A: nccl-tests does not check the in-place result of alltoall")
                .contains("not understood: nccl-tests-rtx4090-alltoall-inplace-na-p2p-level-cut.txt:14: ");
    }

    @Test
    void ncclTestsMarksRoundedCounts() throws IOException {
        String text = ncclTests("nccl-tests-rtx3090-2rank-corrupted-wrong-gformat.txt");
        assertThat(text).contains("~1048580").contains("FAILED: about 1,073,741,424 wrong elements")
                .contains("FAILED: the footer says 'Out of bounds values : 108 FAILED'")
                .contains("    the command runs ./local_run_inc.sh, not an nccl-tests binary; its flags are not read\n");
    }

    @Test
    void perftestShowsTheSideTheRegistrationAndLatencyRows() throws IOException {
        assertThat(perftest("perftest-write-bw-cuda-dmabuf-h200-sweep-client.txt")).startsWith("RDMA_Write BW Test from ")
                .contains(", client side, GPU memory of NVIDIA H200\n").contains("  GPU PCI address: 8F:00\n")
                .contains("  GPU memory registered as: DMA-BUF (ibv_reg_dmabuf_mr");
        assertThat(perftest("perftest-write-bw-cuda-t4-pcie-ro-warning-server.txt")).contains(", server side, GPU memory of Tesla T4\n")
                .contains("GPU memory registered as: peer memory (ibv_reg_mr on the GPU address, which needs the GPU driver's peer-memory client, nvidia-peermem for CUDA")
                .contains("warning: WARNING: CPU is not PCIe relaxed ordering compliant.\n")
                .contains("warning: WARNING: You should disable PCIe RO with `--disable_pcie_relaxed` for both server and client.\n");
        assertThat(perftest("perftest-write-lat-mlx4-ib-sweep-client.txt"))
                .contains("     8388608      20000   2296.01   2345.48   2302.01   2304.98      6.43   2327.01   2335.48\n");
    }
}
