package io.nccldoctor.pcie;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The columns after nvidia-smi's matrix are read by their header names, "GPU NUMA ID" included, never by guesswork. */
class SmiTopoColumnsTest {

    private static final Path DIR = Path.of("src/test/resources/fixtures/public");

    private static SmiTopoMatrix read(String file) throws IOException {
        return SmiTopoMatrix.parse(Files.readString(DIR.resolve(file)).lines().toList(), file);
    }

    @Test
    void theGpuNumaIdColumnOfCurrentDrivers() throws IOException {
        SmiTopoMatrix m = read("nvidia-smi-topo-h100-8gpu-8nic-pix.txt");
        assertThat(m.gpuNumaId()).hasSize(8).allSatisfy((gpu, id) -> assertThat(id).isEqualTo("N/A"));
        assertThat(m.numaAffinity()).containsEntry("GPU0", "0").containsEntry("GPU7", "1");
        assertThat(m.cpuAffinity()).containsEntry("GPU0", "0-47,96-143");
        assertThat(m.skipped()).isEmpty();
    }

    @Test
    void olderLayoutsWithoutIt() throws IOException {
        assertThat(read("nvidia-smi-topo-a100-8gpu-10nic-epyc.txt").gpuNumaId()).isEmpty();
        SmiTopoMatrix dgx1 = read("nvidia-smi-topo-dgx1-v100-legacy-mlx5-columns.txt");
        assertThat(dgx1.gpuNumaId()).isEmpty();
        assertThat(dgx1.numaAffinity()).containsEntry("GPU4", "1");
    }

    /** SYNTHETIC: a row damaged as the fuzz suite damages them (a value lost), to show it is reported, not shifted. */
    @Test
    void aRowWhoseValuesDoNotFitTheColumnsIsNotShifted() {
        List<String> text = List.of("\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID",
                "GPU0\t X \tNV4\t0-15\t0", "GPU1\tNV4\t X \t0-15\t0\tN/A");
        SmiTopoMatrix m = SmiTopoMatrix.parse(text, "cut.txt");
        assertThat(m.numaAffinity()).as("GPU0 has 2 values for 3 columns").containsOnlyKeys("GPU1");
        assertThat(m.skipped()).singleElement().asString().contains("row GPU0 has 2 values after the matrix for 3 columns");
    }
}
