package io.nccldoctor.gdr.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Real pastes that showed a shape the reader missed: a command in Markdown inline code, rdma link lines whose shape
 * tells the link layer, mlxfwmanager blocks before ibstatus, show_gids finding no GID, EFA's "unspecified" transport.
 * Each is read from the corpus file copied verbatim from its source (corpus/rdma/README.md).
 */
class RealPasteShapesTest {

    static final Path CORPUS = Path.of("../corpus/rdma");

    static RdmaPaste read(String file) throws IOException {
        return RdmaTextReader.parse(Files.readAllLines(CORPUS.resolve(file)), file);
    }

    @Test
    void aCommandInInlineCodeNamesTheInterfaceOfTheCountersBelowIt() throws IOException {
        RdmaPaste p = read("ethtool-s-prio-grep-command-in-backticks.txt");
        assertThat(p.kinds()).containsExactly(RdmaKind.ETHTOOL);
        Map<String, String> f = PasteFactsView.of(p);
        assertThat(f).containsEntry("ethtool enp178s0f0", "32").containsEntry("ethtool enp178s0f0 rx_prio0_bytes", "88034564921216")
                .containsEntry("ethtool enp178s0f0 tx_prio7_packets", "0");
        assertThat(p.notUnderstood()).extracting(RdmaPaste.Unread::text).containsExactly("Before benchmarking:");
        assertThat(p.lines().facts()).isEqualTo(32);
    }

    @Test
    void commandLinesInBackticksAndPromptsAreCommands() {
        assertThat(Command.of("`ethtool -S enp178s0f0 |grep prio`")).get().extracting(c -> c.option("-S").orElse("")).isEqualTo("enp178s0f0");
        assertThat(Command.of("``mlnx_qos -i eth4``")).get().extracting(Command::tool).isEqualTo("mlnx_qos");
        assertThat(Command.of("`$ show_gids`")).get().extracting(Command::tool).isEqualTo("show_gids");
        assertThat(Command.of("user@host:~$ ethtool -S eth0")).get().extracting(Command::tool).isEqualTo("ethtool");
        assertThat(Command.of("# ibdev2netdev")).get().extracting(Command::tool).isEqualTo("ibdev2netdev");
        // inline code that is no command, and a counter line, stay output
        assertThat(Command.of("`mlx5_0`")).isEmpty();
        assertThat(Command.of("     rx_prio0_bytes: 88034564921216")).isEmpty();
    }

    /** nldev sends lid/sm_lid/subnet_prefix for InfiniBand ports only: the line's shape tells the link layer. */
    @Test
    void rdmaLinkLinesGiveTheLinkLayerByTheirShapeAndSayItIsInferred() throws IOException {
        RdmaPaste p = read("rdma-link-ib-sriov-pf-disabled-and-eth-port.txt");
        Map<String, String> f = PasteFactsView.of(p);
        assertThat(f).containsEntry("mlx5_1/1 link layer", "InfiniBand").containsEntry("mlx5_1/1 lid", "65535")
                .containsEntry("mlx5_1/1 phys", "Disabled").containsEntry("mlx5_4/1 link layer", "Ethernet")
                .containsEntry("mlx5_4/1 netdevs", "enp97s0f0");
        for (int i = 0; i <= 8; i++) {
            assertThat(f.get("mlx5_" + i + "/1 link layer")).isEqualTo(i == 4 ? "Ethernet" : "InfiniBand");
        }
        assertThat(p.notes()).anyMatch(n -> n.startsWith("link layer InfiniBand, inferred (no tool in the input printed it) for "
                + "mlx5_0 port 1 (rdma link, line 13), mlx5_1 port 1 (rdma link, line 14)") && n.contains("mlx5_8 port 1 (rdma link, line 21)")
                && !n.contains("mlx5_4")).anyMatch(n -> n.equals("link layer Ethernet, inferred (no tool in the input printed it) for "
                + "mlx5_4 port 1 (rdma link, line 17): rdma link printed no lid or sm_lid, which the kernel sends for every InfiniBand "
                + "port, and the port has a net device (RoCE or iWARP)"));
    }

    @Test
    void oldRdmaLinkLinesTakeTheirNetDeviceFromIbdev2netdev() throws IOException {
        Map<String, String> f = PasteFactsView.of(read("ibdev2netdev-rdma-link-old-format-mixed-ib-eth.txt"));
        assertThat(f).containsEntry("mlx5_5/1 link layer", "InfiniBand").containsEntry("mlx5_5/1 lid", "12")
                .containsEntry("mlx5_0/1 link layer", "Ethernet").containsEntry("mlx5_0/1 phys", "Disabled")
                .containsEntry("mlx5_2/1 link layer", "Ethernet");
        assertThat(PasteFactsView.of(read("rdma-link-rxe-softroce-with-ip-addr.txt"))).containsEntry("rxe_0/1 link layer", "Ethernet");
    }

    /** Without a net device a line without lid fields is RoCE, iWARP or EFA: the link layer stays absent, saying so. */
    @Test
    void aPlainRdmaLinkLineWithoutANetDeviceLeavesTheLinkLayerAbsentWithItsReason() {
        RdmaPaste p = RdmaTextReader.parse(List.of("$ rdma link", "link efa_0/1 state ACTIVE physical_state LINK_UP"), "efa");
        assertThat(PasteFactsView.of(p).get("efa_0/1 link layer")).startsWith("absent: not in the input (rdma link printed no lid")
                .contains("RoCE, iWARP or EFA");
    }

    @Test
    void mlxfwmanagerBlocksAreReadAndTheIbstatusAfterThemToo() throws IOException {
        RdmaPaste p = read("mlxfwmanager-ibstatus-cx3-vpi-ib-and-eth-port.txt");
        assertThat(p.kinds()).containsExactly(RdmaKind.MLXFWMANAGER, RdmaKind.IBSTATUS);
        assertThat(p.notUnderstood()).isEmpty();
        assertThat(p.adapters()).hasSize(2);
        RdmaPaste.Adapter first = p.adapters().get(0);
        assertThat(first.line()).isEqualTo(1);
        assertThat(first.fw().get()).isEqualTo("2.36.5150");
        assertThat(first.fwAvailable().get()).isEqualTo("2.36.5000");
        assertThat(first.psid().get()).isEqualTo("MT_1090110018");
        assertThat(first.partNumber().get()).isEqualTo("MCX354A-QCB_Ax");
        assertThat(first.pci().get()).isEqualTo("42:00.0");
        assertThat(first.status().get()).isEqualTo("Up to date");
        assertThat(p.adapters().get(1).fw().get()).isEqualTo("2.42.5000");
        assertThat(p.adapters().get(1).line()).isEqualTo(17);
        assertThat(p.notes()).anyMatch(n -> n.startsWith("mlxfwmanager: 2 blocks name PCI device 42:00.0 (lines 1 firmware 2.36.5150, "
                + "17 firmware 2.42.5000)"));
        Map<String, String> f = PasteFactsView.of(p);
        assertThat(f).containsEntry("devices", "1").containsEntry("mlx4_0/1 link layer", "InfiniBand")
                .containsEntry("mlx4_0/2 link layer", "Ethernet").containsEntry("mlx4_0/2 state", "ACTIVE");
        assertThat(p.headed()).isTrue();
    }

    @Test
    void showGidsFindingNoGidSaysSoInsteadOfNoDevice() throws IOException {
        RdmaPaste p = read("show-gids-none-found-in-pod.txt");
        // ibv_devices at its end names mlx5_0 (IbvDevicesAndGidListingTest); without it, no device is named
        RdmaPaste cut = RdmaTextReader.parse(Files.readAllLines(CORPUS.resolve("show-gids-none-found-in-pod.txt")).subList(0, 42), "cut");
        assertThat(cut.rdma().devices().isValue()).isFalse();
        assertThat(cut.rdma().devices().reason()).startsWith("show_gids, run without a device argument, found no GID on any port of "
                + "any device it could see (n_gids_found=0, show_gids, line 4)").contains("cannot connect");
        assertThat(p.notes()).anyMatch(n -> n.startsWith("show_gids, run without a device argument, found no GID on any port of any device"));
    }

    /** rdma-core before 33 printed "InfiniBand" for EFA's unspecified link layer (PR #884). */
    @Test
    void anEfaPortPrintedAsInfiniBandIsReadAsUnknown() throws IOException {
        RdmaPaste p = read("ibv-devinfo-efa-transport-unspecified.txt");
        assertThat(PasteFactsView.of(p)).containsEntry("efa_0/1 link layer", "Unknown").containsEntry("efa_0/1 state", "ACTIVE");
        assertThat(p.notes()).anyMatch(n -> n.startsWith("efa_0 link layer: printed InfiniBand, read as Unknown (ibv_devinfo, line 18)"));
        RdmaPaste ib = RdmaTextReader.parse(List.of("hca_id:\tmlx5_0", "\ttransport:\t\t\tInfiniBand (0)", "\t\tport:\t1",
                "\t\t\tlink_layer:\t\tInfiniBand"), "ib");
        assertThat(PasteFactsView.of(ib)).containsEntry("mlx5_0/1 link layer", "InfiniBand");
    }
}
