package io.nccldoctor.pcie;

import io.nccldoctor.core.Fact;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Each GPU's nearest NICs without comparing it with every NIC. The path types nest (PciTree.path): PIX when a NIC
 * shares the GPU's port or hangs directly below the GPU's first switch; else PXB for every NIC below any of the GPU's
 * switches, which are exactly the NICs below its topmost one (a device's switch chain above a shared switch is the
 * same for both); else PHB for the NICs of its root complex; else NODE for those of its NUMA node (with those whose
 * NUMA node the text does not give); else SYS for all.
 * So the nearest set of a GPU is one of a few lists built once for all GPUs, and a topology of thousands of endpoints
 * answers "nearest NICs" for every GPU in time linear in its size, with the same sets, in the same NIC order, as
 * sorting every GPU-NIC pair by path.
 */
final class NearestNics {

    private final PciTree tree;
    private final List<Topology.Endpoint> endpoints;
    private final List<Integer> all = new ArrayList<>();
    private final Map<String, List<Integer>> byPort = new HashMap<>();
    private final Map<String, List<Integer>> byFirstSwitch = new HashMap<>();
    private final Map<String, List<Integer>> belowSwitch = new HashMap<>();
    private final Map<String, List<Integer>> byRoot = new HashMap<>();
    private final Map<Integer, List<Integer>> byNuma = new HashMap<>();
    private final List<Integer> unknownNuma = new ArrayList<>();

    NearestNics(PciTree tree, List<Topology.Endpoint> endpoints) {
        this.tree = tree;
        this.endpoints = endpoints;
        for (int index = 0; index < endpoints.size(); index++) {
            Topology.Endpoint e = endpoints.get(index);
            if (e.kind() != DeviceKind.NIC) {
                continue;
            }
            int i = index;
            String a = e.address();
            all.add(i);
            port(a).ifPresent(p -> byPort.computeIfAbsent(p, k -> new ArrayList<>()).add(i));
            List<String> switches = tree.switches(a);
            if (!switches.isEmpty()) {
                byFirstSwitch.computeIfAbsent(switches.get(0), k -> new ArrayList<>()).add(i);
            }
            for (String s : switches) {
                belowSwitch.computeIfAbsent(s, k -> new ArrayList<>()).add(i);
            }
            Fact<String> root = tree.rootComplex(a);
            if (root.isValue()) {
                byRoot.computeIfAbsent(root.get(), k -> new ArrayList<>()).add(i);
            }
            if (tree.numaUnknown(a)) {
                unknownNuma.add(i);
            } else {
                byNuma.computeIfAbsent(tree.numaKey(a), k -> new ArrayList<>()).add(i);
            }
        }
    }

    /** The endpoint indices of the NICs nearest to the GPU at {@code gpu}, in endpoint order; empty without NICs. */
    List<Integer> of(int gpu) {
        String a = endpoints.get(gpu).address();
        List<String> switches = tree.switches(a);
        TreeSet<Integer> pix = new TreeSet<>();
        port(a).ifPresent(p -> pix.addAll(byPort.getOrDefault(p, List.of())));
        if (!switches.isEmpty()) {
            pix.addAll(byFirstSwitch.getOrDefault(switches.get(0), List.of()));
        }
        if (!pix.isEmpty()) {
            return List.copyOf(pix);
        }
        if (!switches.isEmpty() && belowSwitch.containsKey(switches.get(switches.size() - 1))) {
            return belowSwitch.get(switches.get(switches.size() - 1));
        }
        Fact<String> root = tree.rootComplex(a);
        if (root.isValue() && byRoot.containsKey(root.get())) {
            return byRoot.get(root.get());
        }
        // Across root complexes a NIC whose NUMA node the text does not give may be NODE as well as SYS (PciTree
        // places it at NODE and says the path is not shown): it is among the nearest, never left out; a GPU whose
        // NUMA node is not given has no nearest NIC to choose, so every NIC is listed, each path unknown.
        if (tree.numaUnknown(a)) {
            return all;
        }
        TreeSet<Integer> node = new TreeSet<>(byNuma.getOrDefault(tree.numaKey(a), List.of()));
        node.addAll(unknownNuma);
        return node.isEmpty() ? all : List.copyOf(node);
    }

    /** The port (root port or downstream port) a device hangs from: its last bridge. */
    private Optional<String> port(String address) {
        List<String> bridges = tree.bridges(address);
        return bridges.isEmpty() ? Optional.empty() : Optional.of(bridges.get(bridges.size() - 1));
    }
}
