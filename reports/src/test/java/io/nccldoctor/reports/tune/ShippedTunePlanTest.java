package io.nccldoctor.reports.tune;

import static org.assertj.core.api.Assertions.assertThat;

import io.nccldoctor.collectives.sweep.SweepPlan;
import io.nccldoctor.reports.sweep.PlanValidator;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** configs/sweeps/tune.yaml: valid for an NCCL that loads the example tuner, on collectives a row can name, with the baseline. */
class ShippedTunePlanTest {

    @Test
    void theTunePlanIsValidFrom224AndHasNcclsDefaultsInEveryAxis() {
        SweepPlan plan = SweepPlan.load(Path.of("../configs/sweeps/tune.yaml"));
        assertThat(PlanValidator.problems(plan, "2.28.3")).isEmpty();
        assertThat(PlanValidator.problems(plan, "2.23.4")).as("the per-function form is refused before 2.24, as the comment says")
                .singleElement().asString().startsWith("matrix.NCCL_ALGO: 'allreduce:Tree': the per-function form");
        assertThat(plan.collectives()).allMatch(TunerNames.COLLECTIVES::contains);
        assertThat(plan.matrix().values()).allMatch(values -> values.contains("default"));
        assertThat(plan.env()).containsEntry("NCCL_DEBUG_SUBSYS", "INIT,ENV,TUNING");
        assertThat(plan.repetitions()).isGreaterThanOrEqualTo(5);
    }
}
