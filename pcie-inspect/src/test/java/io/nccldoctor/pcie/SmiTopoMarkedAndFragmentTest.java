package io.nccldoctor.pcie;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.InputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Two real matrices (corpus/nvidia-smi-topo/README.md): one kept as shell comments, every line behind "# ", and a
 * fragment of four NIC rows of a 42-NIC H20 matrix, without header or GPU rows, whose columns only nvidia-smi's order
 * names.
 */
class SmiTopoMarkedAndFragmentTest {

    private static final Path CORPUS = Path.of("../corpus/nvidia-smi-topo");

    private static List<String> lines(String name) throws IOException {
        return Files.readAllLines(CORPUS.resolve(name), StandardCharsets.UTF_8);
    }

    @Test
    void aMatrixKeptAsShellCommentsIsReadWithoutTheMarks() throws IOException {
        List<String> text = lines("nvidia-smi-topo-4gpu-nv4-every-line-commented.txt");
        SmiTopoMatrix m = SmiTopoMatrix.parse(text, "commented.txt");
        assertThat(m.devices()).containsExactly("GPU0", "GPU1", "GPU2", "GPU3");
        assertThat(m.cells().get("GPU0")).containsEntry("GPU1", "NV4").containsEntry("GPU3", "NV4");
        assertThat(m.cpuAffinity()).containsEntry("GPU0", "48-63,112-127").containsEntry("GPU3", "0-15,64-79");
        assertThat(m.numaAffinity()).containsEntry("GPU0", "3").containsEntry("GPU1", "2").containsEntry("GPU2", "1").containsEntry("GPU3", "0");
        assertThat(m.matrix()).as("the commented command line asks for -m").isEqualTo("topo -m");
        assertThat(m.skipped()).isEmpty();
        SmiTopoMatrix plain = SmiTopoMatrix.parse(text.stream().map(l -> l.substring(2)).toList(), "plain.txt");
        assertThat(m.cells()).isEqualTo(plain.cells());
        assertThat(m.numaAffinity()).isEqualTo(plain.numaAffinity());
    }

    @Test
    void aRootPromptAboveAnUnmarkedMatrixIsNoCommonMark() throws IOException {
        SmiTopoMatrix m = SmiTopoMatrix.parse(lines("nvidia-smi-topo-mp-8gpu-14nic-gpu4-row-cut.txt"), "mp.txt");
        assertThat(m.matrix()).as("the prompt line keeps its command: -mp").isEqualTo("topo -mp");
        assertThat(m.devices()).hasSize(22);
    }

    @Test
    void nicRowsAloneAreNamedByNvidiaSmisOrderWhenTheirXsAgree() throws IOException {
        SmiTopoMatrix m = SmiTopoMatrix.parse(lines("nvidia-smi-topo-h20-nic30-33-rows-fragment.txt"), "h20.txt");
        assertThat(m.devices()).hasSize(50).startsWith("GPU0", "GPU1", "GPU2", "GPU3", "GPU4", "GPU5", "GPU6", "GPU7", "NIC0").endsWith("NIC41");
        assertThat(m.cells()).containsOnlyKeys("NIC30", "NIC31", "NIC32", "NIC33");
        assertThat(m.cells().get("NIC30")).hasSize(50).containsEntry("GPU0", "SYS").containsEntry("GPU3", "SYS").containsEntry("GPU4", "NODE")
                .containsEntry("NIC29", "PIX").containsEntry("NIC30", "X").containsEntry("NIC33", "PIX").containsEntry("NIC34", "SYS")
                .containsEntry("NIC41", "NODE");
        assertThat(m.cells().get("NIC32")).containsEntry("NIC32", "X");
        assertThat(m.cells().get("NIC33")).as("cut after 13 cells: GPU0-GPU7, NIC0-NIC4, nothing shifted").hasSize(13)
                .containsEntry("GPU7", "NODE").containsEntry("NIC4", "PIX").doesNotContainKey("NIC5");
        assertThat(m.skipped()).hasSize(2);
        assertThat(m.skipped().get(0)).startsWith("1: no header line above the rows: the columns were named by nvidia-smi's order")
                .contains("NIC30's X stands in column 39, so columns 1-8 are GPU0-GPU7 and 9-50 are NIC0-NIC41")
                .contains("3 of the 50 columns are named by their own row's X: NIC30, NIC31, NIC32");
        assertThat(m.skipped().get(1)).isEqualTo("4: row NIC33 has 13 of 50 cells (cut?)");
    }

    @Test
    void gpuRowsAloneStillCannotSayWhereTheNicsStart() throws IOException {
        List<String> text = lines("nvidia-smi-topo-b200-rows-without-header.txt");
        assertThatThrownBy(() -> SmiTopoMatrix.parse(text, "b200.txt")).isInstanceOf(InputException.class)
                .hasMessageContaining("no row in the text names columns 8-20")
                .hasMessageContaining("nvidia-smi's order (GPUs, then NICs) does not name them either: no NIC row's X in the text says where "
                        + "the GPU columns end")
                .hasMessageNotContaining("\n");
    }
}
