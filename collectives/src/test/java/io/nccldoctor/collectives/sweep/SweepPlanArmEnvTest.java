package io.nccldoctor.collectives.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.core.Json;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** armEnv: variables of one arm only, so that one library can be A/B'd with and without a setting (a tuner plugin). */
class SweepPlanArmEnvTest {

    @Test
    void anArmsVariablesReachOnlyThatArmsChildrenOverThePlansEnv() throws Exception {
        SweepPlan plan = Json.yaml().readValue("""
                name: v
                collectives: [allreduce]
                repetitions: 2
                env: {NCCL_DEBUG_SUBSYS: INIT, NCCL_TUNER_CONFIG_FILE: /plan/wide.conf}
                libraries: {defaults: /opt/nccl/lib, tuned: /opt/nccl/lib}
                armEnv:
                  tuned: {NCCL_TUNER_PLUGIN: example, NCCL_TUNER_CONFIG_FILE: /srv/nccl_tuner.conf}
                """, SweepPlan.class);
        List<ChildSpec> children = plan.children();
        assertThat(children).extracting(ChildSpec::id).containsExactly("defaults/default/rep1", "tuned/default/rep1", "defaults/default/rep2",
                "tuned/default/rep2");
        Map<String, String> defaults = children.get(0).environment(Map.of("PATH", "/bin"), Path.of("/tmp/c0"));
        Map<String, String> tuned = children.get(1).environment(Map.of("PATH", "/bin"), Path.of("/tmp/c1"));
        assertThat(defaults).doesNotContainKey("NCCL_TUNER_PLUGIN").containsEntry("NCCL_TUNER_CONFIG_FILE", "/plan/wide.conf");
        assertThat(tuned).containsEntry("NCCL_TUNER_PLUGIN", "example").containsEntry("NCCL_TUNER_CONFIG_FILE", "/srv/nccl_tuner.conf")
                .containsEntry("NCCL_DEBUG_SUBSYS", "INIT");
        assertThat(children.get(3).extraEnv()).isEqualTo(children.get(1).extraEnv());
    }

    @Test
    void aPlanWithoutArmEnvRunsAsBefore() throws Exception {
        SweepPlan plan = Json.yaml().readValue("name: v\ncollectives: [allreduce]\nenv: {A: b}\n", SweepPlan.class);
        assertThat(plan.armEnv()).isEmpty();
        assertThat(plan.children()).singleElement().satisfies(c -> assertThat(c.extraEnv()).isEqualTo(Map.of("A", "b")));
    }
}
