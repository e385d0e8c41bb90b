package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.collectives.parse.NcclLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stand-in NCCL's choice of algorithm and protocol (collectives/src/test/c/cost.c), read back from its
 * NCCL_DEBUG=INFO log by the project's NCCL log parser: NCCL's own choice, NCCL_ALGO and NCCL_PROTO in the syntax of
 * the build's version, and a tuner configuration read with the rules of NCCL's example tuner (its pitfalls included).
 * Choices only: the times it models are the end-to-end test's business, judged by compare, never asserted here.
 */
class StandInChoiceTest {

    private static final Duration LIMIT = Duration.ofSeconds(120);

    @TempDir
    Path tmp;

    private record Ran(StandInTool.Ran run, Map<Long, String> choices, String log) {
    }

    /** `run` of one collective from 128 KiB to 2 MiB on 2 ranks; the choice per logged byte count, and the log's text. */
    private Ran run(String nccl, String collective, Map<String, String> extra) throws IOException {
        Map<String, String> env = new HashMap<>(extra);
        env.put("LD_LIBRARY_PATH", StandInTool.path("cuda13", nccl));
        env.put("NCCL_DEBUG_SUBSYS", "INIT,ENV,TUNING");
        Path logs = Files.createTempDirectory(tmp, "logs");
        StandInTool.Ran r = StandInTool.run(env, LIMIT, "run", "-g", "2", "--collective", collective, "-b", "128K", "-e", "2M", "-f", "2",
                "-w", "1", "-n", "2", "--log-dir", logs.toString());
        Map<Long, String> choices = new TreeMap<>();
        StringBuilder text = new StringBuilder();
        try (Stream<Path> files = Files.list(logs)) {
            for (Path f : files.toList()) {
                text.append(Files.readString(f));
                NcclLog.parseIfNccl(f).ifPresent(l -> l.tuning().forEach(t -> choices.merge(t.bytes(),
                        t.collective().orElse("?") + " " + t.algorithm() + "/" + t.protocol(), (a, b) -> a.equals(b) ? a : a + " + " + b)));
            }
        }
        return new Ran(r, choices, text.toString());
    }

    private static List<String> values(Map<Long, String> m) {
        return new ArrayList<>(m.values());
    }

    @Test
    void ncclsOwnChoiceAndThePinsItHonours() throws IOException {
        Ran own = run("nccl-2.28.3", "allreduce", Map.of());
        assertThat(own.run().code()).as(own.run().out() + own.run().err()).isZero();
        assertThat(own.choices()).as("its cost table misses the planted range: Ring/Simple everywhere").containsOnlyKeys(
                131072L, 262144L, 524288L, 1048576L, 2097152L);
        assertThat(values(own.choices())).containsOnly("AllReduce RING/SIMPLE");
        assertThat(own.log()).contains("NCCL INFO comm 0x").contains(" rank 0 nRanks 2 nNodes 1 localRanks 2 localRank 0 MNNVL 0");

        Ran ll128 = run("nccl-2.28.3", "allreduce", Map.of("NCCL_PROTO", "LL128"));
        assertThat(values(ll128.choices())).as("Ring/LL128 costs less than Tree/LL128 in its table").containsOnly("AllReduce RING/LL128");
        assertThat(ll128.log()).contains("NCCL INFO NCCL_PROTO set by environment to LL128");

        Ran tree = run("nccl-2.28.3", "allreduce", Map.of("NCCL_ALGO", "Tree"));
        assertThat(values(tree.choices())).containsOnly("AllReduce TREE/SIMPLE");

        Ran allgather = run("nccl-2.28.3", "allgather", Map.of("NCCL_ALGO", "allreduce:Tree"));
        assertThat(allgather.run().code()).isZero();
        assertThat(allgather.choices()).as("allgather logs one rank's share: the size over 2 ranks").containsOnlyKeys(65536L, 131072L,
                262144L, 524288L, 1048576L);
        assertThat(values(allgather.choices())).as("the per-function form pins allreduce only").containsOnly("AllGather RING/SIMPLE");
    }

    @Test
    void valuesNccl224RejectsFailAndAnOlderNcclIgnoresThem() throws IOException {
        Ran none = run("nccl-2.28.3", "allgather", Map.of("NCCL_ALGO", "Tree"));
        assertThat(none.run().code()).isEqualTo(1);
        assertThat(none.log()).contains("NCCL WARN Error : no algorithm/protocol available for function AllGather with datatype "
                + "ncclFloat32. NCCL_ALGO was set to Tree.");
        Ran bad = run("nccl-2.28.3", "allreduce", Map.of("NCCL_PROTO", "LL129"));
        assertThat(bad.run().code()).isEqualTo(1);
        assertThat(bad.log()).contains("NCCL WARN Unrecognized element token \"LL129\" when parsing \"LL129\"");
        Ran old = run("nccl-2.21.5", "allreduce", Map.of("NCCL_PROTO", "LL129"));
        assertThat(old.run().code()).as(old.run().out() + old.run().err()).isZero();
        assertThat(values(old.choices())).as("before 2.24 an unknown token is ignored, nothing is left, and Ring comes back; 2.21 "
                + "logs no function name").isNotEmpty().containsOnly("? RING/SIMPLE");
        assertThat(old.log()).contains("NCCL INFO 131072 Bytes -> Algo 1 proto 2 time ");
    }

    @Test
    void aTunerConfigurationIsReadWithTheExamplePluginsRules() throws IOException {
        Path conf = tmp.resolve("nccl_tuner.conf");
        Files.writeString(conf, String.join("\n",
                "# comments start in the first column",
                "allreduce,262144,524288,tree,ll,2,1,2,-1,-1",
                "alltoall,1048576,1048576,tree,ll128,-1,-1,-1",
                "allreduce,2097152,2097152,nvls,simple,-1,-1,-1",
                "allreduce,0,4294967295,ring,ll,-1,4,-1",
                "") + "\n");
        Ran r = run("nccl-2.28.3", "allreduce", Map.of("NCCL_TUNER_PLUGIN", "example", "NCCL_TUNER_CONFIG_FILE", conf.toString()));
        assertThat(r.run().code()).as(r.run().out() + r.run().err()).isZero();
        assertThat(r.choices()).containsEntry(131072L, "AllReduce RING/SIMPLE").containsEntry(262144L, "AllReduce TREE/LL")
                .containsEntry(524288L, "AllReduce TREE/LL").as("a collective the example does not know is read as allreduce")
                .containsEntry(1048576L, "AllReduce TREE/LL128").as("NVLS is unavailable: IGNORE, and the next row is for 4 nodes")
                .containsEntry(2097152L, "AllReduce RING/SIMPLE");
        assertThat(r.log()).contains("NCCL INFO Successfully loaded external tuner plugin example",
                "TUNER/ExamplePlugin: Loaded 4 tuning configurations from " + conf,
                "TUNER/ExamplePlugin: Algorithm/protocol combination [nvls][simple] is marked as IGNORE",
                "AllReduce: 262144 Bytes -> Algo TREE proto LL channel{Lo..Hi}={0..1}",
                "AllReduce: 131072 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..0}");
    }
}
