package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.GpuHealth;
import io.nccldoctor.gdr.GpuHealthProbe;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A rule that looks at one NVML fact of each GPU (GpuHealth): waived when no GPU has the fact (with NVML's reason,
 * e.g. "not supported on this GPU"), else one finding per GPU the judge flags.
 *
 * @param <T> the fact's type
 */
final class GpuCheck<T> implements Rule {

    /** Judges one GPU's fact: a finding, or empty when it is fine. */
    interface Judge<T> {
        Optional<Finding> judge(GpuHealth.Gpu gpu, T value, Rule rule);
    }

    private final RuleInfo info;
    private final Function<GpuHealth.Gpu, Fact<T>> field;
    private final Judge<T> judge;

    GpuCheck(RuleInfo info, Function<GpuHealth.Gpu, Fact<T>> field, Judge<T> judge) {
        this.info = info;
        this.field = field;
        this.judge = judge;
    }

    /** The GPUs NVML listed, or why there are none to judge. */
    static Fact<List<GpuHealth.Gpu>> gpus(Snapshot s) {
        GpuHealth h = s.section(GpuHealthProbe.KEY, GpuHealth.class);
        if (h == null) {
            return Fact.absent("GPU health was not probed");
        }
        return h.gpus().flatMap(l -> l.isEmpty() ? Fact.absent("NVML lists no GPU") : Fact.of(l));
    }

    @Override
    public RuleInfo info() {
        return info;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        Fact<List<GpuHealth.Gpu>> gpus = gpus(s);
        if (!gpus.isValue()) {
            return Outcome.waived(gpus.reason());
        }
        List<Finding> out = new ArrayList<>();
        String missing = null;
        boolean any = false;
        for (GpuHealth.Gpu g : gpus.get()) {
            Fact<T> f = field.apply(g);
            if (!f.isValue()) {
                missing = missing == null ? g.label() + ": " + f.reason() : missing;
                continue;
            }
            any = true;
            judge.judge(g, f.get(), this).ifPresent(out::add);
        }
        return any ? Outcome.flag(out) : Outcome.waived(missing);
    }
}
