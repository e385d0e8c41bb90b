package io.nccldoctor.collectives.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Real pastes (corpus/nccl-log/README.md names each source) that the reader once dropped or misread: PyTorch's watchdog
 * lines after a version banner without NCCL's prefix, the heartbeat monitor's messages of a stuck watchdog, RCCL's printf
 * banner, a prefix-less plugin line that names "NCCL", NCCL 2.28 and 2.29's plugin lines and tuning table, and a channel
 * through another rank's NIC (PXN). Each file is read by the block scanner and by the line reader, which must agree.
 */
class HangsAndLaterWordingsTest {

    /** The same text read from a stream (standard input) and by the line reader. */
    private static NcclLog readText(String text, String name) throws IOException {
        NcclLog streamed = NcclLog.parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), name);
        assertThat(NcclLog.parse(new BufferedReader(new StringReader(text)), name)).as("block and line parsers agree on " + name)
                .isEqualTo(streamed);
        return streamed;
    }

    /** NVIDIA/nccl#1730: ncclras' "NCCL version 2.26.2 compiled with CUDA 12.4" first, then PyTorch's watchdog timeout. */
    @Test
    void aWatchdogTimeoutAfterAPrefixlessVersionBannerIsRead() throws IOException {
        NcclLog log = CorpusLogs.read("nccl-log-ncclras-2.26.2-then-pytorch-watchdog-timeout-nccl1730.txt");
        assertThat(log.withoutPrefix()).as("the banner, in NCCL's wording without a prefix, decides the reading").isTrue();
        assertThat(log.versions()).containsExactly("2.26.2");
        assertThat(log.watchdogTimeouts()).singleElement().asString().startsWith("[rank118]:[E603 17:48:01.005271823 ProcessGroupNCCL.cpp:632]")
                .contains("WorkNCCL(SeqNum=2398459, OpType=ALLREDUCE").contains("ran for 1800068 milliseconds");
        assertThat(log.watchdogHangs()).isEmpty();
    }

    /**
     * NVIDIA/nccl#1584's prefix-less log followed by NVIDIA/nccl#1730's three PyTorch lines (two real texts joined here, as
     * a job's output interleaves them): every line is looked at, so the timeout is not lost among NCCL's lines.
     */
    @Test
    void aPrefixlessLogWithATimeoutSplicedInKeepsTheTimeout() throws IOException {
        String nccl = Files.readString(CorpusLogs.CORPUS.resolve("nccl-log-2.24.3-prefix-cut-rdma-plugin-v8-sharp-nccl1584.txt"));
        List<String> torch = Files.readAllLines(CorpusLogs.CORPUS.resolve("nccl-log-ncclras-2.26.2-then-pytorch-watchdog-timeout-nccl1730.txt"))
                .stream().filter(l -> l.startsWith("[rank118]")).toList();
        assertThat(torch).hasSize(3);
        NcclLog log = readText(nccl + String.join("\n", torch) + "\n", "spliced");
        assertThat(log.withoutPrefix()).isTrue();
        assertThat(log.watchdogTimeouts()).singleElement().asString().contains("SeqNum=2398459");
        assertThat(log.versions()).containsExactly("2.24.3");
    }

    /** NVIDIA/nccl#1584: "NET/Plugin: Loaded net plugin NCCL RDMA Plugin v8 (v8)" without a prefix names "NCCL " itself. */
    @Test
    void aPrefixlessPluginLineThatNamesNcclIsReadByItsWording() throws IOException {
        NcclLog log = CorpusLogs.read("nccl-log-2.24.3-prefix-cut-rdma-plugin-v8-sharp-nccl1584.txt");
        assertThat(log.withoutPrefix()).isTrue();
        assertThat(log.network().loadedPlugins()).containsExactly("NCCL RDMA Plugin v8");
        assertThat(log.network().chosen()).containsExactly("IBext_v8");
        assertThat(log.network().fallbacks()).as("the plugin's network was used").isEmpty();
        assertThat(log.versions()).containsExactly("2.24.3");
    }

    /** NVIDIA/nccl#1684: the heartbeat monitor's error as later releases log it, alone. */
    @Test
    void aStuckWatchdogIsRead() throws IOException {
        NcclLog log = CorpusLogs.read("nccl-log-pytorch-watchdog-stuck-300s-nccl1684.txt");
        assertThat(log.watchdogHangs()).singleElement().asString()
                .contains("[PG ID 2 PG GUID 3 Rank 0] ProcessGroupNCCL's watchdog got stuck for 300 seconds");
        assertThat(log.watchdogTimeouts()).isEmpty();
        assertThat(log.ncclLines()).isZero();
    }

    /** hiyouga/LlamaFactory#6953: "Heartbeat monitor timed out!" then the LOG(FATAL) line of the same release. */
    @Test
    void theHeartbeatMonitorsTwoLinesAreRead() throws IOException {
        NcclLog log = CorpusLogs.read("nccl-log-pytorch-heartbeat-monitor-timed-out-600s-llamafactory6953.txt");
        assertThat(log.watchdogHangs()).hasSize(2);
        assertThat(log.watchdogHangs().get(0)).startsWith("[rank144]:[E ProcessGroupNCCL.cpp:1316] [PG 0 Rank 144] Heartbeat monitor timed out!");
        assertThat(log.watchdogHangs().get(1)).startsWith("[rank144]:[F ProcessGroupNCCL.cpp:1169]")
                .contains("ProcessGroupNCCL's watchdog got stuck for 600 seconds");
        assertThat(log.watchdogTimeouts()).isEmpty();
    }

    /**
     * The heartbeat sentence is PyTorch's only on a line that names ProcessGroupNCCL: other vendors' process groups, forks
     * of ProcessGroupNCCL.cpp, print it too (their errorMsg; "ProcessGroupHCCL's watchdog got stuck for" as exitMsg).
     */
    @Test
    void anotherProcessGroupsHeartbeatIsNotNcclsHang() {
        assertThat(TorchWatchdog.of("[E ProcessGroupHCCL.cpp:1316] [PG 0 Rank 3] Heartbeat monitor timed out! Process will be terminated "
                + "after dumping debug info. workMetaList_.size()=1")).isEqualTo(TorchWatchdog.Said.NONE);
        assertThat(TorchWatchdog.of("ProcessGroupHCCL's watchdog got stuck for 480 seconds without making progress")).isEqualTo(TorchWatchdog.Said.NONE);
    }

    /** Prose that quotes the wordings in Markdown backticks (this project's own docs and corpus README) is no log line. */
    @Test
    void quotedWordingsAreNotLogLines() throws IOException {
        for (Path doc : List.of(Path.of("../docs/report.md"), Path.of("../docs/inputs.md"), CorpusLogs.CORPUS.resolve("README.md"))) {
            List<String> quoting = Files.readAllLines(doc).stream().filter(l -> l.contains(TorchWatchdog.TIMEOUT) || l.contains(TorchWatchdog.STUCK)
                    || l.contains(TorchWatchdog.HEARTBEAT)).toList();
            assertThat(quoting).as(doc + " quotes them").isNotEmpty();
            assertThat(quoting).as(doc.toString()).allSatisfy(l -> assertThat(TorchWatchdog.of(l)).isEqualTo(TorchWatchdog.Said.NONE));
        }
    }

    /** ROCm/rccl-tests#163: RCCL's printf banner between prefixed lines, "RCCL version : 2.21.5-HEAD:9a0e6a1". */
    @Test
    void rcclsBannerInAPrefixedLogIsRcclsVersion() throws IOException {
        NcclLog log = CorpusLogs.read("nccl-log-rccl-2.21.5-banner-mid-log-socket-rccltests163.txt");
        assertThat(log.withoutPrefix()).isFalse();
        assertThat(log.versions()).as("RCCL's own number, never NCCL's").containsExactly("RCCL 2.21.5");
        assertThat(log.network().chosen()).containsExactly("Socket");
    }

    /** ROCm/rccl#1026: the older banner, "RCCL version 2.16.5+hip5.6 HE" (cut), after RCCL's WARN lines. */
    @Test
    void rcclsOlderBannerIsRcclsVersion() throws IOException {
        NcclLog log = CorpusLogs.read("nccl-log-rccl-2.16.5-banner-cut-iommu-warns-rccl1026.txt");
        assertThat(log.versions()).containsExactly("RCCL 2.16.5");
        assertThat(log.warnings()).isEqualTo(3);
    }

    /**
     * NVIDIA/nccl#2241 (2.29): "Successfully loaded external network plugin" (src/plugin/net.cc), and the GIN and RMA
     * plugins a communicator was assigned, are plugin lines; every message is of a known kind. The library NCCL loaded is
     * not the name of the network it provides ("Loaded net plugin NAME (vN)" gives that), so no plugin is listed as loaded.
     */
    @Test
    void plugin229LinesAreKnown() throws IOException {
        NcclLog log = CorpusLogs.read("nccl-log-2.29-gin-rma-plugins-external-network-plugin-nccl2241.txt");
        assertThat(log.unknownMessages()).isZero();
        assertThat(log.networks()).contains("Using network IB", "Successfully loaded external network plugin",
                "Assigned GIN plugin GIN_IB_GDAKI to comm", "Assigned RMA plugin GIN_IB_PROXY to comm");
        assertThat(log.network().loadedPlugins()).isEmpty();
        assertThat(log.network().fallbacks()).isEmpty();
    }

    /**
     * NVIDIA-NeMo/Automodel#3032 and an RTX 5090 log (2.29.7): "NCCL git version stable b81d6a5a3", the branch and commit
     * the library was built from (ncclGetGitVersion), is read, not counted as an unknown message.
     */
    @Test
    void theGitVersionIsTheLibrarysBuild() throws IOException {
        NcclLog log = CorpusLogs.read("nccl-log-2.29.7-prefixed-version-ib-hca-set-to-automodel3032.txt");
        assertThat(log.init().gitVersions()).containsExactly("stable b81d6a5a3");
        assertThat(log.unknownMessages()).isZero();
        NcclLog other = CorpusLogs.read("nccl-log-rtx5090-2.29.7-tuning-table-and-algo-lines.txt");
        assertThat(other.init().gitVersions()).containsExactly("master 3619159");
        assertThat(InitMessages.gitVersion("NCCL git version ")).as("the words alone: no build to keep").isEmpty();
    }

    /** vllm-project/vllm#28901: the 2.28 tuning model table (src/graph/tuning.cc), its last row cut, is known. */
    @Test
    void theTuningModelTableIsKnown() throws IOException {
        NcclLog log = CorpusLogs.read("nccl-log-2.28-tuning-model-table-cut-vllm28901.txt");
        assertThat(log.ncclLines()).isEqualTo(7);
        assertThat(log.unknownMessages()).isZero();
        assertThat(log.algorithms()).as("the table is NCCL's model, not a choice").isEmpty();
        assertThat(LogMessages.tuningTableRow("NCCL INFO ReduceScatter |     0.0/   0.0 |", 10)).isTrue();
        assertThat(LogMessages.tuningTableRow("NCCL INFO Latency/AlgBw |    Tree/    LL |", 10)).as("before 2.18").isTrue();
        assertThat(LogMessages.tuningTableRow("NCCL INFO    SendRecv | 1", 10)).isFalse();
    }

    /** NVIDIA/nccl-tests#321: "NET/NCCL RDMA Plugin v6/0(0)/GDRDMA/Shared" is NIC 0 of rank 0, through its proxy (PXN). */
    @Test
    void aChannelThroughAnotherRanksNicIsThatNicsTransport() throws IOException {
        NcclLog log = CorpusLogs.read("nccl-log-pxn-proxy-rank-rdma-plugin-v6-nccltests321.txt");
        assertThat(log.transports()).isEqualTo(Map.of("NET/NCCL RDMA Plugin v6/0/GDRDMA/Shared", 9L, "P2P/CUMEM", 2L));
        assertThat(log.pxnChannels()).isEqualTo(2);
    }
}
