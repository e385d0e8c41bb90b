package io.nccldoctor.pcie;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.InputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Real nvidia-smi matrices (corpus/nvidia-smi-topo/README.md names each source) in shapes the reader must label or
 * refuse for what they are: `nvidia-smi topo -mp` (PCIe paths only), a row cut short, and rows pasted without their
 * header line.
 */
class SmiTopoPastedShapesTest {

    private static final Path CORPUS = Path.of("../corpus/nvidia-smi-topo");
    private static final Path FIXTURES = Path.of("src/test/resources/fixtures/public");

    private static List<String> lines(Path file) throws IOException {
        return Files.readAllLines(file, StandardCharsets.UTF_8);
    }

    @Test
    void topoMpIsLabelledAsThePcieOnlyMatrix() throws IOException {
        SmiTopoMatrix m = SmiTopoMatrix.parse(lines(CORPUS.resolve("nvidia-smi-topo-mp-8gpu-14nic-gpu4-row-cut.txt")), "mp");
        assertThat(m.matrix()).isEqualTo("topo -mp");
        assertThat(m.pciOnly()).isTrue();
        assertThat(m.p2p()).isFalse();
        assertThat(m.devices()).hasSize(22);
        assertThat(m.cells().get("GPU0")).containsEntry("NIC0", "PIX").containsEntry("GPU4", "SYS");
        assertThat(m.cells().get("GPU3")).containsEntry("NIC7", "PIX");
        assertThat(m.cells().get("GPU4")).containsEntry("NIC6", "SYS").doesNotContainKeys("NIC7", "NIC8", "NIC13");
        assertThat(m.skipped()).anySatisfy(s -> assertThat(s).contains("unknown cell 'SY' for GPU4/NIC7"))
                .anySatisfy(s -> assertThat(s).contains("row GPU4 has 16 of 22 cells (cut?)"));
    }

    @Test
    void aMatrixWithoutTheMpCommandLineStaysTopoM() throws IOException {
        List<String> text = lines(CORPUS.resolve("nvidia-smi-topo-mp-8gpu-14nic-gpu4-row-cut.txt"));
        assertThat(SmiTopoMatrix.parse(text.subList(1, text.size()), "no command").matrix()).isEqualTo("topo -m");
    }

    /** SYNTHETIC command line: a `topo -mp` line above a matrix with NVLink cells, which -mp never prints. */
    @Test
    void nvlinkCellsUnderAnMpCommandLineAreSaidAndReadAsTopoM() throws IOException {
        List<String> text = new ArrayList<>(List.of("$ nvidia-smi topo -mp"));
        text.addAll(lines(FIXTURES.resolve("nvidia-smi-topo-h100-8gpu-8nic-pix.txt")));
        SmiTopoMatrix m = SmiTopoMatrix.parse(text, "nv");
        assertThat(m.matrix()).isEqualTo("topo -m");
        assertThat(m.skipped()).anySatisfy(s -> assertThat(s).contains("asks for `topo -mp`").contains("NVLink cells (GPU0/GPU1 NV18"));
    }

    @Test
    void rowsWithoutTheirHeaderAreRefusedWhenNoRowNamesSomeColumns() throws IOException {
        List<String> text = lines(CORPUS.resolve("nvidia-smi-topo-b200-rows-without-header.txt"));
        assertThatThrownBy(() -> SmiTopoMatrix.parse(text, "b200.txt")).isInstanceOf(InputException.class)
                .hasMessageContaining("b200.txt:1: matrix rows without their header line: 7 of the 20 columns are named by the row whose X "
                        + "stands in them (GPU0, GPU1, GPU2, GPU3, GPU4, GPU5, GPU6), but no row in the text names columns 8-20")
                .hasMessageNotContaining("\n");
    }

    /** The real H100 matrix with its header line cut off: every column is named by its row's X, so it reads the same. */
    @Test
    void rowsWithoutTheirHeaderAreReadWhenEveryColumnIsNamed() throws IOException {
        List<String> whole = lines(FIXTURES.resolve("nvidia-smi-topo-h100-8gpu-8nic-pix.txt"));
        SmiTopoMatrix withHeader = SmiTopoMatrix.parse(whole, "whole");
        SmiTopoMatrix bare = SmiTopoMatrix.parse(whole.subList(1, whole.size()), "bare");
        assertThat(bare.devices()).isEqualTo(withHeader.devices()).hasSize(16);
        assertThat(bare.cells()).isEqualTo(withHeader.cells());
        assertThat(bare.nicLegend()).isEqualTo(withHeader.nicLegend());
        assertThat(bare.cpuAffinity()).as("no column names for the values after the matrix").isEmpty();
        assertThat(bare.skipped()).singleElement().asString().startsWith("1: no header line above the rows");
    }
}
