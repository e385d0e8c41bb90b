package io.nccldoctor.gdr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.core.InputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Real perftest outputs (fixtures/public/README.md states each source and the values asserted here). */
class PerftestOutputTest {

    private static PerftestOutput parse(String file) throws IOException {
        return PerftestOutput.parse(Files.readAllLines(Path.of("src/test/resources/fixtures/public", file)), file);
    }

    @Test
    void aSingleSizeRoceRun() throws IOException {
        PerftestOutput p = parse("perftest-write-bw-roce-cx5-client.txt");
        assertThat(p.test().get()).isEqualTo("RDMA_Write BW Test");
        assertThat(p.header()).containsEntry("Device", "mlx5_0").containsEntry("Link type", "Ethernet")
                .containsEntry("GID index", "3").containsEntry("Mtu", "1024[B]").containsEntry("rdma_cm QPs", "ON");
        assertThat(p.unit()).isEqualTo("MB/sec");
        assertThat(p.rows()).hasSize(1);
        PerftestOutput.Row r = p.rows().get(0);
        assertThat(r.bytes()).isEqualTo(65536);
        assertThat(r.iterations()).isEqualTo(5000);
        assertThat(r.peak()).isEqualTo(11025.44);
        assertThat(r.average()).isEqualTo(11024.71);
        assertThat(p.warnings()).anyMatch(w -> w.startsWith("Conflicting CPU frequency"));
        assertThat(p.gpu().isAbsent()).isTrue();
    }

    @Test
    void aGbitSweepOverInfiniBand() throws IOException {
        PerftestOutput p = parse("perftest-write-bw-ib-sweep-gbits-client.txt");
        assertThat(p.unit()).isEqualTo("Gb/sec");
        assertThat(p.header()).containsEntry("Link type", "IB").containsEntry("Mtu", "4096[B]").doesNotContainKey("GID index");
        assertThat(p.rows()).hasSize(23);
        assertThat(p.rows().get(0).bytes()).isEqualTo(2);
        assertThat(p.rows().get(22).bytes()).isEqualTo(8388608);
        assertThat(p.rows().get(22).average()).isEqualTo(98.38);
    }

    @Test
    void gpuMemoryWithDmabufAndAnMtuWarning() throws IOException {
        PerftestOutput p = parse("perftest-write-bw-cuda-dmabuf-mtu-warning-client.txt");
        assertThat(p.gpu().get()).isEqualTo("NVIDIA A40");
        assertThat(p.header()).containsEntry("Number of qps", "16").containsEntry("TOS", "41");
        assertThat(p.warnings()).anyMatch(w -> w.startsWith("Requested mtu is higher than active mtu"));
        assertThat(p.rows()).hasSize(1);
        assertThat(p.rows().get(0).iterations()).isEqualTo(10384867);
        assertThat(p.rows().get(0).average()).isEqualTo(181.46);
    }

    @Test
    void registrationFailuresSayWhatTheErrnoMeans() throws IOException {
        PerftestOutput p = parse("perftest-write-bw-cuda-dmabuf-mr-fail.txt");
        assertThat(p.errors().get(0)).isEqualTo("Couldn't allocate MR with error=14 (EFAULT: the NIC cannot register this GPU "
                + "memory: no peer-memory client, or a GPU without GPUDirect RDMA)");
        assertThat(p.rows()).isEmpty();
        assertThat(parse("perftest-write-bw-modify-qp-rtr-fail.txt").errors()).contains("Failed to modify QP 122273 to RTR");
    }

    @Test
    void unrelatedTextIsRefused() {
        assertThatThrownBy(() -> PerftestOutput.parse(List.of("hello", "  x : y"), "notes.txt"))
                .isInstanceOf(InputException.class).hasMessageStartingWith("notes.txt: not perftest output");
    }
}
