package io.nccldoctor.reports;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Host;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.core.Snapshots;
import io.nccldoctor.core.capture.Capture;
import io.nccldoctor.core.exec.ProcessCommandRunner;
import io.nccldoctor.gdr.GpuProbe;
import io.nccldoctor.gdr.PerftestMatrix;
import io.nccldoctor.gdr.PerftestMatrixProbe;
import io.nccldoctor.gdr.RdmaProbe;
import io.nccldoctor.pcie.PlatformProbe;
import io.nccldoctor.reports.rules.Registry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The read/write matrix on the Arrow Lake capture (one GPU, two RoCE HCAs), with stand-in perftest binaries that print
 * a real published ib_write_bw sweep (98.38 Gbit/s at 1 MiB) or hang like a NIC read that never completes.
 */
class GdrReadAsymmetryTest {

    static final Path HEALTHY = Path.of("../gdr-probe/src/test/resources/fixtures/public/perftest-write-bw-ib-sweep-gbits-client.txt")
            .toAbsolutePath();

    @TempDir
    Path bin;

    void standIn(String name, String body) throws IOException {
        Path p = bin.resolve(name);
        Files.writeString(p, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    Snapshot measure() {
        return measure(new PerftestMatrixProbe("peer-node", bin.toString(), 18515, true, Duration.ofSeconds(1)));
    }

    Snapshot measure(PerftestMatrixProbe matrix) {
        Host capture = Capture.open(TopologyRulesTest.CAPTURES.resolve("arrowlake-ws")).host();
        Host host = new Host(capture.files(), new ProcessCommandRunner(), capture.natives(), capture.env(), capture.source());
        return Snapshots.take(host, List.of(new PlatformProbe(), new RdmaProbe(), new GpuProbe(),
                matrix), List.of("test"), "test",
                Clock.systemUTC());
    }

    static List<Finding> findings(Snapshot s) {
        return Evaluation.of(s, Registry.gdrRules(), new RuleContext(RulesConfig.defaults(), NodeShape.none(), Optional.of("2.27.5")))
                .findings().stream().filter(f -> f.code().equals("GDR_READ_ASYMMETRY")).toList();
    }

    @Test
    void readsThatNeverCompleteAgainstHealthyWritesAreThePattern() throws IOException {
        standIn("ib_read_bw", "cat '" + HEALTHY + "'");
        standIn("ib_write_bw", "sleep 30");
        Snapshot s = measure();
        PerftestMatrix m = s.section(PerftestMatrixProbe.KEY, PerftestMatrix.class);
        assertThat(m.cells().get()).hasSize(4);
        PerftestMatrix.Cell write = m.cells().get().stream().filter(c -> c.direction() == PerftestMatrix.Direction.NIC_WRITES_GPU)
                .findFirst().orElseThrow();
        assertThat(write.averageGbps().get()).isEqualTo(98.38);
        assertThat(write.argv()).containsExactly(bin + "/ib_read_bw", "-d", write.hca(), "-p", "18516", "--use_cuda=0",
                "--use_cuda_dmabuf", "-s", "1048576", "-n", "1000", "-F", "--report_gbits", "peer-node");
        List<Finding> f = findings(s);
        assertThat(f).hasSize(2);
        assertThat(f.get(0).title()).contains("writes into GPU0 memory at 98.4 Gbit/s but its reads of it give no result (no result "
                + "within 1 s").contains("Arrow Lake");
    }

    @Test
    void healthyBothWaysIsNoFinding() throws IOException {
        standIn("ib_read_bw", "cat '" + HEALTHY + "'");
        standIn("ib_write_bw", "cat '" + HEALTHY + "'");
        assertThat(findings(measure())).isEmpty();
    }

    /** A stand-in `ip`: the namespace's address, and `netns exec NS CMD…` runs CMD. */
    void ipStandIn(String address) throws IOException {
        standIn("ip", "if [ \"$1\" = netns ]; then shift 3; exec \"$@\"; fi\n"
                + (address.isEmpty() ? "exit 0" : "echo '5: enp2s0f1np1    inet " + address + "/24 brd 192.168.50.255 scope global "
                + "enp2s0f1np1\\       valid_lft forever preferred_lft forever'"));
    }

    /** A stand-in perftest binary: the server (no address) marks that it listens; the client is refused until then. */
    void perftestStandIn(String name, String server, String client) throws IOException {
        standIn(name, "last=$(eval echo \\${$#})\n"
                + "case \"$last\" in\n"
                + "  192.*) [ -f '" + bin + "/" + name + ".listening' ] || { echo \"Couldn't connect to $last:18515\"; exit 1; }\n"
                + "         " + client + " ;;\n"
                + "  *) " + server + " ;;\n"
                + "esac");
    }

    PerftestMatrixProbe loopback() {
        return PerftestMatrixProbe.loopback(new PerftestMatrixProbe.Loopback("rdma1", "mlx5_1", bin.resolve("ip").toString()),
                bin.toString(), 18515, false, Duration.ofSeconds(5));
    }

    @Test
    void loopbackMeasuresTheOtherPortAgainstTheNamespacesAddress() throws IOException {
        ipStandIn("192.168.50.12");
        for (String tool : List.of("ib_write_bw", "ib_read_bw")) {
            perftestStandIn(tool, "sleep 0.4; touch '" + bin + "/" + tool + ".listening'; sleep 0.4; echo served", "cat '" + HEALTHY + "'");
        }
        Snapshot s = measure(loopback());
        List<PerftestMatrix.Cell> cells = s.section(PerftestMatrixProbe.KEY, PerftestMatrix.class).cells().get();
        assertThat(cells).extracting(PerftestMatrix.Cell::hca).containsExactly("mlx5_0", "mlx5_0");
        assertThat(cells).allSatisfy(c -> assertThat(c.averageGbps().get()).isEqualTo(98.38));
        assertThat(cells.get(0).argv()).containsExactly(bin + "/ib_write_bw", "-d", "mlx5_0", "-p", "18515", "--use_cuda=0",
                "-s", "1048576", "-n", "1000", "-F", "--report_gbits", "192.168.50.12");
        assertThat(findings(s)).isEmpty();
    }

    @Test
    void aServerThatCannotStartIsNamedInTheCellsReason() throws IOException {
        ipStandIn("192.168.50.12");
        perftestStandIn("ib_write_bw", "echo \" Couldn't listen to port 18515\"; exit 1", "cat '" + HEALTHY + "'");
        perftestStandIn("ib_read_bw", "touch '" + bin + "/ib_read_bw.listening'; sleep 0.4; echo served", "cat '" + HEALTHY + "'");
        List<PerftestMatrix.Cell> cells = measure(loopback()).section(PerftestMatrixProbe.KEY, PerftestMatrix.class).cells().get();
        PerftestMatrix.Cell reads = cells.get(0);
        assertThat(reads.direction()).isEqualTo(PerftestMatrix.Direction.NIC_READS_GPU);
        assertThat(reads.problem().get()).isEqualTo("Couldn't connect to 192.168.50.12:18515; the server exited with 1: Couldn't listen to port 18515");
        assertThat(cells.get(1).averageGbps().get()).isEqualTo(98.38);
    }

    @Test
    void aNamespaceWithoutAnAddressSkipsTheMatrixAndSaysHowToSetItUp() throws IOException {
        ipStandIn("");
        PerftestMatrix m = measure(loopback()).section(PerftestMatrixProbe.KEY, PerftestMatrix.class);
        assertThat(m.cells().isValue()).isFalse();
        assertThat(m.cells().reason()).startsWith("skipped: namespace rdma1 has no global IPv4 address; move mlx5_1's netdev there");
    }

    @Test
    void loopbackSpecIsNamespaceSlashHca() {
        assertThat(PerftestMatrixProbe.Loopback.parse("rdma1/mlx5_1", "ip")).contains(new PerftestMatrixProbe.Loopback("rdma1", "mlx5_1", "ip"));
        assertThat(PerftestMatrixProbe.Loopback.parse("rdma1", "ip")).isEmpty();
        assertThat(PerftestMatrixProbe.Loopback.parse("/mlx5_1", "ip")).isEmpty();
        assertThat(PerftestMatrixProbe.Loopback.parse("a/b/c", "ip")).isEmpty();
    }
}
