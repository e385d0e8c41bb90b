package io.nccldoctor.reports.tune;

import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;

/**
 * The finding `tune --as-env` raises. NCCL_GLOBAL_PIN (preflight) flags a pin in a node's environment without
 * measuring it, and PROTOCOL_PATHOLOGY (report) flags the collective a pin would lift; neither says what a measured pin
 * costs elsewhere, which is what refuses it here.
 */
public final class TuneFindings {

    public static final RuleInfo PIN_LOSES = new RuleInfo("GLOBAL_PIN_LOSES", Severity.ERROR,
            "a global NCCL pin was measured slower than NCCL's own choice somewhere",
            "A global NCCL_PROTO or NCCL_ALGO (or any NCCL variable set for every job) applies to every collective, size and "
                    + "node count. In the field report NCCL_PROTO=LL128 lifted 3-node allgather 3.5-fold and, pinned globally, cost "
                    + "allreduce and the other collectives 20-30 %. `tune --as-env` measured the pin against NCCL's defaults in the "
                    + "same sweep and found it slower for real somewhere: the 95 % interval of the busbw ratio below 1 - minGain, "
                    + "with a significant Mann-Whitney p, so it does not recommend the pin.",
            "a sweep with and without the pin (the same collectives, sizes and repetitions), compared per collective and size",
            "Use the tuner file `tune -o` writes instead: it changes NCCL's choice only at the sizes where a gain was measured, "
                    + "and leaves the rest to NCCL. Verify it with `tune --verify-plan`, then `sweep` and `compare`. If a pin is "
                    + "unavoidable, set it in the one job that needs it, not for the node.");

    private TuneFindings() {
    }

    /** Every code `tune` can raise, for `explain`. */
    public static List<RuleInfo> all() {
        return List.of(PIN_LOSES);
    }

    /** One finding per refused pin. */
    public static List<Finding> of(Tuning t) {
        List<Finding> out = new ArrayList<>();
        for (Tuning.PinCost p : t.pins()) {
            if (p.refused()) {
                List<String> evidence = new ArrayList<>();
                p.losses().forEach(r -> evidence.add("slower " + TuneText.ranges(List.of(r))));
                p.gains().forEach(r -> evidence.add("faster " + TuneText.ranges(List.of(r))));
                out.add(new Finding(PIN_LOSES.code(), PIN_LOSES.severity(), p.pin(), p.pin() + " as a global pin loses where NCCL's "
                        + "choice is faster; not recommended", evidence, PIN_LOSES.remedy()));
            }
        }
        return out;
    }
}
