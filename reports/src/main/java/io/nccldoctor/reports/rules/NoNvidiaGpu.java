package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.pcie.DeviceKind;
import io.nccldoctor.pcie.PciDevice;
import io.nccldoctor.pcie.PciIds;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** No NVIDIA GPU on the PCI bus: a warning on a node of unknown shape, an error when GPUs were expected. */
public final class NoNvidiaGpu implements Rule {

    static final RuleInfo INFO = new RuleInfo("NO_NVIDIA_GPU", Severity.WARN,
            "nothing to check: no NVIDIA GPU",
            "No PCI function has vendor 0x10de and a display class (0x03xx), so there is nothing for NCCL to run on and "
                    + "every GPU check is waived. On a login or CPU node that is expected. On a GPU node it means the GPUs "
                    + "fell off the bus (look for 'fallen off the bus' or Xid 79 in dmesg), are passed through to a VM, "
                    + "or the node is not the one you think.",
            "the PCI inventory from /sys/bus/pci/devices (vendor and class of every function)",
            "If this node should have GPUs, check `lspci -d 10de:` and dmesg, reseat or power-cycle, and drain it from "
                    + "the scheduler meanwhile; give --expect gpus=N (or a --profile) so preflight fails instead of warning.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        var devices = NodeFacts.devices(s);
        if (devices.isEmpty()) {
            return Outcome.waived(NodeFacts.pciUnreadable(s));
        }
        if (!NodeFacts.ofKind(devices.get(), DeviceKind.GPU).isEmpty()) {
            return Outcome.pass();
        }
        String unknown = unknownVendors(devices.get());
        if (unknown != null) {
            return Outcome.waived(unknown);
        }
        String filtered = filteredListing(s, devices.get());
        if (filtered != null) {
            return Outcome.waived(filtered);
        }
        List<String> evidence = new ArrayList<>();
        evidence.add(devices.get().size() + " PCI functions, none with vendor 10de and class 03xx");
        List<PciDevice> displays = NodeFacts.ofKind(devices.get(), DeviceKind.DISPLAY);
        NodeFacts.describe(displays).forEach(d -> evidence.add("display function that is not an NVIDIA GPU: " + d));
        int expected = ctx.expected().expected("gpus").orElse(0);
        if (expected > 0) {
            evidence.add("expected gpus=" + expected + " (" + ctx.expected().origin() + ")");
            return Outcome.flag(finding("node", "no NVIDIA GPU, but " + expected + " expected", evidence)
                    .withSeverity(Severity.ERROR));
        }
        return Outcome.flag(finding("node", INFO.title(), evidence));
    }

    /**
     * Why absence cannot be told, or null: no function read at all (a paste of attribute lines without a header), or
     * functions whose vendor the input does not give and that could be a GPU (not a bridge, not a NIC). An unknown
     * vendor is not an absent GPU.
     */
    private static String unknownVendors(List<PciDevice> devices) {
        if (devices.isEmpty()) {
            return "the input holds no PCI function with its address and ids (no device header line was read), so the "
                    + "absence of a GPU cannot be told";
        }
        List<PciDevice> unknown = devices.stream().filter(d -> !PciIds.vendorKnown(d.vendorId())
                && (d.kind() == DeviceKind.OTHER || d.kind() == DeviceKind.DISPLAY)).toList();
        if (unknown.isEmpty()) {
            return null;
        }
        return unknown.size() + " of " + devices.size() + " PCI functions have no vendor id in the input (first "
                + unknown.get(0).address() + "; `lspci -t` without -v prints addresses only): any of them may be the GPU; "
                + "give `lspci -tvnn` or `lspci -vvvnn`";
    }

    /**
     * Why a pasted listing cannot show the absence of a GPU, or null: an lspci listing pasted as text, without a host
     * bridge, whose functions are all of one vendor (`lspci -d 15b3:`, `lspci -vvv -d 15b3:`,
     * `lspci | grep Mellanox`, `lspci -vvv -s 21:00.0`) or all network controllers was filtered, so the GPUs may simply
     * not have been asked for (a part cut from a listing or a tree, such as a switch's blocks alone, shows no more). An
     * unfiltered lspci of a host lists its root complex too (00:00.0 Host bridge on x86, the
     * root ports elsewhere), which a vendor or class filter on a NIC or an accelerator leaves out.
     */
    private static String filteredListing(Snapshot s, List<PciDevice> devices) {
        // pasted lspci text is imported as "lspci text FILE" (ReportInput, TopoSources); a probe lists all of sysfs
        boolean pasted = s.source().startsWith("lspci text ");
        if (!pasted || devices.stream().anyMatch(d -> d.kind() == DeviceKind.HOST_BRIDGE)) {
            return null;
        }
        // `lspci -PP` names the bridges of each path by address only: they are the path, not what was listed
        List<PciDevice> listed = devices.stream().filter(d -> PciIds.vendorKnown(d.vendorId()) || d.kind() != DeviceKind.BRIDGE).toList();
        Set<String> vendors = listed.stream().map(PciDevice::vendorId).collect(Collectors.toCollection(TreeSet::new));
        String why;
        if (vendors.size() == 1 && PciIds.vendorKnown(vendors.iterator().next())) {
            String id = vendors.iterator().next();
            why = PciIds.vendorName(id).map(n -> n + " (" + id + ")").orElse("vendor " + id) + " devices";
        } else if (!listed.isEmpty() && listed.stream().allMatch(d -> d.kind() == DeviceKind.NIC)) {
            why = "network controllers";
        } else {
            return null;
        }
        return "not judged, because the listing shows only " + why + " (" + listed.size() + " PCI function"
                + (listed.size() == 1 ? "" : "s") + ", no host bridge): a listing filtered by vendor, class or slot "
                + "(`lspci -d 15b3:`, `lspci | grep Mellanox`) or cut to a part is no evidence that the node has no GPU; "
                + "give the whole `lspci -vvvnn` or `lspci -tvnn`";
    }
}
