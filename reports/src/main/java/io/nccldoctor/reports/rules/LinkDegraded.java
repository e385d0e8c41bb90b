package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.pcie.DeviceKind;
import io.nccldoctor.pcie.PciDevice;
import io.nccldoctor.pcie.PciLink;
import io.nccldoctor.pcie.PciTree;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import io.nccldoctor.reports.TopologyView;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

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
        var devices = TopologyView.devices(s);
        if (devices.isEmpty()) {
            return Outcome.waived("the PCI bus could not be read");
        }
        PciTree tree = PciTree.of(devices.get());
        List<Finding> findings = new ArrayList<>();
        for (PciDevice d : checked(tree, devices.get())) {
            var parent = tree.parent(d.address());
            if (parent.isEmpty()) {
                continue;
            }
            PciLink l = d.link();
            PciLink p = parent.get().link();
            Fact<Integer> wantWidth = min(l.maxWidth(), p.maxWidth());
            Fact<Double> wantSpeed = min(l.maxSpeedGTps(), p.maxSpeedGTps());
            List<String> problems = new ArrayList<>();
            if (l.width().isValue() && wantWidth.isValue() && l.width().get() < wantWidth.get()) {
                problems.add("x" + l.width().get() + " instead of x" + wantWidth.get());
            }
            if (d.kind() != DeviceKind.GPU && l.speedGTps().isValue() && wantSpeed.isValue() && l.speedGTps().get() < wantSpeed.get() - 0.01) {
                problems.add(l.speedGTps().get() + " GT/s instead of " + wantSpeed.get() + " GT/s");
            }
            if (!problems.isEmpty()) {
                findings.add(finding(d.address(), d.kind().name() + " " + d.address() + " link runs at " + String.join(", ", problems),
                        List.of(d.address() + " [" + d.ids() + "] link " + describe(l),
                                "parent port " + parent.get().address() + " link " + describe(p))));
            }
        }
        return findings.isEmpty() ? Outcome.pass() : Outcome.flag(findings);
    }

    /** GPUs, NICs, NVSwitches and switch upstream ports: the devices whose own link is the one below them. */
    static List<PciDevice> checked(PciTree tree, List<PciDevice> devices) {
        Set<String> upstream = new LinkedHashSet<>();
        devices.forEach(d -> upstream.addAll(tree.switches(d.address())));
        return devices.stream().filter(d -> d.kind() == DeviceKind.GPU || d.kind() == DeviceKind.NIC
                || d.kind() == DeviceKind.NVSWITCH || upstream.contains(d.address())).toList();
    }

    static <T extends Comparable<T>> Fact<T> min(Fact<T> a, Fact<T> b) {
        if (a.isValue() && b.isValue()) {
            return Fact.of(a.get().compareTo(b.get()) <= 0 ? a.get() : b.get());
        }
        return a.isValue() ? Fact.absent("parent maximum unknown") : Fact.absent("device maximum unknown");
    }

    static String describe(PciLink l) {
        return l.speedGTps().map(v -> v + " GT/s").orElse("?") + " x" + l.width().map(String::valueOf).orElse("?")
                + " (max " + l.maxSpeedGTps().map(v -> v + " GT/s").orElse("?") + " x" + l.maxWidth().map(String::valueOf).orElse("?") + ")";
    }
}
