package io.nccldoctor.reports.results;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.core.Json;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RulesConfig;
import io.nccldoctor.reports.Severity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The detectors over NCCL debug logs given to `report`: real logs from public issues and logs built to fire each one. */
class NcclLogRulesTest {

    static final Path FIXTURES = Path.of("../collectives/src/test/resources/fixtures/public");

    private static Report judge(String... inputs) {
        ResultSet set = new ResultInputs(p -> {
            throw new AssertionError("no capture here");
        }).read(List.of(inputs), "2026-11-30T00:00:00Z");
        return Reports.judge(set, List.of(), new RuleContext(RulesConfig.defaults(), NodeShape.none()));
    }

    private static List<String> codes(Report r) {
        return r.findings().stream().map(Finding::code).toList();
    }

    private static String fixture(String name) {
        return FIXTURES.resolve(name).toString();
    }

    /** One process's init, as NCCL 2.2x prints it with NCCL_DEBUG=INFO. */
    private static String log(String host, String network, String transport, String extra) {
        String p = host + ":4242:4300 [0] NCCL INFO ";
        return p + "NCCL version 2.27.5+cuda12.9\n" + p + "Using network " + network + "\n" + extra
                + p + "Channel 00/0 : 0[0] -> 8[0] [send] via " + transport + "\n"
                + p + "Channel 01/0 : 0[0] -> 8[0] [send] via " + transport + "\n";
    }

    @Test
    void realLogsWithErrorsFailAndHealthyOnesRaiseNothing() {
        Report roce = judge(fixture("nccl-log-roce-2node-completion-error-status4.txt"));
        assertThat(codes(roce)).containsExactly("NCCL_IB_COMPLETION_ERROR");
        assertThat(roce.findings().get(0).severity()).isEqualTo(Severity.ERROR);
        assertThat(roce.findings().get(0).title()).isEqualTo("1 IB completion error, the first IBV_WC_LOC_PROT_ERR");
        assertThat(codes(judge(fixture("nccl-log-ib-completion-error12-azure.txt")))).containsExactly("NCCL_IB_COMPLETION_ERROR");
        assertThat(codes(judge(fixture("nccl-log-pytorch-watchdog-allreduce-gb200.txt")))).containsExactly("NCCL_WATCHDOG_TIMEOUT");
        for (String healthy : new String[] {"nccl-log-vllm-ray-2.21.5-ib-gdrdma.txt", "nccl-log-h100-2node-2.26.2-ib-sharp-init.txt",
            "nccl-log-rtx5090-2.29.7-single-gpu-socket.txt"}) {
            assertThat(judge(fixture(healthy)).findings()).as(healthy + ": GDRDMA channels, or one GPU on sockets with no "
                    + "network channel").allSatisfy(f -> assertThat(f.severity()).isEqualTo(Severity.INFO));
        }
    }

    @Test
    void withoutLogsTheLogRulesAreWaived() {
        Report r = judge(fixture("nccl-tests-h100-8gpu-allreduce-dgxc.txt"));
        assertThat(r.checks()).filteredOn(c -> c.code().startsWith("NCCL_")).hasSize(10)
                .allSatisfy(c -> assertThat(c.waivedBecause()).startsWith("no NCCL debug log among the inputs"));
    }

    @Test
    void socketsAndChannelsWithoutGdrAreFlagged(@TempDir Path dir) throws IOException {
        Path sockets = dir.resolve("sockets.log");
        Files.writeString(sockets, log("n1", "Socket", "NET/Socket/0", ""));
        Report s = judge(sockets.toString());
        assertThat(codes(s)).containsExactly("NCCL_NET_SOCKET");
        assertThat(s.findings().get(0).title()).isEqualTo("2 network channel connections over TCP sockets");
        Path noGdr = dir.resolve("nogdr.log");
        Files.writeString(noGdr, log("n1", "IB", "NET/IB/0", "n1:4242:4300 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 "
                + "'mlx5_0'\n"));
        Report g = judge(noGdr.toString());
        assertThat(codes(g)).containsExactly("NCCL_NO_GDRDMA");
        assertThat(g.findings().get(0).title()).isEqualTo("2 RDMA channel connections without GPU Direct RDMA");
        assertThat(g.findings().get(0).evidence()).anyMatch(e -> e.startsWith("NIC mlx5_0 (NET/IB): GPU Direct RDMA disabled: neither "
                + "nvidia-peermem nor DMA-BUF"));
    }

    @Test
    void processesThatDisagreeAreNamedWithinOneLogAndAcrossLogs(@TempDir Path dir) throws IOException {
        Path combined = dir.resolve("job.out");
        Files.writeString(combined, log("n1", "IB", "NET/IB/0/GDRDMA", "") + log("n2", "IB", "NET/IB/0/GDRDMA", "")
                + log("n3", "IB", "NET/IB/0", ""));
        Report one = judge(combined.toString());
        assertThat(codes(one)).containsExactlyInAnyOrder("NCCL_NO_GDRDMA", "NCCL_PROCESSES_DISAGREE");
        Finding disagree = one.findings().stream().filter(f -> f.code().equals("NCCL_PROCESSES_DISAGREE")).findFirst().orElseThrow();
        assertThat(disagree.evidence().get(0)).startsWith("GPUDirect RDMA on the network channels differs: used in 2 processes; "
                + "not used in n3:4242.");

        Path logs = Files.createDirectories(dir.resolve("logs"));
        Files.writeString(logs.resolve("nccl.n1.log"), log("n1", "IB", "NET/IB/0/GDRDMA", ""));
        Files.writeString(logs.resolve("nccl.n2.log"), log("n2", "Socket", "NET/Socket/0", ""));
        Report folder = judge(logs.toString());
        assertThat(codes(folder)).containsExactlyInAnyOrder("NCCL_NET_SOCKET", "NCCL_PROCESSES_DISAGREE");
        assertThat(folder.findings().stream().filter(f -> f.code().equals("NCCL_PROCESSES_DISAGREE")).findFirst().orElseThrow()
                .evidence()).anyMatch(e -> e.startsWith("the network NCCL chose differs: IB in " + logs.resolve("nccl.n1.log")));
    }

    /** The logs a `run --json` captured come back from its JSON and are judged like any other log. */
    @Test
    void logsInsideARunJson(@TempDir Path dir) throws IOException {
        NcclLog log = NcclLog.parse(
                FIXTURES.resolve("nccl-log-roce-2node-completion-error-status4.txt"));
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("launch", Map.of("source", "single process"));
        doc.put("failure", "NCCL error");
        doc.put("ncclLogsNote", "written to /tmp/x");
        doc.put("ncclLogs", Map.of("nccl.node1.42.log", log));
        Path run = dir.resolve("run.json");
        Files.writeString(run, Json.write(doc));
        Report r = judge(run.toString());
        assertThat(r.data().ncclLogs()).containsOnlyKeys(run + "#nccl.node1.42.log");
        assertThat(r.data().ncclLogs().values().iterator().next()).as("the log survives its JSON").isEqualTo(log);
        assertThat(codes(r)).containsExactly("NCCL_IB_COMPLETION_ERROR");
    }

    /** nccl-tests run with NCCL_DEBUG=INFO: the table is a sweep and its NCCL lines a log of the same run. */
    @Test
    void ncclTestsOutputWithItsNcclLines(@TempDir Path dir) throws IOException {
        String text = String.join("\n",
                "# nccl-tests version 2.17.9 nccl-headers=22902 nccl-library=22902",
                "# Collective test starting: all_reduce_perf",
                "#  Rank  0 Group  0 Pid   1001 on node-a device  0 [0000:19:00] NVIDIA H100",
                "#  Rank  1 Group  0 Pid   1002 on node-b device  0 [0000:19:00] NVIDIA H100",
                "node-a:1001:1001 [0] NCCL INFO Using network Socket",
                "node-a:1001:1010 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/Socket/0",
                "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong",
                "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)",
                "     1048576        262144     float     sum      -1   1000.0    1.05    1.05      0   1000.0    1.05    1.05      0",
                "# Out of bounds values : 0 OK",
                "# Avg bus bandwidth    : 1.05 ", "");
        Path out = dir.resolve("all_reduce_perf.out");
        Files.writeString(out, text);
        Report r = judge(out.toString());
        assertThat(r.data().sweeps()).hasSize(1);
        assertThat(r.data().ncclLogs()).containsOnlyKeys(out.toString());
        assertThat(codes(r)).contains("NCCL_NET_SOCKET");
    }
}
