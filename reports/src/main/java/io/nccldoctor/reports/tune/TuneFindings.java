package io.nccldoctor.reports.tune;

import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.rules.NcclEnvironment;
import java.util.ArrayList;
import java.util.List;

/**
 * What `tune --as-env` raises against a pin measured slower somewhere: NCCL_GLOBAL_PIN, whose story is this one (a
 * per-job pin set for every job costs the other collectives; the field report's NCCL_PROTO=LL128). Preflight raises it
 * from a node's environment without measuring; here the evidence is the measurement, per collective and size range.
 * PROTOCOL_PATHOLOGY (report) is the other side: the collective a pin lifts.
 */
public final class TuneFindings {

    /** NCCL_GLOBAL_PIN: its code, severity, story and remedy. */
    static final RuleInfo GLOBAL_PIN = new NcclEnvironment.GlobalPin().info();

    private TuneFindings() {
    }

    /** One finding per refused pin, its evidence the ranges where it is slower and faster for real. */
    public static List<Finding> of(Tuning t) {
        List<Finding> out = new ArrayList<>();
        for (Tuning.PinCost p : t.pins()) {
            if (p.refused()) {
                List<String> evidence = new ArrayList<>();
                p.losses().forEach(r -> evidence.add("slower " + TuneText.ranges(List.of(r))));
                p.gains().forEach(r -> evidence.add("faster " + TuneText.ranges(List.of(r))));
                out.add(new Finding(GLOBAL_PIN.code(), GLOBAL_PIN.severity(), p.pin(), p.pin() + " as a global pin is slower than NCCL's "
                        + "own choice somewhere; not recommended", evidence, "Use the tuner file `tune -o` writes instead: it changes "
                        + "NCCL's choice only where a gain was measured. " + GLOBAL_PIN.remedy()));
            }
        }
        return out;
    }
}
