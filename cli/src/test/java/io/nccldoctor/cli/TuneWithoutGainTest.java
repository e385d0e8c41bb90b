package io.nccldoctor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.nccldoctor.core.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * `tune` on a sweep of the stand-in NCCL where nothing beats NCCL's own choice (no planted range: NCCL_PROTO=LL128 is
 * only slower): a file without rows, said so; and on runs too few for the statistics, every point that lacks them
 * named and nothing judged.
 */
class TuneWithoutGainTest {

    private static final Duration LIMIT = Duration.ofSeconds(240);

    @TempDir
    Path tmp;

    private static String cli(int expected, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Cli.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        assertThat(code).as(out + "" + err).isEqualTo(expected);
        return out.toString();
    }

    @Test
    void nothingBeatsNcclAndTooFewRunsAreNamed() throws Exception {
        Path plan = Files.writeString(tmp.resolve("plan.yaml"), """
                name: no-gain
                collectives: [allreduce]
                sizes: {min: 256K, max: 512K, factor: 2}
                warmup: 2
                iters: 5
                check: 0
                repetitions: 3
                gpus: 2
                matrix:
                  NCCL_PROTO: [default, LL128]
                env: {NCCL_DEBUG_SUBSYS: "INIT,ENV,TUNING", STANDIN_NCCL_COST: "1", STANDIN_NCCL_COST_WIN: none}
                timeoutSeconds: 120
                """);
        Path results = tmp.resolve("r.jsonl");
        StandInTool.Ran sweep = StandInTool.run(Map.of("LD_LIBRARY_PATH", StandInTool.path("cuda13", "nccl-2.28.3")), LIMIT, "sweep",
                plan.toString(), "-o", results.toString());
        assertThat(sweep.code()).as(sweep.out() + sweep.err()).isZero();

        Path conf = tmp.resolve("nccl_tuner.conf");
        String out = cli(0, "tune", results.toString(), "-o", conf.toString());
        assertThat(out).contains("allreduce on 2 ranks, 1 node: no size switches",
                "wrote " + conf + ": no rows: nothing measured beats NCCL's own choice for real");
        assertThat(Files.readString(conf)).startsWith("# nccl-doctor tune").contains("\n# no rows: nothing measured beats NCCL's own choice")
                .doesNotContainPattern("(?m)^[a-z]");
        JsonNode json = Json.mapper().readTree(cli(0, "tune", results.toString(), "--json"));
        assertThat(json.get("rows")).isEmpty();
        assertThat(json.at("/shapes/0/sizes")).as("LL128 is 26 %% slower in the model; on a loaded machine a size may come out "
                + "undecided, never switched").hasSize(2).allSatisfy(size -> assertThat(size.get("decision").asText()).isEqualTo("KEEP"));

        Path rules = Files.writeString(tmp.resolve("rules.yaml"), "thresholds:\n  compare:\n    minSamples: 4\n");
        String few = cli(0, "tune", results.toString(), "-o", conf.toString(), "--rules", rules.toString());
        assertThat(few).contains("Too few runs, not judged (4 needed per setting and size):",
                "  allreduce on 2 ranks, 1 node, default: 256 KiB (3 runs), 512 KiB (3 runs)",
                "  allreduce on 2 ranks, 1 node, NCCL_PROTO=LL128: 256 KiB (3 runs), 512 KiB (3 runs)",
                "stays with NCCL at 256 KiB, 512 KiB: 3 run(s) with NCCL's defaults; 4 needed", "no rows");
    }
}
