package io.nccldoctor.pcie;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Real pastes of the corpus (sources in corpus/lspci-verbose/README.md, corpus/nvidia-smi-topo/README.md and
 * corpus/nccl-topo-xml/README.md) whose text stops short or lacks what a reader might invent: a cut line of lspci, the
 * one NIC row of a matrix without header, a topology dump without vendor ids, a P2P matrix with the newer legend.
 */
class CutPastesAndUnknownIdsTest {

    private static final Path CORPUS = Path.of("../corpus");

    private static String text(String path) throws IOException {
        return Files.readString(CORPUS.resolve(path), StandardCharsets.UTF_8);
    }

    /** hwloc#653: the A100's block ends at "\t\tLn", before LnkCap: said, not passed over as a continuation line. */
    @Test
    void aCutAttributeNameAtTheEndIsSaid() throws IOException {
        String name = "lspci-verbose/lspci-vvvnn-a100-sxm4-numa5-cut-ln-hwloc653.txt";
        PciReading r = PciReading.lspciVerbose(text(name), name);
        assertThat(r.devices()).singleElement().satisfies(d -> {
            assertThat(d.address()).isEqualTo("0000:da:00.0");
            assertThat(d.numaNode().get()).isEqualTo(5);
            assertThat(d.config().maxReadRequest().get()).isEqualTo(512);
            assertThat(d.link().speedGTps().isAbsent()).as("no LnkSta in the text").isTrue();
        });
        assertThat(r.notUnderstood()).as("the cut line and what it hides")
                .anyMatch(p -> p.endsWith(":22: the text ends in a cut line `Ln` inside 0000:da:00.0's block: what lspci prints "
                        + "after it (the link lines among them) is not in the text"));
    }

    /** A whole last line of flags is no cut: the A100 paste without its cut line says nothing about a cut. */
    @Test
    void aWholeLastLineIsNoCut() throws IOException {
        String name = "lspci-verbose/lspci-vvvnn-a100-sxm4-numa5-cut-ln-hwloc653.txt";
        String whole = text(name).substring(0, text(name).lastIndexOf('\n'));
        assertThat(PciReading.lspciVerbose(whole, name).notUnderstood()).noneMatch(p -> p.contains("cut line"));
    }

    /** sglang#29162: NIC23's row alone (no header): a NIC row has no values after the matrix, so none are said unread. */
    @Test
    void aHeaderlessNicRowHasNoUnnamedAffinityValues() throws IOException {
        SmiTopoMatrix m = SmiTopoMatrix.parse(text("nvidia-smi-topo/nvidia-smi-topo-nic23-row-legends-24nic-no-header-sglang29162.txt")
                .lines().toList(), "nic23");
        assertThat(m.headerless()).isTrue();
        assertThat(m.devices()).hasSize(28).startsWith("GPU0", "GPU1", "GPU2", "GPU3", "NIC0").endsWith("NIC23");
        assertThat(m.cells().get("NIC23")).containsEntry("GPU3", "PXB").containsEntry("NIC22", "PIX").containsEntry("NIC13", "SYS");
        assertThat(m.name("NIC23")).isEqualTo("mlx5_23");
        assertThat(m.skipped()).anyMatch(s -> s.endsWith("; no row has values after the matrix"))
                .noneMatch(s -> s.contains("have no column names"));
    }

    /** nccl#507: `<pci>` elements with busid and class only: the ids print as unknown, not as a vendor 0000. */
    @Test
    void aPciElementWithoutIdsShowsThemUnknown() throws IOException {
        String name = "nccl-topo-xml/nccl-topo-dump-v100-no-vendor-ids-cut-nccl507.xml";
        PciReading r = PciReading.ncclTopoXml(text(name), name);
        assertThat(r.devices()).extracting(PciDevice::address)
                .containsExactly("0000:2c:00.0", "0000:37:00.0", "0000:39:00.0", "0000:3b:00.0");
        assertThat(r.devices()).extracting(PciDevice::ids).containsOnly("?:?");
        assertThat(r.devices()).filteredOn(d -> d.kind() == DeviceKind.GPU).hasSize(2);
    }

    /** club-3090#1124: a `topo -p2p` matrix, each line led by a space and a tab; GNS read as a P2P status. */
    @Test
    void aP2pMatrixWithTheRegkeyLegendIsRead() throws IOException {
        SmiTopoMatrix m = SmiTopoMatrix.parse(text("nvidia-smi-topo/nvidia-smi-topo-p2p-2x-rtx5090-gns-dr-legend-club3090.txt")
                .lines().toList(), "p2p");
        assertThat(m.p2p()).isTrue();
        assertThat(m.cells().get("GPU0")).containsEntry("GPU1", "GNS");
        assertThat(m.skipped()).isEmpty();
    }

    /** Synthetic: the same matrix with a DR cell (the status the newer legend adds) is still a P2P matrix. */
    @Test
    void aDisabledByRegkeyCellIsAP2pStatus() {
        SmiTopoMatrix m = SmiTopoMatrix.parse(List.of(" \tGPU0\tGPU1\t", " GPU0\tX\tDR\t", " GPU1\tDR\tX\t"), "dr");
        assertThat(m.p2p()).isTrue();
        assertThat(m.cells().get("GPU1")).containsEntry("GPU0", "DR");
    }

    /** club-3090#741: the tree's last line keeps the root bus's '|' (more children to come): the cut is said. */
    @Test
    void aTreeWhoseLastLineKeepsAnOpenBranchIsCut() throws IOException {
        String name = "lspci-tree/lspci-tree-t-no-names-3090-nested-switches-cut-club3090-741.txt";
        PciReading r = PciReading.lspciTree(text(name), name);
        assertThat(r.devices()).hasSize(41);
        assertThat(r.devices()).filteredOn(d -> d.kind() == DeviceKind.BRIDGE).hasSize(22);
        assertThat(r.notUnderstood()).anyMatch(p -> p.endsWith(":23: the tree is cut: its last line still has a '|' of a bus with "
                + "more children to come, so the functions lspci printed after it are not in the text"));
    }

    /** The Kata host's tree ends as lspci ends a tree ("\-" and spaces only): no cut is said. */
    @Test
    void aTreeEndingInTheLastBranchIsWhole() throws IOException {
        String name = "lspci-tree/lspci-tree-kata-vm-a100-bf2-root-ports.txt";
        assertThat(PciReading.lspciTree(text(name), name).notUnderstood()).noneMatch(p -> p.contains("the tree is cut"));
    }
}
