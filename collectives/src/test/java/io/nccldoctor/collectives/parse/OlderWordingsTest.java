package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Real pastes (corpus/nccl-log/README.md names each source) in wordings NCCL used before or after the one the parser
 * first read, and excerpts cut where a reader loses its bearings: the IB completion error of 2.3 to 2.9 and of 2.29 on,
 * 2.3's device list printed one line per HCA, a topology dump without its "=== System" line, and processes that print
 * nothing the processes must agree on. Each file is read by the block scanner and by the line reader, which must agree.
 */
class OlderWordingsTest {

    /** NVIDIA/nccl-tests#24: "NET/IB : Got completion with error 4, opcode 1, len 0, vendor err 81", no peer (2.3 to 2.9). */
    @Test
    void aCompletionErrorWithoutThePeerIsRead() throws IOException {
        NcclLog log = CorpusLogs.read("nccl-log-2.4-ib-completion-error-4-without-peer-cqe-dump.txt");
        assertThat(log.warnings()).isEqualTo(1);
        assertThat(log.ibErrors()).as("the one WARN is an IB completion error").singleElement().satisfies(e -> {
            assertThat(e.status()).isEqualTo(4);
            assertThat(e.statusName()).isEqualTo("IBV_WC_LOC_PROT_ERR");
            assertThat(e.vendorErr().get()).isEqualTo(81);
            assertThat(e.line()).startsWith("gpu5:6252:6325 [0] transport/net_ib.cu:788 NCCL WARN");
        });
        assertThat(log.processes()).as("the WARN's prefix, before its source location, names its process; gpu4 prints only a "
                + "'Launch mode' line, which is counted without its prefix").containsOnlyKeys("gpu5:6252");
    }

    /** NVIDIA/nccl#2397 (2.30.4): "status=IBV_WC_RETRY_EXC_ERR(12) opcode=…(129) vendor_err=129", the wording of 2.29 on. */
    @Test
    void aCompletionErrorWithTheStatusByNameIsRead() throws IOException {
        NcclLog log = CorpusLogs.read("nccl-log-2.30.4-ib-completion-status-names-roce-markdown-links.txt");
        assertThat(log.warnings()).isEqualTo(6);
        assertThat(log.ibErrors()).as("three completion errors; the 'Got CQE with error' lines are not").hasSize(3)
                .allSatisfy(e -> {
                    assertThat(e.status()).as("the number in parentheses after the status's name").isEqualTo(12);
                    assertThat(e.vendorErr().get()).as("vendor_err=129").isEqualTo(129);
                });
        assertThat(log.ibErrors().get(1).line()).contains("opcode=IBV_WC_RDMA_WRITE(1)").endsWith("hca mlx5_0");
    }

    /** The two readers of a completion error agree on the wordings the other tests hold, including the 2.10 to 2.19 one. */
    @Test
    void everyWordingOfTheCompletionErrorGivesItsStatusAndVendorError() {
        // lines as the sources print them: NVIDIA/nccl-tests#24 (2.4), stas00/ml-engineering's debug/pytorch.md at
        // 744d01e1 (the 2.10 to 2.19 wording, net_ib.cc:1296 as in 2.18; the paste wraps before "0, vendor err 129 (Recv)"),
        // NVIDIA/nccl#2397 (2.30)
        Map<String, String> lines = Map.of(
                "gpu5:6252:6325 [0] transport/net_ib.cu:788 NCCL WARN NET/IB : Got completion with error 4, opcode 1, len 0, vendor err 81",
                "4/81",
                "node-2:5776:5902 [0] transport/net_ib.cc:1296 NCCL WARN NET/IB : Got completion from peer 10.2.0.5<33092> with error 12, opcode 0, len",
                "12/absent",
                "[2026-09-09 10:46:34] ubuntu4:250414:250527 [0] transport/net_ib/[p2p.cc:648](https://p2p.cc:648/) NCCL WARN NET/IB: Got "
                        + "completion from peer 10.153.235.11<38830> with status=IBV_WC_RETRY_EXC_ERR(12) opcode=IBV_WC_RDMA_WRITE(1) "
                        + "vendor_err=129 localGid ::ffff:1.1.1.4 remoteGids::ffff:1.1.2.2 hca mlx5_0",
                "12/129");
        lines.forEach((line, expected) -> {
            NcclLog.IbError e = IbCompletions.read(line, line).orElseThrow();
            assertThat(e.status() + "/" + e.vendorErr().map(String::valueOf).orElse("absent")).as(line).isEqualTo(expected);
        });
        assertThat(IbCompletions.read("x NCCL WARN NET/IB: ncclIbTest: Got CQE with error (devIndex=0, req=0x7f, wr_id=0)", ""))
                .as("NCCL's other CQE line names no status").isEmpty();
    }

    /**
     * pytorch/pytorch#43258 (NCCL 2.3): the sideband interface is not a device list, and the eighteen HCAs printed one
     * line each ("NET/IB: [0] mlx5_64:1/IB ") are read as the one list 2.4 and later print on a line.
     */
    @Test
    void nccl23DevicesPrintedOneLineEachAreOneList() throws IOException {
        NcclLog log = CorpusLogs.read("nccl-log-2.3-ib-18-hcas-one-line-each-sideband-interface.txt");
        List<String> lists = log.network().devices().get("IB");
        assertThat(lists).as("one list, not the sideband interface").singleElement().asString()
                .startsWith("[0]mlx5_64:1/IB [1]mlx5_128:1/IB ").endsWith(" [16]mlx5_111:1/IB [17]mlx5_86:1/IB").doesNotContain("interface");
        assertThat(lists.get(0).split(" ")).hasSize(18);
        assertThat(log.networks()).contains("NET/IB : Using interface ib0 for sideband communication",
                "NET : Using interface ib0:172.168.206.131<0>");
        assertThat(log.unknownMessages()).as("2.3's socket interface line is a network line").isZero();
    }

    /**
     * NVIDIA/nccl#1189 and #879: dump lines pasted without their "=== System" line are read as a part of a dump, its
     * devices and links counted and marked as headerless, not dropped.
     */
    @Test
    void dumpLinesWithoutTheirSystemLineAreAPartOfADump() throws IOException {
        NcclLog h20 = CorpusLogs.read("nccl-log-h20-dump-excerpt-without-system-line-3-nics.txt");
        assertThat(h20.systems()).singleElement().satisfies(d -> {
            assertThat(d.headerless()).isTrue();
            assertThat(d.complete()).as("no closing line either").isFalse();
            assertThat(List.of(d.cpus(), d.gpus(), d.nics(), d.nets(), d.nvlinks(), d.nvswitches())).containsExactly(1, 1, 3, 4, 1, 1);
            assertThat(d.netBandwidths()).containsExactly("25.0", "50.0");
            assertThat(d.pciLinks()).isEqualTo(Map.of("48.0", 8));
        });
        assertThat(h20.systemDumps()).isEqualTo(1);
        NcclLog twoPorts = CorpusLogs.read("nccl-log-dump-excerpt-without-system-line-nic-with-2-nets.txt");
        assertThat(twoPorts.systems()).singleElement().satisfies(d -> {
            assertThat(d.headerless()).isTrue();
            assertThat(List.of(d.cpus(), d.gpus(), d.nics(), d.nets(), d.nvlinks(), d.nvswitches())).containsExactly(0, 3, 1, 2, 2, 1);
            assertThat(d.pciLinks()).isEqualTo(Map.of("24.0", 8));
        });
    }

    /** A dump's lines before its "=== System" line, cut at any line into two ranges, read as one pass reads them. */
    @Test
    void aHeaderlessDumpCutIntoRangesReadsAsInOnePass() throws IOException {
        Path file = CorpusLogs.CORPUS.resolve("nccl-log-h20-dump-excerpt-without-system-line-3-nics.txt");
        NcclLog one = NcclLog.parse(file, 1, 1, 512);
        for (int ranges = 2; ranges <= 4; ranges++) {
            assertThat(NcclLog.parse(file, ranges, 1, 512)).as(ranges + " ranges").isEqualTo(one);
        }
    }

    /**
     * Every process whose line the parser reads is counted (Azure/aks-rdma-infiniband#36: eight processes, four of them
     * only in an environment line; Mellanox/nv_peer_memory#56: five, none naming a chosen network), and what they agree on
     * is unchanged: a process that says nothing of it is no disagreement.
     */
    @Test
    void everyProcessWhoseLineIsReadIsCounted() throws IOException {
        NcclLog grep = CorpusLogs.read("nccl-log-grep-gdr-8-processes-env-and-gdrdma-channels.txt");
        assertThat(grep.processes().keySet()).containsExactly("leader-h2nng:523", "leader-h2nng:527", "leader-h2nng:529", "leader-h2nng:528",
                "leader-h2nng:530", "leader-h2nng:524", "leader-h2nng:526", "leader-h2nng:525");
        assertThat(grep.processes().get("leader-h2nng:530").netTransports()).as("an environment line only").isEmpty();
        assertThat(grep.differences()).isEmpty();
        NcclLog five = CorpusLogs.read("nccl-log-2.4.7-5-processes-2-hosts-socket-and-ib-lists.txt");
        assertThat(five.processes()).hasSize(5).containsKey("secondary_node:11791");
        assertThat(five.differences()).isEmpty();
        NcclLog ofi = CorpusLogs.read("nccl-log-ofi-2.4-ring-lines-10-processes-6-p2p-only.txt");
        assertThat(ofi.processes().keySet()).as("channel lines over P2P/IPC are counted by transport alone: their six processes "
                + "are not seen").containsExactly("ip-172-32-38-1:21471", "ip-172-32-34-121:70560", "ip-172-32-45-165:72593",
                "ip-172-32-36-209:8800");
    }

    /**
     * NCCL 2.4's GPU-to-NIC path lines (NVIDIA/nccl#246, tab-indented; #229, a plugin whose name holds a space) are read
     * as the path types they state, not counted as messages of no known kind.
     */
    @Test
    void nccl24NicDistanceLinesGiveEachGpusPathType() throws IOException {
        NcclLog ib = CorpusLogs.read("nccl-log-2.4-tab-indented-nic-distance-pix-3-gpus-cut.txt");
        assertThat(ib.nicDistances()).extracting(d -> d.gpu() + " " + d.network() + " " + d.nics() + " " + d.paths())
                .containsExactly("0[0] IB [0] [PIX]", "1[1] IB [0] [PIX]", "3[3] IB [0] [PIX]");
        assertThat(ib.unknownMessages()).isZero();
        NcclLog ofi = CorpusLogs.read("nccl-log-2.4-ofi-nic-distance-sys-ring-lines-2-hosts.txt");
        assertThat(ofi.nicDistances()).extracting(d -> d.gpu() + " " + d.network() + " " + d.paths())
                .containsExactly("1[1] AWS Libfabric [SYS]", "0[0] AWS Libfabric [SYS]");
        assertThat(ofi.nicDistances().get(0).line()).isEqualTo("ip-192-168-16-255:35481:35549 [1] NCCL INFO CUDA Dev 1[1], AWS Libfabric "
                + "NIC distance :  SYS");
        assertThat(ofi.processes()).hasSize(3);
    }

    /** NCCL 2.3's shape of the same line names each port and its path type ("mlx5_0/1(PIX)"); another shape is not understood. */
    @Test
    void nccl23IbPortsLineNamesEachPort() {
        // the format of src/transport/net_ib.cu@v2.3.5-5 L168-177, with the values of a one-NIC node: no real paste of it was found
        assertThat(NicDistances.read("CUDA Dev 0, IB Ports : mlx5_0/1(PIX) ", "")).hasValueSatisfying(d -> {
            assertThat(d.gpu()).isEqualTo("0");
            assertThat(d.nics()).containsExactly("mlx5_0/1");
            assertThat(d.paths()).containsExactly("PIX");
        });
        assertThat(NicDistances.read("CUDA Dev 0, something else : x", "")).isEmpty();
    }
}
