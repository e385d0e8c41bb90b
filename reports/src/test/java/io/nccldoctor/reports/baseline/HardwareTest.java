package io.nccldoctor.reports.baseline;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.Fact;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The hardware read from real nccl-tests outputs (corpus/nccl-tests, each cited in its README), held against the facts
 * read by eye in corpus/nccl-tests/facts.tsv: the GPU model and ranks of the device lines, and their host names.
 */
class HardwareTest {

    static final Path CORPUS = Path.of("../corpus/nccl-tests");

    static NcclTestsOutput read(Path p) throws IOException {
        return NcclTestsOutput.parse(Files.readAllLines(p, StandardCharsets.UTF_8), p.toString());
    }

    /** file → fact → value, from facts.tsv. */
    static Map<String, Map<String, String>> facts() throws IOException {
        Map<String, Map<String, String>> out = new LinkedHashMap<>();
        for (String line : Files.readAllLines(CORPUS.resolve("facts.tsv"), StandardCharsets.UTF_8)) {
            String[] c = line.split("\t", -1);
            if (c.length >= 3 && !c[0].equals("file")) {
                out.computeIfAbsent(c[0], k -> new LinkedHashMap<>()).put(c[1], c[2]);
            }
        }
        return out;
    }

    static Stream<String> withDeviceFacts() throws IOException {
        List<String> files = new ArrayList<>();
        facts().forEach((f, m) -> {
            if (m.containsKey("gpuModel") && !m.get("gpuModel").equals("N/A") && Files.exists(CORPUS.resolve(f))) {
                files.add(f);
            }
        });
        return files.stream();
    }

    @ParameterizedTest
    @MethodSource("withDeviceFacts")
    void theDeviceLinesGiveTheGpuModelRanksAndHostsOfTheFacts(String file) throws IOException {
        Map<String, String> f = facts().get(file);
        Hardware h = Hardware.of(read(CORPUS.resolve(file)), Fact.absent("not needed"));
        assertThat(h.gpuModel().get()).as("%s gpuModel", file).isEqualTo(f.get("gpuModel"));
        String ranks = f.getOrDefault("ranks", "N/A");
        if (ranks.matches("\\d+") && !file.contains("elided") && !file.contains("header-only")) {
            assertThat(h.ranks().get()).as("%s ranks", file).isEqualTo(Integer.parseInt(ranks));
        }
        String hosts = f.getOrDefault("hosts", "N/A");
        if (hosts.matches("[\\w.-]+(,[\\w.-]+)*") && !file.contains("header-only")) {
            assertThat(h.nodes().get()).as("%s hosts %s", file, hosts).isEqualTo(hosts.split(",").length);
        }
    }

    @Test
    void theDeviceLinesOfAnH100NodeGiveModelBusIdsHostAndGpusPerNode() throws IOException {
        Path dgx = Path.of("../collectives/src/test/resources/fixtures/public/nccl-tests-h100-8gpu-allreduce-dgxc.txt");
        Hardware h = Hardware.of(read(dgx), Fact.of("allreduce"));
        assertThat(h.gpuModel().get()).isEqualTo("NVIDIA H100 80GB HBM3");
        assertThat(h.ranks().get()).isEqualTo(8);
        assertThat(h.nodes().get()).isEqualTo(1);
        assertThat(h.gpusPerNode().get()).isEqualTo(8);
        assertThat(h.devices().get(0).pciAddress().get()).isEqualTo("0000:19:00.0");
        assertThat(h.devices().get(7).host()).isEqualTo("pool0-01806");
        assertThat(h.summary()).isEqualTo("8 x NVIDIA H100 80GB HBM3 on 1 node");
    }

    @Test
    void theOldBusIdFormHasNoDomainAndTwoHostsGiveGpusPerNode() throws IOException {
        Hardware gh = Hardware.of(read(CORPUS.resolve("nccl-tests-gh200-2node-slingshot-cxi-indented.txt")), Fact.of("allreduce"));
        assertThat(gh.nodes().get()).isEqualTo(2);
        assertThat(gh.gpusPerNode().get()).isEqualTo(4);
        assertThat(DeviceLine.parse("#   Rank  0 Pid 112424 on localhost device  0 [0x00] A100-SXM4-40GB").orElseThrow().pciAddress().isValue())
                .as("nccl-tests before v2.13 printed [0x%02x]").isFalse();
    }

    @Test
    void withoutDeviceLinesTheRanksComeFromBusbwOverAlgbw() throws IOException {
        // 8 x H100 on one p5 (no device lines in the paste): 433.90 / 247.94 = 1.75 = 2 x 7/8
        Hardware p5 = Hardware.of(read(CORPUS.resolve("nccl-tests-h100-p5-aws-batch-mpi-tag-wide-header.txt")), Fact.of("allreduce"));
        assertThat(p5.ranks().get()).isEqualTo(8);
        assertThat(p5.gpuModel().isValue()).isFalse();
        assertThat(p5.evidence()).anyMatch(e -> e.startsWith("8 ranks from busbw/algbw (no device lines)"));
        // two p5 nodes: 2 x 15/16
        Hardware two = Hardware.of(read(CORPUS.resolve("nccl-tests-h100-p5-2node-efa-srun-label-nofooter.txt")), Fact.of("allreduce"));
        assertThat(two.ranks().get()).isEqualTo(16);
        // a broadcast's factor is 1 whatever the ranks
        Fact<Integer> bcast = RanksFromBandwidth.derive("broadcast", read(CORPUS.resolve("nccl-tests-a100-broadcast-old-root-col.txt")).rows());
        assertThat(bcast.reason()).contains("busbw factor 1");
        // a gather's factor is (n-1)/n (nccl-tests src/gather.cu GatherGetBw): 20.19 / 40.37 on the paste's two ranks
        Fact<Integer> gather = RanksFromBandwidth.derive("gather",
                read(CORPUS.resolve("nccl-tests-a100-pcie-2node-gather-nccl-info-interleaved-no-footer.txt")).rows());
        assertThat(gather.get()).isEqualTo(2);
    }

    @Test
    void aTailOfTheDeviceBlockIsNotTheRanks() throws IOException {
        // the GB200 NVL72 tail shows one device line, "Rank 71": 72 ranks, not 1
        Hardware gb = Hardware.of(read(CORPUS.resolve("nccl-tests-gb200-nvl72-1rack-72rank-tail.txt")), Fact.of("allreduce"));
        assertThat(gb.gpuModel().get()).isEqualTo("NVIDIA Graphics Device");
        assertThat(gb.nodes().isValue()).isFalse();
        assertThat(gb.evidence()).anyMatch(e -> e.startsWith("the device lines are cut"));
        assertThat(gb.ranks().get()).as("839.16 / 425.49 = 1.9722 = 2 x 71/72; 71 and 73 ranks miss by 0.17 GB/s").isEqualTo(72);
        // 1440 ranks: 2 x 1439/1440 and its neighbours agree to the printed two decimals
        Hardware rack20 = Hardware.of(read(CORPUS.resolve("nccl-tests-gb200-20rack-1440rank-tail.txt")), Fact.of("allreduce"));
        assertThat(rack20.ranks().reason()).contains("alike at two decimals");
    }
}
