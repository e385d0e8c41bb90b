package io.nccldoctor.reports.tune;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.nccldoctor.collectives.sweep.SweepPlan;
import io.nccldoctor.core.InputException;
import io.nccldoctor.core.output.Marker;
import io.nccldoctor.reports.compare.CompareThresholds;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The files `tune` writes, under the output rule every verb follows: the marker on the first line (a '#' comment, which
 * NCCL's example tuner skips and YAML ignores), the next run replacing its own file, anything else only with --force.
 */
class TuneOutputsTest {

    @TempDir
    Path tmp;

    private static Tuning tuning() {
        Measurements m = TunerTest.planted(3).add("allgather", Map.of(), 3, Measurements.all(10), TunerTest.SIMPLE_LOG)
                .add("allgather", Map.of("NCCL_ALGO", "Tree", "NCCL_PROTO", "LL", "NCCL_MAX_NCHANNELS", "2"), 3,
                        new double[] {14, 9, 14, 14, 9}, Measurements.all("TREE/LL"));
        return Tuner.tune(List.of("tune.jsonl"), m.read(), new Tuner.Options(CompareThresholds.DEFAULTS, null), false);
    }

    private static String plan(Tuning t, Path conf) {
        return VerifyPlan.render(t, new VerifyPlan.Options(conf, "example", "/", null, null), "2.28.3");
    }

    @Test
    void theMarkedTunerFileReadsBackAsThePluginReadsIt() throws Exception {
        Tuning t = tuning();
        Path conf = tmp.resolve("nccl_tuner.conf");
        TuneOutputs.write(t, conf, null, null, false);
        String text = Files.readString(conf);
        assertThat(text).startsWith("# " + Marker.WORDS + " (tune -o)").contains("\n" + TunerFile.TITLE + ": rows");
        assertThat(Marker.in(conf)).isTrue();
        assertThat(ExampleTunerConfig.read(text)).as("the marker line is a comment to the plugin: the same rows as without it")
                .isEqualTo(ExampleTunerConfig.read(TunerFile.render(t))).hasSize(t.rows().size()).isNotEmpty();
        assertThat(text.lines()).allMatch(l -> l.length() <= TunerFile.MAX_LINE);
        assertThat(Files.getPosixFilePermissions(conf)).as("NCCL reads it in other users' jobs").contains(PosixFilePermission.OTHERS_READ,
                PosixFilePermission.GROUP_READ);
    }

    @Test
    void theMarkedPlanLoadsAsASweepAndBothAreReplacedByTheNextRun() throws Exception {
        Tuning t = tuning();
        Path conf = tmp.resolve("nccl_tuner.conf");
        Path verify = tmp.resolve("verify.yaml");
        List<String> said = TuneOutputs.write(t, conf, verify, plan(t, conf), false);
        assertThat(Files.readString(verify)).startsWith("# " + Marker.WORDS + " (tune --verify-plan)");
        assertThat(SweepPlan.load(verify).children()).hasSize(2 * 5);
        assertThat(said.get(said.size() - 1)).contains("--results verify.jsonl");
        TuneOutputs.write(t, conf, verify, plan(t, conf), false);
        try (Stream<Path> s = Files.list(tmp)) {
            assertThat(s).as("nothing beside the two files").containsExactlyInAnyOrder(conf, verify);
        }
    }

    @Test
    void filesAnEarlierTuneWroteUnderItsTitleAreStillItsOwn() throws Exception {
        Path conf = Files.writeString(tmp.resolve("nccl_tuner.conf"), "# nccl-doctor tune: rows for NCCL's example tuner plugin "
                + "(NCCL_TUNER_PLUGIN, NCCL_TUNER_CONFIG_FILE=this file)\nallreduce,0,65536,tree,ll,-1,1,2,-1,-1\n");
        Path verify = Files.writeString(tmp.resolve("verify.yaml"), "# nccl-doctor tune --verify-plan: NCCL's defaults\nsizes: {}\n");
        Tuning t = tuning();
        TuneOutputs.check(conf, verify, false);
        TuneOutputs.write(t, conf, verify, plan(t, conf), false);
        assertThat(Files.readString(conf)).startsWith("# " + Marker.WORDS);
    }

    @Test
    void aUsersFileIsRefusedBeforeAnyWorkAndKeptUnlessForced() throws Exception {
        Path conf = Files.writeString(tmp.resolve("nccl_tuner.conf"), "# nccl-doctor tune notes, kept by hand\nallreduce,0,1,ring,ll\n");
        assertThatThrownBy(() -> TuneOutputs.check(conf, null, false)).isInstanceOf(InputException.class)
                .hasMessage("-o " + conf + ": exists and is not an earlier nccl-doctor output (its first line carries no nccl-doctor "
                        + "marker); give another name, or --force to replace it");
        assertThat(Files.readString(conf)).startsWith("# nccl-doctor tune notes");
        TuneOutputs.write(tuning(), conf, null, null, true);
        assertThat(Marker.in(conf)).isTrue();
    }
}
