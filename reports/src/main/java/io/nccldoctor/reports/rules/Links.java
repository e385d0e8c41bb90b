package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.pcie.DeviceKind;
import io.nccldoctor.pcie.PciDevice;
import io.nccldoctor.pcie.PciLink;
import io.nccldoctor.pcie.PciTree;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.TopologyView;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * The links whose state the link rules judge: each GPU, NIC, NVSwitch and switch upstream port with the port it
 * hangs from. A rule gives the problems of one (device, port) pair; this runs it over all of them. The title of a
 * finding is the device, {@code verb}, and the problems.
 */
final class Links {

    private Links() {
    }

    static Outcome check(Rule rule, Snapshot s, BiFunction<PciLink, PciLink, List<String>> problems, String verb, boolean skipGpuSpeed) {
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
            if (skipGpuSpeed && d.kind() == DeviceKind.GPU) {
                // GPUs lower their link speed at idle and restore it under load; only their width is judged.
                l = new PciLink(l.maxSpeedGTps(), l.width(), l.maxSpeedGTps(), l.maxWidth());
            }
            List<String> found = problems.apply(l, parent.get().link());
            if (!found.isEmpty()) {
                findings.add(rule.finding(d.address(), d.kind().name() + " " + d.address() + verb + String.join(", ", found),
                        List.of(d.address() + " [" + d.ids() + "] link " + describe(d.link()),
                                "parent port " + parent.get().address() + " link " + describe(parent.get().link()))));
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

    static String describe(PciLink l) {
        return l.speedGTps().map(v -> v + " GT/s").orElse("?") + " x" + l.width().map(String::valueOf).orElse("?")
                + " (max " + l.maxSpeedGTps().map(v -> v + " GT/s").orElse("?") + " x" + l.maxWidth().map(String::valueOf).orElse("?") + ")";
    }
}
