package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;

/** A device that could run wider or faster than the port it sits on allows: the slot, not the card, sets the ceiling. */
public final class LinkLimitedBySlot implements Rule {

    static final RuleInfo INFO = new RuleInfo("LINK_LIMITED_BY_SLOT", Severity.INFO,
            "the slot limits the device below its own capability",
            "The link runs at what the port allows, and the port allows less than the card can do: a x16 GPU in a slot "
                    + "bifurcated x8/x8, a Gen5 card on a Gen3 port, a dual-port 100G NIC in a Gen3 x8 slot that carries "
                    + "about 63 Gbit/s per direction for both ports together. Not a fault, but the ceiling every "
                    + "bandwidth number on this device must be judged against.",
            "max_link_speed/width of the device and of its parent port, and the current link (sysfs)",
            "Move the card to a slot wired for its full width and generation, or change the bifurcation setting; "
                    + "otherwise expect the computed ceiling in `nccl-doctor topo`, not the card's datasheet figure.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        return Links.check(this, s, (l, p) -> {
            List<String> limits = new ArrayList<>();
            if (l.maxWidth().isValue() && p.maxWidth().isValue() && p.maxWidth().get() < l.maxWidth().get()) {
                limits.add("x" + p.maxWidth().get() + " port for a x" + l.maxWidth().get() + " device");
            }
            if (l.maxSpeedGTps().isValue() && p.maxSpeedGTps().isValue() && p.maxSpeedGTps().get() < l.maxSpeedGTps().get() - 0.01) {
                limits.add(p.maxSpeedGTps().get() + " GT/s port for a " + l.maxSpeedGTps().get() + " GT/s device");
            }
            return limits;
        }, ": ", false);
    }
}
