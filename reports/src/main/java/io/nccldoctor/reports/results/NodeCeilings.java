package io.nccldoctor.reports.results;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.RdmaDevices;
import io.nccldoctor.gdr.RdmaProbe;
import io.nccldoctor.pcie.LinkCeiling;
import io.nccldoctor.pcie.PciDevice;
import io.nccldoctor.pcie.PciInventory;
import io.nccldoctor.pcie.PciInventoryProbe;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The network ceiling of one node, from its snapshot: the ACTIVE RDMA ports' rates added up (the line rate), and per
 * NIC card (the functions of one PCI slot share its link) the smaller of its ports' rates and its PCIe link's usable
 * bandwidth. When a card's link is narrower than its ports, the node's ceiling is set by PCIe.
 *
 * <p>An upper bound on the bus bandwidth of a collective whose ranks span nodes: every node's traffic crosses its
 * NICs. With several GPUs per node sharing the NICs the real limit per rank can be lower.
 */
public final class NodeCeilings {

    private NodeCeilings() {
    }

    public static List<Ceiling> of(Snapshot s) {
        RdmaDevices rdma = s.section(RdmaProbe.KEY, RdmaDevices.class);
        PciInventory pci = s.section(PciInventoryProbe.KEY, PciInventory.class);
        if (rdma == null || !rdma.devices().isValue()) {
            return List.of();
        }
        Map<String, List<String>> portsBySlot = new LinkedHashMap<>();
        Map<String, Double> gbpsBySlot = new LinkedHashMap<>();
        Map<String, String> addressBySlot = new LinkedHashMap<>();
        for (RdmaDevices.RdmaDevice d : rdma.devices().get()) {
            for (RdmaDevices.RdmaPort p : d.ports().orElse(List.of())) {
                if (!p.state().orElse("").equals("ACTIVE") || !p.rateGbps().isValue()) {
                    continue;
                }
                String address = d.pciAddress().orElse(d.name());
                String slot = address.replaceFirst("\\.[0-7]$", "");
                portsBySlot.computeIfAbsent(slot, k -> new ArrayList<>()).add(d.name() + "/" + p.number() + " "
                        + String.format(Locale.ROOT, "%.0f", p.rateGbps().get()) + " Gbit/s");
                gbpsBySlot.merge(slot, p.rateGbps().get(), Double::sum);
                addressBySlot.putIfAbsent(slot, address);
            }
        }
        if (gbpsBySlot.isEmpty()) {
            return List.of();
        }
        String host = s.hostName();
        double line = gbpsBySlot.values().stream().mapToDouble(Double::doubleValue).sum();
        List<String> lineEvidence = new ArrayList<>();
        portsBySlot.forEach((slot, ports) -> lineEvidence.add(slot + ": " + String.join(", ", ports) + " (sysfs ports/N/rate)"));
        List<Ceiling> out = new ArrayList<>();
        String ports = String.join(" + ", portsBySlot.values().stream().flatMap(List::stream).map(x -> x.replaceFirst(" .*", "")).toList());
        out.add(new Ceiling(host + ": NIC line rate", line / 8, ports + String.format(Locale.ROOT, " (%.0f Gbit/s)", line), lineEvidence,
                Ceiling.Kind.LINE_RATE));
        double limited = 0;
        List<String> pcieEvidence = new ArrayList<>();
        List<String> narrowLinks = new ArrayList<>();
        for (Map.Entry<String, Double> e : gbpsBySlot.entrySet()) {
            Optional<LinkCeiling> link = pci == null ? Optional.empty() : device(pci, addressBySlot.get(e.getKey()))
                    .flatMap(d -> LinkCeiling.of(d).isValue() ? Optional.of(LinkCeiling.of(d).get()) : Optional.empty());
            double card = e.getValue();
            if (link.isPresent() && link.get().bestGbps() < card) {
                LinkCeiling l = link.get();
                pcieEvidence.add(String.format(Locale.ROOT, "%s: PCIe %s carries %.1f Gbit/s per direction%s, less than its ports' %.0f Gbit/s",
                        e.getKey(), l.label(), l.bestGbps(), l.usableGbps().isValue() ? " at MaxPayload " + l.maxPayload().get() + " B"
                                : " (raw; MaxPayload unknown)", card));
                narrowLinks.add(e.getKey() + " (PCIe " + l.label() + ")");
                card = l.bestGbps();
            }
            limited += card;
        }
        if (!narrowLinks.isEmpty()) {
            out.add(new Ceiling(host + ": NIC PCIe link" + (narrowLinks.size() == 1 ? "" : "s"), limited / 8, String.join(", ", narrowLinks),
                    pcieEvidence, Ceiling.Kind.PCIE));
        }
        return out;
    }

    private static Optional<PciDevice> device(PciInventory pci, String address) {
        if (address == null || !pci.devices().isValue()) {
            return Optional.empty();
        }
        return pci.devices().get().stream().filter(d -> d.address().equals(address)).findFirst();
    }

}
