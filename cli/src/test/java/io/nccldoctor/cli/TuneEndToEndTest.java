package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.collectives.sweep.ResultLog;
import io.nccldoctor.collectives.sweep.SweepRecord;
import io.nccldoctor.core.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sweep, tune, the verification plan, sweep again, compare: end to end against the host-memory stand-in NCCL with its
 * cost model on (collectives/src/test/c/cost.c). Planted: allreduce on ring/ll128 is x1.67 faster than NCCL's own
 * Ring/Simple from 512 KiB to 1 MiB, which NCCL's cost table does not know; NCCL_PROTO=LL128 is 26 % slower
 * everywhere else, allgather included. Expected: exactly that range becomes a row, the global pin is refused, and in
 * the verification the tuned arm is faster there (interval above 1.03, p below 0.05) and nowhere else different. The
 * times are modelled in milliseconds so that they dominate the host's own overheads; the verdicts are compare's, as a
 * user would read them. Seven runs per arm: on a loaded machine one run in a few is stalled by the scheduler, and with
 * seven a size keeps its verdict through one such run in either arm (exact U test p = 0.026 with one run of the faster
 * arm below all of the other's; the bootstrap median draws that run at most 1 % of the time).
 */
class TuneEndToEndTest {

    private static final Duration LIMIT = Duration.ofSeconds(300);
    private static final long KIB = 1024;

    @TempDir
    Path tmp;

    private static Map<String, String> env() {
        return Map.of("LD_LIBRARY_PATH", StandInTool.path("cuda13", "nccl-2.28.3"));
    }

    private record Run(int code, String out, String err) {
    }

    private static Run cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Cli.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    private Path plan() throws Exception {
        return Files.writeString(tmp.resolve("tune-standin.yaml"), """
                name: tune-standin
                collectives: [allreduce, allgather]
                sizes: {min: 256K, max: 2M, factor: 2}
                warmup: 5
                iters: 10
                check: 0
                repetitions: 7
                gpus: 2
                matrix:
                  NCCL_PROTO: [default, LL128]
                env:
                  NCCL_DEBUG_SUBSYS: INIT,ENV,TUNING
                  STANDIN_NCCL_COST: "1"
                  STANDIN_NCCL_COST_SCALE: "2"
                  STANDIN_NCCL_COST_WIN: allreduce:ring/ll128:524288-1048576:0.6
                launcher: local
                timeoutSeconds: 120
                """);
    }

    @Test
    void exactlyThePlantedRangeIsTunedAndTheTunedArmIsFasterThereOnly() throws Exception {
        Path plan = plan();
        Path results = tmp.resolve("tune.jsonl");
        StandInTool.Ran sweep = StandInTool.run(env(), LIMIT, "sweep", plan.toString(), "-o", results.toString());
        assertThat(sweep.code()).as(sweep.out() + sweep.err()).isZero();

        Path conf = tmp.resolve("nccl_tuner.conf");
        Path verify = tmp.resolve("verify.yaml");
        Run tune = cli("tune", results.toString(), "-o", conf.toString(), "--verify-plan", verify.toString(), "--plan", plan.toString(),
                "--as-env", "--json");
        assertThat(tune.code()).as(tune.out() + tune.err()).isZero();
        JsonNode t = Json.mapper().readTree(tune.out());
        assertThat(t.get("kind").asText()).isEqualTo("tune");
        assertThat(rows(t)).as(cli("tune", results.toString()).out()).containsExactly("allreduce,524288,1048576,ring,ll128,-1,1,2");
        assertThat(t.at("/pins/0/pin").asText()).isEqualTo("NCCL_PROTO=LL128");
        assertThat(t.at("/pins/0/refused").asBoolean()).isTrue();
        assertThat(t.at("/findings/0/code").asText()).as("the pin loses somewhere: refused").isEqualTo("NCCL_GLOBAL_PIN");
        assertThat(Files.readString(conf)).startsWith("# nccl-doctor tune").contains("\nallreduce,524288,1048576,ring,ll128,-1,1,2,-1,-1\n");

        Path checked = tmp.resolve("verify.jsonl");
        StandInTool.Ran again = StandInTool.run(env(), LIMIT, "sweep", verify.toString(), "-o", checked.toString());
        assertThat(again.code()).as(again.out() + again.err()).isZero();
        List<SweepRecord> tuned = ResultLog.read(checked).stream().filter(r -> r.isPoint() && r.arm().equals("tuned")).toList();
        assertThat(tuned).hasSize(14).allSatisfy(r -> assertThat(r.algorithms()).as("the tuner file reached NCCL in the tuned arm")
                .containsKey(r.collective().equals("allreduce") ? "RING/LL128" : "RING/SIMPLE"));

        Path json = tmp.resolve("verify.json");
        Run compare = cli("compare", checked.toString(), "-o", json.toString());
        String table = cli("compare", checked.toString(), "-o", tmp.resolve("verify.md").toString()).code() + "\n"
                + Files.readString(tmp.resolve("verify.md"));
        assertThat(compare.code()).as("the tuned arm is nowhere slower\n" + table).isZero();
        List<String> changed = new ArrayList<>();
        for (JsonNode r : Json.mapper().readTree(Files.readString(json)).get("rows")) {
            String verdict = r.get("verdict").asText();
            if (!verdict.equals("NO_CHANGE")) {
                changed.add(r.get("collective").asText() + " " + r.get("sizeBytes").asLong() / KIB + " KiB " + verdict);
            }
            if (verdict.equals("FASTER")) {
                assertThat(r.at("/interval/value/low").asDouble()).as(table).isGreaterThan(1.03);
                assertThat(r.at("/test/value/p").asDouble()).as(table).isLessThan(0.05);
            }
        }
        assertThat(changed).as(table).containsExactly("allreduce 512 KiB FASTER", "allreduce 1024 KiB FASTER");
    }

    private static List<String> rows(JsonNode tuning) {
        List<String> out = new ArrayList<>();
        for (JsonNode r : tuning.get("rows")) {
            out.add(String.join(",", r.get("collective").asText(), r.get("minBytes").asText(), r.get("maxBytes").asText(),
                    r.get("algorithm").asText(), r.get("protocol").asText(), r.get("channels").asText(), r.get("nNodes").asText(),
                    r.get("nRanks").asText()));
        }
        return out;
    }
}
