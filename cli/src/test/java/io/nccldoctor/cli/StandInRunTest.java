package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.core.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * `run` end to end, in its own JVM, against the host-memory stand-ins for libcuda.so.1 and libnccl.so.2 on the
 * library path: every collective's table, the hangs and failures --timeout must end, the child for an NCCL without
 * non-blocking initialisation, two processes joined through the unique id.
 */
class StandInRunTest {

    private static final Duration LIMIT = Duration.ofSeconds(120);

    @TempDir
    Path tmp;

    static Map<String, String> env(String... folders) {
        Map<String, String> e = new HashMap<>();
        e.put("LD_LIBRARY_PATH", StandInTool.path(folders));
        return e;
    }

    static Map<String, String> env(String nccl, Map<String, String> switches) {
        Map<String, String> e = env("cuda13", nccl);
        e.putAll(switches);
        return e;
    }

    /** The #wrong columns of the table's rows: out-of-place, then in-place. */
    static List<String> wrongColumns(String out) {
        return out.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).map(l -> {
            String[] f = l.trim().split("\\s+");
            return f[8] + "/" + f[12];
        }).toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"allreduce", "allgather", "alltoall", "reducescatter", "broadcast", "reduce", "sendrecv"})
    void everyCollectiveOnFourGpusPrintsATableWithNoWrongElement(String collective) {
        StandInTool.Ran r = StandInTool.run(env("cuda13", "nccl-2.28.3"), LIMIT, "run", "-g", "4", "-c", "1", "--collective", collective,
                "-e", "64K", "--log-dir", tmp.resolve("logs").toString());
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("# nccl-doctor run: " + collective + ", NCCL 2.28.3, 4 ranks").contains("# Out of bounds values : 0 OK")
                .contains("nccl.");
        List<String> wrong = wrongColumns(r.out());
        assertThat(wrong).hasSizeGreaterThan(10);
        String inPlace = collective.equals("alltoall") || collective.equals("sendrecv") ? "N/A" : "0";
        assertThat(wrong).as("#wrong of every row, out-of-place/in-place").containsOnly("0/" + inPlace);
    }

    @Test
    void anInitialisationThatHangsEndsAtTheTimeoutWithNothingLeftRunning() {
        Path marker = tmp.resolve("hang-init-logs");
        StandInTool.Ran r = StandInTool.run(env("nccl-2.28.3", Map.of("STANDIN_NCCL_HANG", "init")), LIMIT, "run", "-g", "2",
                "--timeout", "5", "--log-dir", marker.toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).contains("FAILED: rank 0: NCCL was still initialising its communicator after 5 s (a hang");
        assertThat(StandInTool.processesWith(marker.toString())).isEmpty();
        System.out.printf("run --timeout 5 with a hung initialisation ended after %d ms%n", r.ms());
    }

    @Test
    void aCollectiveThatHangsEndsAtTheTimeout() throws Exception {
        StandInTool.Ran r = StandInTool.run(env("nccl-2.28.3", Map.of("STANDIN_NCCL_HANG", "collective:4")), LIMIT, "run", "-g", "2",
                "--timeout", "3", "-e", "64", "--json");
        assertThat(r.code()).isEqualTo(1);
        JsonNode doc = Json.mapper().readTree(r.out());
        assertThat(doc.at("/result/failure/value").asText()).isEqualTo("rank 0: the collective did not complete before the time limit (a hang)");
    }

    @Test
    void anNcclWithoutNonBlockingInitialisationRunsInAChildThatIsKilledAtTheTimeout() {
        StandInTool.Ran ok = StandInTool.run(env("cuda13", "nccl-2.13.4"), LIMIT, "run", "-g", "2", "-e", "1K", "--collective", "alltoall");
        assertThat(ok.code()).as(ok.out() + ok.err()).isZero();
        assertThat(ok.out()).contains("# nccl-doctor run: alltoall, NCCL 2.13.4, 2 ranks").contains("# Out of bounds values : 0 OK");
        Path marker = tmp.resolve("old-nccl-logs");
        StandInTool.Ran hung = StandInTool.run(env("nccl-2.13.4", Map.of("STANDIN_NCCL_HANG", "init")), LIMIT, "run", "-g", "2",
                "--timeout", "3", "--log-dir", marker.toString());
        assertThat(hung.code()).isEqualTo(1);
        assertThat(hung.out()).contains("FAILED: NCCL 2.13.4 has no non-blocking initialisation (ncclCommInitRankConfig, NCCL 2.14), so "
                + "the run went to a child process; it stayed in \"initialising NCCL on 2 GPU(s)\" for more than 3 s (a hang) and was "
                + "killed with its process tree");
        assertThat(StandInTool.processesWith(marker.toString())).as("the child JVM and its threads are gone").isEmpty();
    }

    @Test
    void perIterationTimesFallBackToThePlainEventCallOfAnOlderDriver() {
        StandInTool.Ran r = StandInTool.run(env("cuda12", "nccl-2.28.3"), LIMIT, "run", "-g", "2", "-I", "-b", "1K", "-e", "1K");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("# per iteration at 1,024 bytes (cudaEvent, 20 iterations): out-of-place min ");
    }

    @Test
    void twoProcessesJoinThroughNcclCommIdOrARendezvous() throws Exception {
        // 2.28.3: NCCL_COMM_ID is safe; 2.21.5 is in the range where it is not, so rank 0 publishes the id in a file
        for (String version : List.of("2.28.3", "2.21.5")) {
            Process[] ps = new Process[2];
            Path[] outs = new Path[2];
            for (int rank = 0; rank < 2; rank++) {
                Map<String, String> e = env("cuda13", "nccl-" + version);
                e.putAll(Map.of("SLURM_PROCID", String.valueOf(rank), "SLURM_NTASKS", "2", "SLURM_LOCALID", String.valueOf(rank),
                        "SLURM_JOB_ID", "77" + version.replace(".", ""), "NCCL_COMM_ID", "127.0.0.1:29500"));
                List<String> args = new ArrayList<>(List.of("run", "-g", "1", "--collective", "allgather", "-e", "16K",
                        "--timeout", "60"));
                if (version.equals("2.21.5")) {
                    args.addAll(List.of("--rendezvous", "file:" + tmp.resolve("id-" + version)));
                }
                outs[rank] = tmp.resolve("rank" + rank + "-" + version + ".txt");
                ps[rank] = StandInTool.start(e, outs[rank], args.toArray(String[]::new));
            }
            for (int rank = 0; rank < 2; rank++) {
                assertThat(ps[rank].waitFor(120, TimeUnit.SECONDS)).as("rank %d ended", rank).isTrue();
                String out = Files.readString(outs[rank]);
                assertThat(ps[rank].exitValue()).as(out).isZero();
                assertThat(out).contains("rank " + rank + " of 2 (local rank " + rank + "), from Slurm")
                        .contains("allgather, NCCL " + version + ", 2 ranks").contains("# Out of bounds values : 0 OK");
            }
        }
    }

    @Test
    void aLibraryThatCannotLoadSaysWhyAndTheOldOperationFlagSaysWhereItWent() {
        StandInTool.Ran r = StandInTool.run(env("cuda13", "broken"), LIMIT, "run");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).contains("NCCL (libnccl.so.2): found at ").contains("but it does not load: ")
                .contains("libstandin-absent.so.0: cannot open shared object file: No such file or directory");
        StandInTool.Ran o = StandInTool.run(env("cuda13", "nccl-2.28.3"), LIMIT, "run", "-o", "max");
        assertThat(o.code()).isEqualTo(2);
        assertThat(o.err()).contains("-o max: the reduction operation is --op max");
    }
}
