package io.nccldoctor.reports.tune;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.collectives.sweep.ChildSpec;
import io.nccldoctor.collectives.sweep.SweepPlan;
import io.nccldoctor.core.Json;
import io.nccldoctor.reports.compare.CompareThresholds;
import io.nccldoctor.reports.sweep.PlanValidator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every file `tune` writes, read back as its reader reads it: the tuner configuration with the column rules of NCCL's
 * example tuner (plugins/tuner/example/plugin.c at NVIDIA/nccl 5067397c, the same reader since ext-tuner/example of
 * v2.27.5-1; ported rule for rule in {@link ExampleTunerConfig}), the verification plan as `sweep` reads it.
 */
class TunerFileRulesTest {

    private static Tuning tuning(List<String> inputs, Measurements m) {
        return Tuner.tune(inputs, m.read(), new Tuner.Options(CompareThresholds.DEFAULTS, null), false);
    }

    /** Rows on two collectives, one of them in two ranges, with a channel count. */
    private static Measurements several() {
        return TunerTest.planted(3).add("allgather", Map.of(), 3, Measurements.all(10), TunerTest.SIMPLE_LOG)
                .add("allgather", Map.of("NCCL_ALGO", "Tree", "NCCL_PROTO", "LL", "NCCL_MAX_NCHANNELS", "2"), 3,
                        new double[] {14, 9, 14, 14, 9}, Measurements.all("TREE/LL"));
    }

    private static void readsBackAsWritten(Tuning t) {
        String file = TunerFile.render(t);
        assertThat(file).startsWith(TunerFile.MARKER).doesNotContain("\r").endsWith("\n");
        for (String line : ExampleTunerConfig.fgets(file.getBytes(StandardCharsets.UTF_8))) {
            assertThat(line).as("every line ends within fgets' 255 bytes, or its tail would be read as a row").endsWith("\n");
            assertThat(line).as("a line is a comment from its first byte, or a row").matches("(#.*|[a-z]+(,-?\\d+){2},[a-z_0-9]+,[a-z0-9]+(,-?\\d+){5})\n");
        }
        List<ExampleTunerConfig.Row> read = ExampleTunerConfig.read(file);
        assertThat(read).as("the plugin's rows, names it knows, wildcards for numPipeOps and regBuff").containsExactlyElementsOf(t.rows().stream()
                .map(r -> new ExampleTunerConfig.Row(r.collective(), r.minBytes(), r.maxBytes(), r.algorithm(), r.protocol(), r.channels(),
                        r.nNodes(), r.nRanks(), -1, -1, true)).toList());
    }

    @Test
    void rowsOfSeveralCollectivesAndRangesReadBackExactly() {
        Tuning t = tuning(List.of("tune.jsonl"), several());
        assertThat(t.rows()).containsExactly(new TunerRow("allgather", 1L << 17, 1L << 17, "tree", "ll", 2, 1, 2),
                new TunerRow("allgather", 1L << 19, 1L << 20, "tree", "ll", 2, 1, 2),
                new TunerRow("allreduce", 1L << 18, 1L << 20, "ring", "ll128", -1, 1, 2));
        readsBackAsWritten(t);
    }

    @Test
    void aFileWithoutRowsHoldsNothingThePluginWouldRead() {
        Tuning t = tuning(List.of("tune.jsonl"), new Measurements().add("allreduce", Map.of(), 3, Measurements.all(10), TunerTest.SIMPLE_LOG));
        readsBackAsWritten(t);
        assertThat(ExampleTunerConfig.read(TunerFile.render(t))).isEmpty();
    }

    @Test
    void longAndOddInputNamesStayInsideTheirCommentLines() {
        String longName = "/data/" + "very-long-folder-name/".repeat(20) + "tune,allreduce,0,99999999,tree,ll,1,-1,-1.jsonl";
        String odd = "runs\r\nallreduce,0,4294967295,tree,ll,-1,-1,-1\u00e9.jsonl";
        Tuning t = tuning(List.of(longName, odd), several());
        readsBackAsWritten(t);
        assertThat(TunerFile.render(t)).contains("# from runs??allreduce,0,4294967295,tree,ll,-1,-1,-1?.jsonl\n");
    }

    /** Why the limits: the same reader takes the tail of a long comment, and a name it does not know, for rows. */
    @Test
    void thePortedReaderKeepsThePluginsPitfalls() {
        String longComment = "#" + "x".repeat(254) + "allreduce,0,1,tree,ll,1,1,2\n";
        assertThat(ExampleTunerConfig.read(longComment)).as("fgets cut the comment at 255 bytes; the rest is a row")
                .containsExactly(new ExampleTunerConfig.Row("allreduce", 0, 1, "tree", "ll", 1, 1, 2, -1, -1, true));
        assertThat(ExampleTunerConfig.read("alltoall,0,1,Tree,LL128,1,1,2,,,1,-1\n")).as("unknown names become allreduce, ring, simple; "
                + "empty fields vanish").containsExactly(new ExampleTunerConfig.Row("allreduce", 0, 1, "ring", "simple", 1, 1, 2, 1, -1, false));
        assertThat(ExampleTunerConfig.read(" # indented\nallreduce,0,1,ring,ll\n")).as("a comment must start in the first column; "
                + "too few fields make no row").isEmpty();
    }

    @Test
    void theVerificationPlanReadsBackAsAValidTwoArmSweep() throws Exception {
        Tuning t = tuning(List.of("tune.jsonl"), several());
        Path conf = Path.of("/srv/tuning/nccl_tuner.conf");
        String text = VerifyPlan.render(t, new VerifyPlan.Options(conf, "/opt/plugins/libnccl-tuner-example.so", "/", null, null), "2.28.3");
        assertThat(text).startsWith(TunerFile.MARKER + " --verify-plan");
        SweepPlan plan = Json.yaml().readValue(text, SweepPlan.class);
        assertThat(PlanValidator.problems(plan, "2.28.3")).isEmpty();
        assertThat(plan.collectives()).containsExactly("allgather", "allreduce");
        assertThat(plan.sizes()).isEqualTo(new SweepPlan.Sizes("131072", "2097152", 2));
        assertThat(plan.repetitions()).isEqualTo(5);
        assertThat(plan.gpus()).isEqualTo(2);
        List<ChildSpec> children = plan.children();
        assertThat(children).extracting(ChildSpec::id).startsWith("nccl-defaults/default/rep1", "tuned/default/rep1", "nccl-defaults/default/rep2");
        assertThat(children.get(0).extraEnv()).isEqualTo(Map.of("NCCL_DEBUG_SUBSYS", "INIT,ENV,TUNING"));
        assertThat(children.get(1).extraEnv()).isEqualTo(Map.of("NCCL_DEBUG_SUBSYS", "INIT,ENV,TUNING", "NCCL_TUNER_PLUGIN",
                "/opt/plugins/libnccl-tuner-example.so", "NCCL_TUNER_CONFIG_FILE", "/srv/tuning/nccl_tuner.conf"));
    }
}
