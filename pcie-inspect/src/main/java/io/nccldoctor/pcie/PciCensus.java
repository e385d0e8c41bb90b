package io.nccldoctor.pcie;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Every PCI function of an input, counted: by kind, the RDMA NIC families found, the network functions that are not
 * GPU/NIC matrix endpoints (and why), and the functions whose class the input did not give or the PCI ID database
 * does not list. Nothing an input holds is left out of the count.
 *
 * @param byKind         functions per kind, every kind listed (zeros included)
 * @param rdmaFamilies   RDMA NIC family name → functions ("Amazon Elastic Fabric Adapter" → 4)
 * @param outsideMatrix  network functions that are not matrix endpoints, each with the reason
 * @param notUnderstood  functions of unknown class, each with what is missing
 */
public record PciCensus(int functions, Map<DeviceKind, Integer> byKind, Map<String, Integer> rdmaFamilies,
                        List<String> outsideMatrix, List<String> notUnderstood) {

    public static PciCensus of(List<PciDevice> devices, Map<String, String> rdmaNames) {
        Map<DeviceKind, Integer> byKind = new EnumMap<>(DeviceKind.class);
        for (DeviceKind k : DeviceKind.values()) {
            byKind.put(k, 0);
        }
        Map<String, Integer> families = new TreeMap<>();
        List<String> notUnderstood = new ArrayList<>();
        for (PciDevice d : devices) {
            byKind.merge(d.kind(), 1, Integer::sum);
            if (d.kind() == DeviceKind.NIC) {
                family(d).ifPresent(f -> families.merge(f.name(), 1, Integer::sum));
            }
            String why = unknownClass(d);
            if (why != null) {
                notUnderstood.add(describe(d) + ": " + why);
            }
        }
        Set<String> endpoints = new HashSet<>();
        Topology.nicEndpoints(devices, rdmaNames).forEach(d -> endpoints.add(d.address()));
        boolean named = !rdmaNames.isEmpty() && devices.stream().anyMatch(d -> rdmaNames.containsKey(d.address()));
        List<String> outside = new ArrayList<>();
        for (PciDevice d : devices) {
            if (d.kind() == DeviceKind.NIC && !endpoints.contains(d.address())) {
                outside.add(describe(d) + ": " + (named && PciIds.rdmaCapable(d)
                        ? "no RDMA device name, while other NICs have one (no RDMA driver bound, or the text was cut before it)"
                        : "no RDMA NIC family in the table (an Ethernet-only or management NIC)"));
            }
        }
        return new PciCensus(devices.size(), Map.copyOf(byKind), Map.copyOf(families), List.copyOf(outside),
                List.copyOf(notUnderstood));
    }

    private static Optional<PciIds.Family> family(PciDevice d) {
        String name = d.names().map(n -> n.vendor() + " " + n.device()).orElse(null);
        return PciIds.family(d.vendorId(), d.deviceId(), d.classCode(), name).filter(f -> f.role() == PciIds.Role.RDMA_NIC);
    }

    /** Why the class of a function is not known, or null when it is. */
    private static String unknownClass(PciDevice d) {
        if (d.classCode().startsWith("ff") && d.kind() == DeviceKind.OTHER && !PciIds.vendorKnown(d.vendorId()) && d.names().isAbsent()) {
            return "class not given by the input, nor vendor or device id (`lspci -t` without -v prints addresses only: give "
                    + "`lspci -tvnn`; a topology file may leave them to sysfs)";
        }
        if (d.classCode().startsWith("ff") && d.kind() == DeviceKind.OTHER) {
            return "class not given by the input (lspci -tv prints none; a topology file may leave it to sysfs)";
        }
        if (!PciIds.knownClass(d.classCode())) {
            return "class " + d.classCode() + " is not in the PCI ID database";
        }
        return null;
    }

    static String describe(PciDevice d) {
        String name = d.names().map(n -> (n.vendor() + " " + n.device()).strip()).orElse("");
        return d.address() + " [" + (PciIds.vendorKnown(d.vendorId()) ? d.ids() : "ids not in the input") + "]"
                + (name.isEmpty() ? "" : " " + name);
    }
}
