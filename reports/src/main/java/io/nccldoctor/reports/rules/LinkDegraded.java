package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;

/**
 * A link that trained below what both of its ends support. Width is what matters: a x16 card at x8 has half the
 * bandwidth, and width does not change at run time. Speed below the maximum is normal for an idle GPU (it drops to
 * 2.5 GT/s to save power and returns under load), so only non-GPU speed losses count.
 */
public final class LinkDegraded implements Rule {

    static final RuleInfo INFO = new RuleInfo("LINK_DEGRADED", Severity.ERROR,
            "PCIe link trained below what both ends support",
            "Both the device and the port it sits on can do more than the link runs at: fewer lanes (x8 instead of x16) "
                    + "or, for a NIC or switch, a lower generation. Causes: a card not fully seated, a riser or retimer "
                    + "fault, a damaged slot, signal-integrity retraining. It halves (or worse) the ceiling of everything "
                    + "behind the link and raises no error anywhere. An idle GPU at 2.5 GT/s is not this: GPUs lower "
                    + "their link speed at idle and restore it under load; their width never changes.",
            "current_link_speed/width of each GPU, NIC, NVSwitch and switch upstream port, and max_link_speed/width of "
                    + "the device and of its parent port (sysfs)",
            "Reseat the card or riser, check the slot's BIOS settings (link speed, bifurcation), compare with "
                    + "`lspci -vvv` LnkSta (downgraded); drain the node if a GPU or NIC link is narrow.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        return Links.check(this, s, (l, p) -> {
            List<String> problems = new ArrayList<>();
            Fact<Integer> wantWidth = min(l.maxWidth(), p.maxWidth());
            Fact<Double> wantSpeed = min(l.maxSpeedGTps(), p.maxSpeedGTps());
            if (l.width().isValue() && wantWidth.isValue() && l.width().get() < wantWidth.get()) {
                problems.add("x" + l.width().get() + " instead of x" + wantWidth.get());
            }
            if (l.speedGTps().isValue() && wantSpeed.isValue() && l.speedGTps().get() < wantSpeed.get() - 0.01) {
                problems.add(l.speedGTps().get() + " GT/s instead of " + wantSpeed.get() + " GT/s");
            }
            return problems;
        }, " link runs at ", true);
    }

    static <T extends Comparable<T>> Fact<T> min(Fact<T> a, Fact<T> b) {
        if (a.isValue() && b.isValue()) {
            return Fact.of(a.get().compareTo(b.get()) <= 0 ? a.get() : b.get());
        }
        return a.isValue() ? Fact.absent("parent maximum unknown") : Fact.absent("device maximum unknown");
    }
}
