package io.nccldoctor.gdr.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every RDMA state fixture in fixtures/public (the README there cites each source and states these facts) through
 * the reader: which tools were recognised, which lines were not understood, and the key facts, from a table.
 */
class RdmaTextReaderTest {

    static final Path PUBLIC = Path.of("src/test/resources/fixtures/public");

    /**
     * @param unread the numbers of the lines that must be listed as not understood, no more, no fewer
     * @param facts  entries the flattened facts (PasteFactsView) must contain
     */
    record Row(String file, List<RdmaKind> kinds, List<Integer> unread, Map<String, String> facts) {
        @Override
        public String toString() {
            return file;
        }
    }

    static Stream<Row> rows() {
        return Stream.of(
                new Row("ibv-devinfo-cx5-roce.txt", List.of(RdmaKind.IBV_DEVINFO), List.of(), Map.of("mlx5_0 fw", "16.23.1020",
                        "mlx5_0 guid", "506b:4b03:0028:4ddc", "mlx5_0 part", "4119", "mlx5_0/1 state", "ACTIVE",
                        "mlx5_0/1 active mtu", "1024", "mlx5_0/1 max mtu", "4096", "mlx5_0/1 link layer", "Ethernet",
                        "mlx5_0/1 sm lid", "0")),
                new Row("ibv-devinfo-cx7-roce.txt", List.of(RdmaKind.IBV_DEVINFO), List.of(), Map.of("devices", "1",
                        "mlx5_2 fw", "28.42.1000", "mlx5_2 part", "4129", "mlx5_2/1 active mtu", "4096", "mlx5_2/1 state", "ACTIVE")),
                new Row("ibv-devinfo-cx7-vf-infiniband.txt", List.of(RdmaKind.IBV_DEVINFO), List.of(), Map.of("mlx5_3 part", "4126",
                        "mlx5_3 fw", "28.37.1700", "mlx5_3/1 lid", "1690", "mlx5_3/1 sm lid", "1", "mlx5_3/1 link layer", "InfiniBand")),
                new Row("ibv-devinfo-mlx4-ib-two-hcas.txt", List.of(RdmaKind.IBV_DEVINFO), List.of(), Map.of("devices", "2",
                        "mlx4_1 part", "4099", "mlx4_1 fw", "2.42.5000", "mlx4_1/1 state", "ACTIVE", "mlx4_1/1 lid", "22",
                        "mlx4_1/2 state", "DOWN", "mlx4_0/1 lid", "32", "mlx4_0/1 sm lid", "18", "mlx4_0/2 state", "DOWN")),
                new Row("ibv-devinfo-v-mlx4-port2-polling.txt", List.of(RdmaKind.IBV_DEVINFO), List.of(), Map.of("mlx4_1/2 state", "DOWN",
                        "mlx4_1/2 phys", "Polling", "mlx4_1/2 gbps", "10.0", "mlx4_1/2 gids", "1",
                        "mlx4_1/2 gid 0", "fe80:0000:0000:0000:7cfe:9003:00a5:95c2 ? ?")),
                new Row("ibv-devinfo-vf-port-init-retyped.txt", List.of(RdmaKind.IBV_DEVINFO), List.of(17), Map.of("mlx5_7/1 state", "INIT",
                        "mlx5_7/1 sm lid", "4", "mlx5_7 part", "4126", "mlx5_7 fw", "28.39.3004")),
                new Row("ibv-devinfo-cx6dx-roce-mtu1024-cx6-ib.txt", List.of(RdmaKind.IBV_DEVINFO), List.of(), Map.of("devices", "3",
                        "mlx5_0/1 active mtu", "1024", "mlx5_0/1 state", "ACTIVE", "mlx5_1/1 state", "DOWN", "mlx5_0 part", "4125",
                        "mlx5_2 part", "4123", "mlx5_2 fw", "20.43.2026", "mlx5_2/1 lid", "7", "mlx5_2/1 sm lid", "9")),
                new Row("ibv-devinfo-cx7-ib-down-lid65535.txt", List.of(RdmaKind.IBV_DEVINFO), List.of(), Map.of("mlx5_0/1 state", "DOWN",
                        "mlx5_0/1 lid", "65535", "mlx5_0/1 link layer", "InfiniBand", "mlx5_0 part", "4129")),
                new Row("ibstat-cx7-roce.txt", List.of(RdmaKind.IBSTAT), List.of(), Map.of("devices", "2", "mlx5_0 fw", "28.39.1002",
                        "mlx5_0 part", "4129", "mlx5_0 guid", "58a2:e103:00da:e626", "mlx5_1 guid", "58a2:e103:00da:e627",
                        "mlx5_1/1 state", "ACTIVE", "mlx5_1/1 phys", "LinkUp", "mlx5_1/1 gbps", "200.0", "mlx5_1/1 link layer", "Ethernet")),
                new Row("ibstat-vf-down-lid65535.txt", List.of(RdmaKind.IBSTAT), List.of(), Map.of("mlx5_7/1 state", "DOWN",
                        "mlx5_7/1 phys", "LinkUp", "mlx5_7/1 lid", "65535", "mlx5_7/1 sm lid", "1", "mlx5_7 part", "4124",
                        "mlx5_7 guid", "9aec:dde4:e1e6:42ba")),
                new Row("ibstat-cx6dx-roce-log-heading.txt", List.of(RdmaKind.IBSTAT), List.of(1, 2), Map.of("devices", "2",
                        "mlx5_0 part", "4125", "mlx5_1 fw", "22.32.2004", "mlx5_0/1 gbps", "100.0")),
                new Row("lsmod-ls-l-ibstat-cx4-ib-init-no-sm.txt", List.of(RdmaKind.LS, RdmaKind.IBSTAT),
                        List.of(2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13), Map.of("devices", "1", "mlx5_0 pci", "0000:04:00.0",
                        "mlx5_0 fw", "12.20.1010", "mlx5_0/1 state", "INIT", "mlx5_0/1 phys", "LinkUp", "mlx5_0/1 lid", "65535",
                        "mlx5_0/1 sm lid", "0", "mlx5_0/1 link layer", "InfiniBand")),
                new Row("sysfs-ib-ibstatus-roce-100g.txt", List.of(RdmaKind.IBSTATUS), List.of(), Map.of("devices", "2",
                        "mlx5_0/1 state", "ACTIVE", "mlx5_0/1 phys", "LinkUp", "mlx5_0/1 rate", "100 Gb/sec (4X EDR)",
                        "mlx5_1/1 gbps", "100.0", "mlx5_1/1 link layer", "Ethernet", "mlx5_1/1 lid", "0",
                        "mlx5_1/1 gids", "absent: no GID table of this port in the input (show_gids or ibv_devinfo -v print it)")),
                new Row("show-gids-cx6.txt", List.of(RdmaKind.SHOW_GIDS), List.of(), Map.of("mlx5_0/1 gids", "6",
                        "mlx5_0/1 gid 5", "0000:0000:0000:0000:0000:ffff:ac13:003c RoCE v2 ens1f0",
                        "mlx5_0/1 gid 4", "0000:0000:0000:0000:0000:ffff:ac13:003c IB/RoCE v1 ens1f0",
                        "mlx5_0/1 netdevs", "ens1f0", "mlx5_0/1 link layer", "Ethernet")),
                new Row("show-gids-k8s-macvlan-pod.txt", List.of(RdmaKind.SHOW_GIDS), List.of(), Map.of("mlx5_0/1 gids", "4",
                        "mlx5_0/1 gid 7", "0000:0000:0000:0000:0000:ffff:0a98:000c RoCE v2 net1",
                        "mlx5_1/1 gid 7", "0000:0000:0000:0000:0000:ffff:0a98:040c RoCE v2 net2")),
                new Row("show-gids-indented-two-hcas.txt", List.of(RdmaKind.SHOW_GIDS), List.of(), Map.of("devices", "2",
                        "mlx5_0/1 gid 3", "0000:0000:0000:0000:0000:ffff:0b00:0048 RoCE v2 ens3np0",
                        "mlx5_1/1 gid 1", "fe80:0000:0000:0000:a288:c2ff:fe5b:0374 RoCE v2 ens2np0")),
                new Row("rdma-link-cx6dx.txt", List.of(RdmaKind.RDMA_LINK), List.of(), Map.of("mlx5_0/1 state", "ACTIVE",
                        "mlx5_0/1 phys", "LinkUp", "mlx5_0/1 netdevs", "p1p1", "mlx5_1/1 netdevs", "p1p2")),
                new Row("rdma-link-dev-ibstat-bnxt-re-cut.txt", List.of(RdmaKind.RDMA_LINK, RdmaKind.RDMA_DEV, RdmaKind.IBSTAT),
                        List.of(3, 13), Map.of("bnxt_re0 fw", "231.0.154.0", "bnxt_re0 guid", "8e84:74ff:fe1f:2550",
                        "bnxt_re0/1 state", "ACTIVE", "bnxt_re0/1 netdevs", "enp194s0f0np0", "bnxt_re0/1 gbps", "100.0",
                        "bnxt_re1/1 state", "DOWN", "bnxt_re1/1 phys", "Disabled", "bnxt_re1 fw", "231.0.154.0",
                        "bnxt_re1/1 link layer", "Ethernet")),
                new Row("ibdev2netdev-column-t-annotated.txt", List.of(RdmaKind.IBDEV2NETDEV), List.of(), Map.of("devices", "12",
                        "mlx5_1/1 netdevs", "enp27s0f0np0", "netdev enp27s0f0np0 link", "Up", "netdev ibp26s0 link", "Down")),
                new Row("ibdev2netdev-ifconfig-k8s-pod.txt", List.of(RdmaKind.IBDEV2NETDEV), List.of(4, 5, 6, 7, 8, 9, 10),
                        Map.of("mlx5_3/1 netdevs", "net1", "netdev net1 link", "Down")),
                new Row("ls-sys-class-infiniband-h100.txt", List.of(RdmaKind.LS), List.of(), Map.of("devices", "12")),
                new Row("sysfs-counters-find-cat-cx7.txt", List.of(RdmaKind.SYSFS), List.of(), Map.of("mlx5_1/1 counters", "21",
                        "mlx5_1/1 counters/port_xmit_wait", "4294967295", "mlx5_1/1 counters/link_downed", "255",
                        "mlx5_1/1 counters/port_xmit_discards", "65535", "mlx5_1/1 counters/port_xmit_data", "205143497464492")),
                new Row("sysfs-grep-counters-i40iw-no-pma.txt", List.of(RdmaKind.SYSFS), List.of(), Map.of("i40iw0/1 counters", "8",
                        "i40iw0/1 counters/port_rcv_data", "absent: N/A (no PMA): the port has no performance management agent to count this")),
                new Row("ethtool-S-mlx5-cx4lx-head.txt", List.of(RdmaKind.ETHTOOL), List.of(), Map.of("ethtool " + RdmaPaste.UNNAMED, "23",
                        "ethtool " + RdmaPaste.UNNAMED + " rx_bytes", "2195783498134")),
                new Row("mlnx-qos-dscp-pfc3-shell-trace.txt", List.of(RdmaKind.MLNX_QOS), List.of(39, 41), Map.of(
                        "netdev eth4 qos", "trust dscp pfc [3] dcbx OS controlled dscp26 3")));
    }

    static RdmaPaste read(String file) throws IOException {
        return RdmaTextReader.parse(Files.readAllLines(PUBLIC.resolve(file)), file);
    }

    @ParameterizedTest
    @MethodSource("rows")
    void eachFixtureGivesItsFacts(Row row) throws IOException {
        RdmaPaste p = read(row.file());
        assertThat(p.kinds()).as("tools recognised in %s", row.file()).isEqualTo(row.kinds());
        assertThat(p.notUnderstood()).extracting(RdmaPaste.Unread::line).as("lines not understood in %s", row.file())
                .isEqualTo(row.unread());
        RdmaPaste.Lines l = p.lines();
        assertThat(l.facts() + l.known() + l.skipped() + l.notUnderstood()).as("every line is counted once").isEqualTo(l.total());
        assertThat(PasteFactsView.of(p)).as("facts of %s", row.file()).containsAllEntriesOf(row.facts());
    }

    @Test
    void everyRdmaFixtureIsInTheTable() throws IOException {
        List<String> inTable = rows().map(Row::file).toList();
        try (Stream<Path> files = Files.list(PUBLIC)) {
            assertThat(files.map(f -> f.getFileName().toString()).filter(n -> !n.startsWith("perftest") && !n.equals("README.md")))
                    .as("a fixture no test reads").allMatch(inTable::contains);
        }
    }
}
