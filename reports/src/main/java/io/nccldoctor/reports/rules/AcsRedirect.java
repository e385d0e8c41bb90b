package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.pcie.DeviceKind;
import io.nccldoctor.pcie.LspciFragment;
import io.nccldoctor.pcie.LspciFragments;
import io.nccldoctor.pcie.PciDevice;
import io.nccldoctor.pcie.PciTree;
import io.nccldoctor.pcie.SmiPath;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import io.nccldoctor.reports.TopologyView;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * ACS request or completion redirect on a switch port between two GPUs or a GPU and a NIC: peer-to-peer traffic that
 * should turn around inside the switch is sent up to the root complex (and through the IOMMU) instead
 * (reference/peers-and-platform.md B3; NVIDIA/nccl#304, #2079). Text without an NVIDIA GPU (an excerpt of bridges,
 * {@code lspci -vvv | grep ACSCtl}) is judged on the ports it shows ({@link AcsPorts}), never waived as "no GPU".
 */
public final class AcsRedirect implements Rule {

    static final RuleInfo INFO = new RuleInfo("ACS_REDIRECT_ON_P2P_PATH", Severity.WARN,
            "ACS redirect is enabled on a PCIe switch port between GPUs or between a GPU and a NIC",
            "Access Control Services with ReqRedir or CmpltRedir set on a switch downstream port forces every "
                    + "peer-to-peer request up to the root complex, where the IOMMU checks it. Bandwidth drops, "
                    + "latency rises, and with some IOMMU setups P2P transfers hang or fail (NVIDIA/nccl#304: crashes "
                    + "with GDR until ACS was cleared with setpci; #2079: an allreduce deadlock fixed by pci=noacs). "
                    + "Hypervisors and some BIOS defaults enable it for device isolation.",
            "the ACS control register of every bridge below the common switch of each GPU-GPU and GPU-NIC pair "
                    + "(config space, root only)",
            "Disable ACS redirect on those ports in the BIOS (often 'ACS' or 'PCIe ACS control'), or clear it at boot "
                    + "(`setpci -s BDF ECAP_ACS+6.w=0000`, NCCL's troubleshooting guide), unless the node passes devices "
                    + "to VMs; keep it consistent across nodes.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        var devices = TopologyView.devices(s);
        LspciFragments excerpts = s.section(LspciFragments.KEY, LspciFragments.class);
        List<LspciFragment> fragments = excerpts == null ? List.of() : excerpts.fragments();
        if (devices.isEmpty() && fragments.isEmpty()) {
            return Outcome.waived("the PCI bus could not be read");
        }
        List<PciDevice> all = devices.orElse(List.of());
        if (all.stream().anyMatch(d -> d.kind() == DeviceKind.GPU)) {
            return betweenPairs(all);
        }
        return AcsPorts.withoutGpus(this, all, fragments);
    }

    /** The ports below the common switch of each GPU-GPU and GPU-NIC pair that can stay inside a switch (PIX, PXB). */
    private Outcome betweenPairs(List<PciDevice> all) {
        PciTree tree = PciTree.of(all);
        List<PciDevice> ends = all.stream().filter(d -> d.kind() == DeviceKind.GPU || d.kind() == DeviceKind.NIC).toList();
        Map<String, List<String>> redirecting = new LinkedHashMap<>();
        Map<String, PciDevice> byAddress = new LinkedHashMap<>();
        ends.forEach(d -> byAddress.put(d.address(), d));
        // only pairs below one switch (or one port) can be PIX or PXB: compare within those groups, not every pair
        for (List<String> group : tree.switchGroups(List.copyOf(byAddress.keySet()))) {
            for (int i = 0; i < group.size(); i++) {
                for (int j = i + 1; j < group.size(); j++) {
                    PciDevice a = byAddress.get(group.get(i));
                    PciDevice b = byAddress.get(group.get(j));
                    SmiPath path = tree.path(a.address(), b.address());
                    if ((a.kind() != DeviceKind.GPU && b.kind() != DeviceKind.GPU) || path.compareTo(SmiPath.PXB) > 0) {
                        continue; // only paths that could stay inside a switch
                    }
                    for (String bridge : tree.bridgesBetween(a.address(), b.address())) {
                        var acs = tree.device(bridge).map(d -> d.config().acsControl());
                        if (acs.isPresent() && AcsPorts.redirects(acs.get())) {
                            redirecting.computeIfAbsent(bridge, k -> new ArrayList<>()).add(a.address() + " <-> " + b.address());
                        }
                    }
                }
            }
        }
        List<Finding> findings = new ArrayList<>();
        redirecting.forEach((bridge, pairs) -> findings.add(finding(bridge, "ACS redirect on " + bridge
                + " sends peer-to-peer traffic of " + pairs.size() + (pairs.size() == 1 ? " pair" : " pairs") + " through the root complex",
                List.of("ACSCtl: " + String.join("+ ", tree.device(bridge).orElseThrow().config().acsControl().get()) + "+",
                        "pairs: " + String.join(", ", pairs)))));
        return findings.isEmpty() ? Outcome.pass() : Outcome.flag(findings);
    }
}
