package io.nccldoctor.reports;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.collectives.sweep.SweepRecord;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.NativeQueries;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.core.exec.CommandResult;
import io.nccldoctor.core.exec.RecordedCommandRunner;
import io.nccldoctor.core.host.HostRoot;
import io.nccldoctor.gdr.GpuSurvey;
import io.nccldoctor.gdr.NicPorts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The judgement of `preflight --quick --network` on given results: the line rate a GPU's share of the ports allows,
 * the transports of the channels, and the per-NIC loopback through recorded ib_write_bw runs (real perftest output:
 * gdr-probe fixtures/public, each with its source).
 */
class NetworkCheckTest {

    static final Path PERFTEST = Path.of("../gdr-probe/src/test/resources/fixtures/public");

    @TempDir
    Path tmp;

    static NicPorts.Port port(String dev, String state, double gbps) {
        return new NicPorts.Port(dev, 1, state, "InfiniBand", 4, "NDR", gbps);
    }

    static SweepRecord point(double busbw, Map<String, Long> transports) {
        NcclTestsOutput.Placement p = new NcclTestsOutput.Placement(1000, busbw, busbw, Fact.of(0L), Fact.of(0.0), null, false);
        NcclTestsOutput.Row row = new NcclTestsOutput.Row(67108864, 16777216, "float", Fact.of("sum"), Fact.absent("none"), p,
                Fact.of(p), Fact.absent("none"));
        return new SweepRecord("point", "network-check", "default", "default", "", Map.of(), "default", 1, "allreduce", "2.28.3",
                "/usr/lib/libnccl.so.2", 8, List.of(row), null, null, null, null, 100, transports, null);
    }

    @Test
    void aGpusShareIsTheSmallerOfOnePortAndAllPortsOverTheGpus() {
        NicPorts eightNdr = new NicPorts(Fact.of(List.of(port("mlx5_0", "ACTIVE", 400), port("mlx5_1", "ACTIVE", 400),
                port("mlx5_2", "DOWN", 400))));
        assertThat(NetworkCheck.LineRate.of(eightNdr, 8).get().perGpuGBps()).as("2 active ports for 8 GPUs: 800/8 Gb/s").isEqualTo(12.5);
        assertThat(NetworkCheck.LineRate.of(eightNdr, 1).get().perGpuGBps()).as("one GPU uses one port at a time").isEqualTo(50.0);
        assertThat(NetworkCheck.LineRate.of(new NicPorts(Fact.absent("libibverbs.so.1 not found")), 8)).isEmpty();
    }

    @Test
    void belowHalfTheShareIsSlowAndSocketsAreNotRdma() {
        Optional<NetworkCheck.LineRate> rate = NetworkCheck.LineRate.of(new NicPorts(Fact.of(List.of(port("mlx5_0", "ACTIVE", 400)))), 8);
        List<Finding> f = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        NetworkCheck.judge(point(3.0, Map.of("NET/IB/0/GDRDMA", 16L)), 8, rate, f, lines::add);
        assertThat(f).extracting(Finding::code).containsExactly("NETWORK_CHECK_SLOW");
        assertThat(f.get(0).title()).isEqualTo("allreduce through the NICs on 8 GPUs peaks at 3.00 GB/s, under half of the 6.25 GB/s per GPU "
                + "their line rate allows");
        assertThat(lines.get(0)).contains("via NET/IB/0/GDRDMA (16)");
        f.clear();
        NetworkCheck.judge(point(3.2, Map.of("NET/IB/0/GDRDMA", 16L)), 8, rate, f, lines::add);
        assertThat(f).as("3.2 GB/s is above half of 6.25").isEmpty();
        NetworkCheck.judge(point(3.2, Map.of("NET/Socket/0", 16L)), 8, rate, f, lines::add);
        NetworkCheck.judge(point(3.2, Map.of("P2P/IPC", 16L)), 8, rate, f, lines::add);
        assertThat(f).extracting(Finding::code).containsExactly("NETWORK_CHECK_NOT_RDMA", "NETWORK_CHECK_NOT_RDMA");
        assertThat(NetworkCheck.rdma(Map.of("NET/IBext_v8/0/GDRDMA", 4L))).as("an RDMA plugin's transport").isTrue();
    }

    private NetworkCheck.Inputs inputs(List<CommandResult> commands, List<NicPorts.Port> ports) {
        Host host = new Host(HostRoot.at(tmp), new RecordedCommandRunner(commands), NativeQueries.live(), Map.of(), "test");
        Snapshot empty = new Snapshot(1, "test", "node", "now", "test", List.of(), Map.of(), Map.of());
        GpuSurvey gpus = new GpuSurvey(Fact.of(List.of(new GpuSurvey.Gpu(0, "0000:18:00.0", Fact.of("NVIDIA H100 80GB HBM3"),
                Fact.of("TESLA"), Fact.of(9), Fact.of(0), Fact.of(true), Fact.of(true)))), Fact.of(List.of()));
        return new NetworkCheck.Inputs(empty, null, gpus, new NicPorts(Fact.of(ports)), host, List.of(), 30, Map.of(), "");
    }

    private static List<String> argv(String hca, int tcpPort, boolean client) {
        List<String> a = new ArrayList<>(List.of("ib_write_bw", "-d", hca, "-i", "1", "-p", String.valueOf(tcpPort), "--use_cuda=0", "-s",
                "8388608", "-n", "1000", "-F", "--report_gbits"));
        if (client) {
            a.add("localhost");
        }
        return a;
    }

    @Test
    void theLoopbackJudgesEachPortAgainstItsRateAndReportsARegistrationFailure() throws IOException {
        String h200 = Files.readString(PERFTEST.resolve("perftest-write-bw-cuda-dmabuf-h200-sweep-client.txt"));
        String mrFail = Files.readString(PERFTEST.resolve("perftest-write-bw-cuda-dmabuf-mr-fail.txt"));
        List<CommandResult> runs = List.of(
                new CommandResult.Exited(argv("mlx5_0", 18515, false), 0, "", "", 900),
                new CommandResult.Exited(argv("mlx5_0", 18515, true), 0, h200, "", 900),
                new CommandResult.Exited(argv("mlx5_1", 18516, false), 0, "", "", 900),
                new CommandResult.Exited(argv("mlx5_1", 18516, true), 0, h200, "", 900),
                new CommandResult.Exited(argv("mlx5_2", 18517, false), 1, mrFail, "", 50),
                new CommandResult.Exited(argv("mlx5_2", 18517, true), 1, mrFail, "", 50));
        List<Finding> f = new ArrayList<>();
        List<Evaluation.NotChecked> not = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        LoopbackCheck.run(inputs(runs, List.of(port("mlx5_0", "ACTIVE", 400), port("mlx5_1", "ACTIVE", 168), port("mlx5_2", "ACTIVE", 200))),
                f, not, lines::add);
        assertThat(not).isEmpty();
        assertThat(f).extracting(x -> x.code() + " " + x.subject()).containsExactly("NIC_LOOPBACK_SLOW mlx5_0 port 1",
                "NIC_LOOPBACK_FAILED mlx5_2 port 1");
        assertThat(f.get(0).title()).isEqualTo("mlx5_0 port 1: GPU loopback with GPU 0 (0000:18:00.0) at 140.40 Gb/s, 35 % of the port's 400 Gb/s");
        assertThat(f.get(1).evidence().get(0)).startsWith("Couldn't allocate MR with error=14 (EFAULT");
        assertThat(lines).as("140.40 of 168 Gb/s is 84 %, above 80")
                .contains("loopback mlx5_1 port 1 with GPU 0 (0000:18:00.0): 140.40 Gb/s of 168 Gb/s");
    }

    @Test
    void withoutPerftestTheLoopbackIsNotCheckedAndSaysWhy() {
        List<Finding> f = new ArrayList<>();
        List<Evaluation.NotChecked> not = new ArrayList<>();
        LoopbackCheck.run(inputs(List.of(), List.of(port("mlx5_0", "ACTIVE", 400), port("mlx5_1", "ACTIVE", 400))), f, not, l -> { });
        assertThat(f).isEmpty();
        assertThat(not).singleElement().satisfies(n -> {
            assertThat(n.code()).isEqualTo("NIC_LOOPBACK_FAILED");
            assertThat(n.reason()).startsWith("cannot run: not in the capture: ib_write_bw");
        });
        LoopbackCheck.run(inputs(List.of(), List.of(port("mlx5_0", "DOWN", 400))), f, not, l -> { });
        assertThat(not.get(1).reason()).isEqualTo("cannot run: no ACTIVE RDMA port (1 port listed)");
    }
}
