package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.core.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GPU health and `preflight --quick --network` end to end against the stand-ins: NVML's faults per GPU and the kernel
 * log's Xids through the live path, the allreduce with shared memory and P2P off over the stand-in's NET/IB channels
 * judged against the rate its ibverbs reports, and the per-NIC loopback through an ib_write_bw that prints real
 * perftest output (gdr-probe fixtures/public, each with its source). journalctl and ib_write_bw are scripts put first
 * on PATH: the tool starts them as it would the real programs.
 */
class StandInHealthTest {

    private static final Duration LIMIT = Duration.ofSeconds(300);
    /** Real perftest client output: an H200 with DMA-BUF at 140.40 Gb/s (google/dranet, see its README). */
    private static final Path PERFTEST = Path.of("../gdr-probe/src/test/resources/fixtures/public",
            "perftest-write-bw-cuda-dmabuf-h200-sweep-client.txt");
    private static final List<String> NETWORK_CODES = List.of("NETWORK_CHECK_FAILED", "NETWORK_CHECK_SLOW", "NETWORK_CHECK_NOT_RDMA",
            "NIC_LOOPBACK_FAILED", "NIC_LOOPBACK_SLOW");

    @TempDir
    Path tmp;

    private Path script(String name, String body) throws IOException {
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path f = bin.resolve(name);
        Files.writeString(f, "#!/bin/sh\n" + body);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
        return bin;
    }

    private Map<String, String> env(Map<String, String> extra, String... folders) {
        Map<String, String> e = new HashMap<>(extra);
        e.put("LD_LIBRARY_PATH", StandInTool.path(folders));
        e.put("PATH", tmp.resolve("bin") + ":" + System.getenv("PATH"));
        return e;
    }

    private static List<String> codes(StandInTool.Ran r) throws IOException {
        List<String> out = new ArrayList<>();
        for (JsonNode f : Json.mapper().readTree(r.out()).at("/findings")) {
            out.add(f.get("code").asText() + " " + f.get("severity").asText() + " " + f.get("subject").asText());
        }
        return out;
    }

    @Test
    void preflightShowsEachNvmlFaultAndTheKernelLogsXids() throws Exception {
        // lines in the shape of fixtures/xid's real ones, with the stand-in's bus ids
        Path lines = Files.writeString(tmp.resolve("journal.txt"),
                "2026-11-30T09:02:55+0000 node17 kernel: NVRM: Xid (PCI:0000:19:00): 64, pid='N/A', Row Remapper: Failed to remap row\n");
        script("journalctl", "cat " + lines + "\n");
        StandInTool.Ran r = StandInTool.run(env(Map.of("STANDIN_CUDA_DEVICES", "4", "STANDIN_NVML_FAULTS",
                "0:remap-pending,1:remap-failed,2:nvlink-down=3,2:throttle=0x40,3:fabric=not-started,3:pcie-replays=300"), "nvml"),
                LIMIT, "preflight", "--json");
        assertThat(r.code()).as(r.err()).isEqualTo(1);
        assertThat(codes(r)).contains("GPU_ROW_REMAP_PENDING error 0000:18:00.0", "GPU_ROW_REMAP_FAILED error 0000:19:00.0",
                "GPU_XID_ERRORS error 0000:19:00.0", "NVLINK_DOWN error 0000:1a:00.0", "GPU_THROTTLED warn 0000:1a:00.0",
                "FABRIC_MANAGER_NOT_READY error 0000:1b:00.0", "PCIE_REPLAYS warn 0000:1b:00.0");
        JsonNode health = Json.mapper().readTree(r.out()).at("/snapshot/sections/gpuHealth");
        assertThat(health.at("/kernelXids/value/source").asText()).startsWith("journalctl -k --since=-120min");
        assertThat(health.at("/gpus/value").size()).isEqualTo(4);
    }

    @Test
    void aHealthyStandInNodeRaisesNoHealthFinding() throws Exception {
        script("journalctl", "echo '-- No entries --'\n");
        StandInTool.Ran r = StandInTool.run(env(Map.of("STANDIN_CUDA_DEVICES", "2"), "nvml"), LIMIT, "preflight", "--json");
        List<String> health = codes(r).stream().filter(c -> c.startsWith("GPU_") || c.startsWith("NVLINK") || c.startsWith("FABRIC")
                || c.startsWith("PCIE_REPLAYS")).toList();
        assertThat(health).as(r.out()).isEmpty();
        assertThat(Json.mapper().readTree(r.out()).at("/snapshot/sections/gpuHealth/gpus/value/1/nvlinks/value").size()).isEqualTo(18);
    }

    /** 4X NDR ports (400 Gb/s): the stand-in's host-memory allreduce and the 140 Gb/s loopback are both far below. */
    @Test
    void networkCheckBelowTheLineRateIsAFinding() throws Exception {
        script("ib_write_bw", "for a; do last=$a; done\n[ \"$last\" = localhost ] && cat " + PERFTEST.toAbsolutePath() + "\nexit 0\n");
        StandInTool.Ran r = StandInTool.run(env(Map.of("STANDIN_CUDA_DEVICES", "2"), "cuda13", "nccl-2.28.3", "nvml", "ibverbs"), LIMIT,
                "preflight", "--quick", "--network", "--quick-timeout", "120", "--json");
        assertThat(r.err()).as(r.out()).containsPattern("quick: network allreduce \\(SHM and P2P off\\): peak busbw \\d+\\.\\d\\d GB/s at \\d+ "
                + "bytes via NET/IB/0/GDRDMA \\(\\d+\\), NET/IB/1/GDRDMA \\(\\d+\\) \\(NCCL 2\\.28\\.3\\); expected per GPU 50\\.00 GB/s");
        assertThat(r.err()).contains("quick: loopback mlx5_0 port 1 with GPU 0 (0000:18:00.0): 140.40 Gb/s of 400 Gb/s");
        assertThat(codes(r)).contains("NETWORK_CHECK_SLOW warn allreduce", "NIC_LOOPBACK_SLOW warn mlx5_0 port 1",
                "NIC_LOOPBACK_SLOW warn mlx5_1 port 1").doesNotContain("NETWORK_CHECK_NOT_RDMA warn allreduce");
    }

    /**
     * 1X SDR ports (2.5 Gb/s, 0.16 GB/s for half a GPU's share): the stand-in moves its allreduce faster than that even
     * on a busy machine, and the loopback's 140 Gb/s is above the port's rate, so nothing is raised.
     */
    @Test
    void networkCheckAtTheLineRateRaisesNothing() throws Exception {
        script("ib_write_bw", "for a; do last=$a; done\n[ \"$last\" = localhost ] && cat " + PERFTEST.toAbsolutePath() + "\nexit 0\n");
        StandInTool.Ran r = StandInTool.run(env(Map.of("STANDIN_CUDA_DEVICES", "2", "STANDIN_IBV_WIDTH", "1", "STANDIN_IBV_SPEED", "1"),
                "cuda13", "nccl-2.28.3", "nvml", "ibverbs"), LIMIT, "preflight", "--quick", "--network", "--quick-timeout", "120", "--json");
        assertThat(r.err()).contains("expected per GPU 0.31 GB/s").contains("140.40 Gb/s of 2.5 Gb/s");
        assertThat(codes(r).stream().filter(c -> NETWORK_CODES.contains(c.split(" ")[0])).toList()).as(r.err()).isEmpty();
    }

    @Test
    void networkWithoutQuickIsAUsageError() {
        StandInTool.Ran r = StandInTool.run(Map.of(), LIMIT, "preflight", "--network");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("--network runs with --quick");
    }
}
