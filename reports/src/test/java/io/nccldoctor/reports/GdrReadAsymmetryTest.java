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
        Host capture = Capture.open(TopologyRulesTest.CAPTURES.resolve("arrowlake-ws")).host();
        Host host = new Host(capture.files(), new ProcessCommandRunner(), capture.natives(), capture.env(), capture.source());
        return Snapshots.take(host, List.of(new PlatformProbe(), new RdmaProbe(), new GpuProbe(),
                new PerftestMatrixProbe("peer-node", bin.toString(), 18515, true, Duration.ofSeconds(1))), List.of("test"), "test",
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
}
