package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.RdmaDevices;
import io.nccldoctor.gdr.text.RdmaPasteGaps;
import io.nccldoctor.pcie.PciDevice;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Sections;
import io.nccldoctor.reports.Severity;
import io.nccldoctor.reports.TopologyView;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/** HCAs of one model on different firmware versions within a node. */
public final class FirmwareMixed implements Rule {

    static final RuleInfo INFO = new RuleInfo("HCA_FIRMWARE_MIXED", Severity.WARN,
            "HCAs of the same model run different firmware",
            "Adapters of one model on one node should run one firmware: releases change congestion control defaults, "
                    + "PCIe relaxed ordering, ATS and dmabuf behaviour. The field report found three firmware levels in "
                    + "one cluster after a partial upgrade; the slow rail was the one left behind.",
            "fw_ver of every RDMA device, grouped by PCI vendor:device of its function, or by the part id ibv_devinfo "
                    + "(vendor_part_id) or ibstat (CA type MT<id>) print when no PCI device list is at hand",
            "Update all adapters of the model to one firmware (mlxfwmanager / mstflint), then reboot or reset the adapters.");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        var rdma = Sections.rdma(s).map(RdmaDevices::devices);
        RdmaPasteGaps gaps = s.section(RdmaPasteGaps.KEY, RdmaPasteGaps.class);
        int unopened = gaps == null ? 0 : gaps.unopened();
        if (rdma.isEmpty() || !rdma.get().isValue() || rdma.get().get().size() < 2) {
            if (unopened == 0) {
                return Outcome.waived("fewer than two RDMA devices");
            }
            List<RdmaDevices.RdmaDevice> read = rdma.filter(f -> f.isValue()).map(f -> f.get()).orElse(List.of());
            return Outcome.waived(read.size() + " RDMA device" + (read.size() == 1 ? "" : "s") + " read" + (read.isEmpty() ? ""
                    : " (" + String.join(", ", read.stream().map(d -> d.name() + " fw " + d.fwVersion().orElse("not read")).toList())
                    + ")") + " and " + notOpened(unopened) + ": nothing to compare");
        }
        List<PciDevice> pci = TopologyView.devices(s).orElse(List.of());
        Map<String, TreeMap<String, List<String>>> byModel = new TreeMap<>();
        for (RdmaDevices.RdmaDevice d : rdma.get().get()) {
            if (!d.fwVersion().isValue()) {
                continue;
            }
            String model = model(d, pci);
            byModel.computeIfAbsent(model, k -> new TreeMap<>()).computeIfAbsent(d.fwVersion().get(), k -> new ArrayList<>()).add(d.name());
        }
        List<Finding> findings = new ArrayList<>();
        byModel.forEach((model, versions) -> {
            if (versions.size() > 1) {
                List<String> evidence = new ArrayList<>();
                versions.forEach((fw, names) -> evidence.add("fw " + fw + ": " + String.join(", ", names)));
                findings.add(finding(model, "HCAs " + model + " on " + versions.size() + " firmware versions: "
                        + String.join(", ", new TreeSet<>(versions.keySet())), evidence));
            }
        });
        if (unopened > 0) { // judged in part: the devices read, and those not opened with why
            return new Outcome(List.copyOf(findings), "the " + rdma.get().get().size() + " RDMA devices read were compared; "
                    + notOpened(unopened));
        }
        return findings.isEmpty() ? Outcome.pass() : Outcome.flag(findings);
    }

    /** ibv_devinfo's "Failed to open device": the device is on the list, its firmware is not in the input. */
    private static String notOpened(int unopened) {
        return unopened + " that ibv_devinfo could not open or query (\"Failed to open device\": no name, no fw_ver printed), whose "
                + "firmware is not in the input and was not compared";
    }

    /** "15b3:1021" from the PCI device list; else "part 4129" (the same number in decimal); else "unknown model". */
    private static String model(RdmaDevices.RdmaDevice d, List<PciDevice> pci) {
        Optional<String> ids = d.pciAddress().fold(a -> pci.stream().filter(p -> p.address().equals(a)).findFirst().map(PciDevice::ids),
                why -> Optional.empty());
        return ids.orElseGet(() -> d.partId().fold(id -> "part " + id, why -> "unknown model"));
    }
}
