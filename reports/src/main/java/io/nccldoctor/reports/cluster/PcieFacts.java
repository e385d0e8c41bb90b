package io.nccldoctor.reports.cluster;

import io.nccldoctor.core.Fact;
import io.nccldoctor.gdr.RdmaDevices;
import io.nccldoctor.pcie.DeviceKind;
import io.nccldoctor.pcie.PciDevice;
import io.nccldoctor.pcie.PciInventory;
import io.nccldoctor.pcie.PciLink;
import io.nccldoctor.pcie.PciTree;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The hardware facts of the drift table from the PCI inventory: GPUs, and the PCIe links of GPUs and RDMA NICs. */
final class PcieFacts {

    private PcieFacts() {
    }

    static Cell gpuCount(NodeView n) {
        return HostFacts.cell(devices(n), d -> Cell.of(String.valueOf(gpus(d).size())));
    }

    /** The PCI vendor:device ids of the GPUs: lspci's names depend on each node's pci.ids, the ids do not. */
    static Cell gpuModel(NodeView n) {
        return HostFacts.cell(devices(n), d -> {
            Map<String, Long> ids = gpus(d).stream().collect(Collectors.groupingBy(PciDevice::ids, TreeMap::new, Collectors.counting()));
            if (ids.isEmpty()) {
                return Cell.of("no GPU");
            }
            return Cell.of(ids.size() == 1 ? ids.keySet().iterator().next()
                    : ids.entrySet().stream().map(e -> e.getValue() + " × " + e.getKey()).collect(Collectors.joining(", ")));
        });
    }

    /**
     * GPU links as "8 × Gen5 x16". The width is the current one; the speed is the most the link can train at (the
     * lower of the GPU's and its port's maximum), because an idle GPU lowers its link to 2.5 GT/s and raises it under
     * load (LinkDegraded judges GPU speed the same way).
     */
    static Cell gpuLinks(NodeView n) {
        return HostFacts.cell(devices(n), d -> {
            PciTree tree = PciTree.of(d);
            return links(gpus(d), g -> {
                Fact<Double> most = g.link().maxSpeedGTps();
                Optional<PciDevice> port = tree.parent(g.address());
                if (most.isValue() && port.isPresent() && port.get().link().maxSpeedGTps().isValue()) {
                    most = Fact.of(Math.min(most.get(), port.get().link().maxSpeedGTps().get()));
                }
                return most;
            });
        });
    }

    /** The links of the PCI functions behind the RDMA devices, at their current speed and width. */
    static Cell nicLinks(NodeView n) {
        if (!n.rdma().isValue()) {
            return Cell.unknown(n.rdma().reason());
        }
        Fact<List<RdmaDevices.RdmaDevice>> rdma = n.rdma().get().devices();
        if (!rdma.isValue()) {
            return rdma.isAbsent() ? Cell.of("no RDMA device") : Cell.unknown(rdma.reason());
        }
        return HostFacts.cell(devices(n), d -> {
            List<String> wanted = new ArrayList<>();
            for (RdmaDevices.RdmaDevice r : rdma.get()) {
                if (!r.pciAddress().isValue()) {
                    return Cell.unknown(r.name() + ": PCI function unknown (" + r.pciAddress().reason() + ")");
                }
                wanted.add(r.pciAddress().get());
            }
            Set<String> present = d.stream().map(PciDevice::address).collect(Collectors.toSet());
            for (String a : wanted) {
                if (!present.contains(a)) {
                    return Cell.unknown("RDMA function " + a + " is not in the PCI inventory");
                }
            }
            return links(d.stream().filter(x -> wanted.contains(x.address())).toList(), x -> x.link().speedGTps());
        });
    }

    /** "7 × Gen5 x16, 1 × Gen4 x16 (0000:9a:00.0)": the most common link first, the addresses of the others. */
    private static Cell links(List<PciDevice> devices, Function<PciDevice, Fact<Double>> speed) {
        if (devices.isEmpty()) {
            return Cell.of("none");
        }
        Map<String, List<String>> byLink = new LinkedHashMap<>();
        for (PciDevice d : devices) {
            Fact<Integer> width = d.link().width();
            Fact<Integer> gen = speed.apply(d).flatMap(PciLink::generation);
            if (!width.isValue() || !gen.isValue()) {
                return Cell.unknown(d.address() + ": link " + (width.isValue() ? "speed " + gen.reason() : "width " + width.reason()));
            }
            byLink.computeIfAbsent("Gen" + gen.get() + " x" + width.get(), k -> new ArrayList<>()).add(d.address());
        }
        List<Map.Entry<String, List<String>>> groups = new ArrayList<>(byLink.entrySet());
        groups.sort(Comparator.<Map.Entry<String, List<String>>>comparingInt(e -> -e.getValue().size()).thenComparing(Map.Entry::getKey));
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < groups.size(); i++) {
            var g = groups.get(i);
            parts.add(g.getValue().size() + " × " + g.getKey() + (i == 0 ? "" : " (" + String.join(", ", g.getValue()) + ")"));
        }
        return Cell.of(String.join(", ", parts));
    }

    private static Fact<List<PciDevice>> devices(NodeView n) {
        return n.pci().flatMap(PciInventory::devices);
    }

    private static List<PciDevice> gpus(List<PciDevice> devices) {
        return devices.stream().filter(d -> d.kind() == DeviceKind.GPU).toList();
    }
}
