package io.nccldoctor.reports.baseline;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.pcie.SmiTopoMatrix;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What real inputs (corpus/, cited in each folder's README) show about how a run moved its bytes. */
class NotesTest {

    static final Path CORPUS = Path.of("../corpus");

    static List<String> lines(String file) throws IOException {
        return Files.readAllLines(CORPUS.resolve(file), StandardCharsets.UTF_8);
    }

    static List<Note> companion(String file) throws IOException {
        List<Note> out = new ArrayList<>();
        assertThat(Companions.read(lines(file), file, out)).as("%s is read as a companion input", file).isTrue();
        return out;
    }

    @Test
    void theP2pMatrixOfTwoRtx2080TiSaysNotSupported() throws IOException {
        List<Note> n = companion("nvidia-smi-topo/nvidia-smi-topo-p2p-p-autodl-2x-rtx2080ti-ns.txt");
        assertThat(n).singleElement().satisfies(x -> {
            assertThat(x.kind()).isEqualTo(Note.Kind.P2P_OFF);
            assertThat(x.text()).startsWith("nvidia-smi topo -p2p: GPU0-GPU1: NS");
        });
    }

    @Test
    void theSameMachinesPathMatrixShowsNeitherSysNorNvlink() throws IOException {
        assertThat(companion("nvidia-smi-topo/nvidia-smi-topo-autodl-2x-rtx2080ti-pix-container.txt")).as("PIX: one PCIe switch").isEmpty();
    }

    @Test
    void anAzureVmWithEveryPairSocIsASysPath() throws IOException {
        List<Note> n = companion("nvidia-smi-topo/nvidia-smi-topo-azure-nv24-4x-m60-vm-soc.txt");
        assertThat(n).extracting(Note::kind).containsExactly(Note.Kind.SYS_PATH);
        assertThat(n.get(0).text()).contains("GPU0-GPU1 SOC");
    }

    @Test
    void anH100P2pReadMatrixAllOkIsNoCause() throws IOException {
        List<Note> n = companion("nvidia-smi-topo/nvidia-smi-topo-p2p-r-h100-8gpu-not-topo-m.txt");
        assertThat(n).isEmpty();
    }

    @Test
    void aKataGuestIsAVirtualMachineAndItsHostIsNot() throws IOException {
        List<Note> vm = companion("lspci-tree/lspci-tree-kata-vm-a100-bf2-root-ports.txt");
        assertThat(vm).singleElement().satisfies(x -> {
            assertThat(x.kind()).isEqualTo(Note.Kind.VM);
            assertThat(x.text()).contains("Red Hat, Inc. Virtio console");
        });
        assertThat(companion("lspci-tree/lspci-tree-kata-host-a100x-bf2-two-fragments.txt")).isEmpty();
        assertThat(companion("lspci-tree/lspci-tree-asus-esc8000a-genoa-rtx6000ada-cx7.txt")).as("a bare-metal server").isEmpty();
    }

    @Test
    void aSocketLogAndALogWithoutGdrdmaNameTheirCauses() {
        NcclLog socket = NcclLog.parse(CORPUS.resolve("nccl-log/nccl-log-gke-a3high-h100-2.22.3-socket-no-rdma-grep-excerpt.txt"));
        List<Note> s = Notes.fromLog(socket, "a3high");
        // its "NET/Socket : GPU Direct RDMA Disabled for HCA 0 'eth0'" line names the socket network, which never does
        // GDR: the cause is sockets, not a bounce buffer of an RDMA NIC
        assertThat(s).extracting(Note::kind).contains(Note.Kind.SOCKET).doesNotContain(Note.Kind.NO_GDR);
        assertThat(socket.nicGdr()).extracting(NcclLog.NicGdr::line).anyMatch(t -> t.contains("GPU Direct RDMA Disabled for HCA 0 'eth0'"));

        // aws-ofi-nccl's channels say "via NET/AWS Libfabric/0" (g4dn.metal) and "via NET/AWS Libfabric/0/GDRDMA" (p4d): the
        // transport keeps its name with the space, so the missing /GDRDMA is judged
        NcclLog metal = NcclLog.parse(CORPUS.resolve("nccl-log/nccl-log-efa-t4-g4dn-metal-2.12.7-no-gdrdma-with-table.txt"));
        NcclLog p4d = NcclLog.parse(CORPUS.resolve("nccl-log/nccl-log-efa-p4d-2.9.9-mpi-tag-with-table-16rank.txt"));
        List<Note> m = Notes.fromLog(metal, "g4dn.metal");
        List<Note> p = Notes.fromLog(p4d, "p4d");
        assertThat(p).as("p4d's channels say /GDRDMA").extracting(Note::kind).doesNotContain(Note.Kind.NO_GDR);
        assertThat(metal.transports()).containsKey("NET/AWS Libfabric/0").doesNotContainKey("NET/AWS");
        assertThat(m).extracting(Note::kind).containsExactly(Note.Kind.NO_GDR);
        assertThat(m.get(0).text()).startsWith("8 network channel connections without /GDRDMA (NET/AWS Libfabric/0)");
    }

    @Test
    void theIbDeviceLineCountsTheNics() {
        NcclLog ib = NcclLog.parse(CORPUS.resolve("nccl-log/nccl-log-stripped-ib-using-8hca.txt"));
        Nics n = Notes.nicsFromLog(ib, "ib").orElseThrow();
        assertThat(n.perNode()).isEqualTo(8);
        assertThat(n.rateGbps().isValue()).as("the device line gives no rate").isFalse();
    }

    @Test
    void commandLineSettingsThatChangeThePath() {
        List<Note> n = Notes.fromEnv(Map.of("NCCL_P2P_DISABLE", "1", "NCCL_NET", "Socket", "NCCL_NET_GDR_LEVEL", "LOC",
                "NCCL_ALGO", "Ring", "NCCL_DEBUG", "INFO"), "cmd");
        assertThat(n).extracting(Note::kind).containsExactlyInAnyOrder(Note.Kind.P2P_OFF, Note.Kind.SOCKET, Note.Kind.NO_GDR,
                Note.Kind.ALGORITHM);
        assertThat(Notes.fromEnv(Map.of("NCCL_P2P_DISABLE", "0", "NCCL_NET_GDR_LEVEL", "PHB"), "cmd")).isEmpty();
    }

    @Test
    void theRtx2080TiMatrixAsSmiTopoHasNoNvlink() throws IOException {
        SmiTopoMatrix m = SmiTopoMatrix.parse(lines("nvidia-smi-topo/nvidia-smi-topo-autodl-2x-rtx2080ti-pix-container.txt"), "pix");
        assertThat(Notes.fromSmiTopo(m, "pix")).isEmpty();
    }
}
