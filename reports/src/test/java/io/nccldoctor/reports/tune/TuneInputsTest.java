package io.nccldoctor.reports.tune;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.collectives.parse.NcclTestsOutput;
import io.nccldoctor.core.Fact;
import io.nccldoctor.reports.results.Sweep;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What tune reads from real NCCL logs (public fixtures, each cited in the README beside it): NCCL's choice per size
 * from the TUNING lines, the node count, the environment NCCL says was set. The sweeps they are matched with are
 * synthetic shells (sizes only).
 */
class TuneInputsTest {

    /** NCCL 2.29.7 on an RTX 5090, rank 0 of 2: 72 Broadcast TUNING lines (corpus/nccl-log/README.md). */
    private static final Path RTX5090 = Path.of("../corpus/nccl-log/nccl-log-rtx5090-2.29.7-tuning-table-and-algo-lines.txt");
    /** vLLM on Ray, NCCL 2.21.5: a communicator of 8 ranks on 1 node and one of 2 on 2; NCCL_IB_DISABLE and NCCL_CUMEM_ENABLE set. */
    private static final Path VLLM = Path.of("../collectives/src/test/resources/fixtures/public/nccl-log-vllm-ray-2.21.5-ib-gdrdma.txt");
    /** A 2-rank socket run on two hosts: "nRanks 2 nNodes 2". */
    private static final Path SOCKET = Path.of("../corpus/nccl-log/nccl-log-socket-2rank-excerpt-elided-comm.txt");

    private static Sweep shell(String collective, int ranks, String version, long... sizes) {
        List<NcclTestsOutput.Row> rows = new ArrayList<>();
        for (long s : sizes) {
            NcclTestsOutput.Placement p = new NcclTestsOutput.Placement(1, 1, 1, Fact.of(0L), Fact.absent("n/a"));
            rows.add(new NcclTestsOutput.Row(s, s / 4, "float", Fact.of("sum"), Fact.of(-1), p, Fact.of(p)));
        }
        return new Sweep(collective, "shell", "nccl-doctor sweep", Fact.of(collective), Fact.of(ranks), Fact.absent("n/a"), Map.of(),
                Fact.of(version), rows, Map.of(), 0);
    }

    @Test
    void ncclsChoicePerSizeFromRealTuningLines() {
        NcclLog log = NcclLog.parse(RTX5090);
        Map<Long, Fact<Choice>> chosen = TuneInputs.chosen(shell("broadcast", 2, "2.29.7", 1024, 32768, 134217728, 3000), List.of(log));
        assertThat(chosen.get(1024L).get()).isEqualTo(new Choice("ring", "ll", -1));
        assertThat(chosen.get(32768L).get()).isEqualTo(new Choice("ring", "simple", -1));
        assertThat(chosen.get(134217728L).get()).isEqualTo(new Choice("ring", "simple", -1));
        assertThat(chosen.get(3000L).reason()).isEqualTo("no TUNING line for 3000 bytes");
        Map<Long, Fact<Choice>> allreduce = TuneInputs.chosen(shell("allreduce", 2, "2.29.7", 1024), List.of(log));
        assertThat(allreduce.get(1024L).reason()).as("the log holds broadcast only").isEqualTo("no TUNING line for 1024 bytes");
    }

    @Test
    void allgatherBytesAreOneRanksShareFrom224() {
        assertThat(TunerNames.loggedBytes("allgather", 1 << 20, 8, Fact.of("2.29.7")).get()).isEqualTo(1L << 17);
        assertThat(TunerNames.loggedBytes("reducescatter", 1 << 20, 8, Fact.of("2.23.4")).get()).as("2.23 logged nBytes").isEqualTo(1L << 20);
        assertThat(TunerNames.loggedBytes("allreduce", 1 << 20, 8, Fact.absent("?")).get()).isEqualTo(1L << 20);
        assertThat(TunerNames.loggedBytes("allgather", 1 << 20, 8, Fact.absent("?")).reason()).startsWith("the NCCL version is not recorded");
    }

    @Test
    void nodeCountsAndTheEnvironmentNcclLogged() {
        assertThat(TuneInputs.nodes(List.of(NcclLog.parse(SOCKET))).get()).isEqualTo(2);
        assertThat(TuneInputs.nodes(List.of(NcclLog.parse(VLLM))).reason()).as("8 ranks on 1 node and 2 ranks on 2: no guess")
                .isEqualTo("the logs give several node counts [1, 2]");
        assertThat(TuneInputs.nodes(List.of(NcclLog.parse(RTX5090))).reason()).startsWith("no NCCL log with the node count");
        NcclLog vllm = NcclLog.parse(VLLM);
        assertThat(vllm.init().environment()).as("what NCCL said was set").containsKey("NCCL_IB_DISABLE");
        assertThat(TuneInputs.loggedEnv(List.of(vllm))).as("none of a tuner row's variables").isEmpty();
    }
}
