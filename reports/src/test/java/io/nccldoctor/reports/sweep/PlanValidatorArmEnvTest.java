package io.nccldoctor.reports.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.collectives.sweep.SweepPlan;
import io.nccldoctor.core.Json;
import org.junit.jupiter.api.Test;

/** armEnv names libraries of the plan, and its values are read as NCCL reads them, like env and matrix. */
class PlanValidatorArmEnvTest {

    @Test
    void armEnvIsCheckedLikeEnv() throws Exception {
        SweepPlan plan = Json.yaml().readValue("""
                name: v
                collectives: [allreduce]
                libraries: {a: /, b: /}
                armEnv:
                  b: {NCCL_PROTO: LL129, NCCL_TUNER_PLUGIN: example}
                  c: {NCCL_ALGO: Ring}
                """, SweepPlan.class);
        assertThat(PlanValidator.problems(plan, "2.28.3")).containsExactly(
                "armEnv.b.NCCL_PROTO: 'LL129': unknown protocol 'LL129' (known protocols: LL, LL128, Simple; NCCL 2.28.3 rejects it)",
                "armEnv.c: no library of that name (armEnv sets variables in one arm of libraries)");
    }
}
