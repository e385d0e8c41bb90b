package io.nccldoctor.collectives.parse;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * What the processes of one job should agree on, and the lines that say where they do not: the NCCL version (two
 * libraries in one job), the network NCCL chose (one process on sockets slows every collective), and whether the
 * network channels use GPUDirect RDMA (one node without it stages every transfer through host memory). Each log looks
 * healthy on its own; only the comparison shows the odd one.
 */
final class Agreement {

    private Agreement() {
    }

    /** One process's or one file's values; empty where its log does not say (no version line, no network channel). */
    record Facts(Optional<String> version, Optional<String> network, Optional<String> gdrOnNetwork) {

        /**
         * @param versions   the NCCL versions logged
         * @param networks   the networks chosen ("IB" from "Using network IB")
         * @param transports the channel transports ("NET/IB/0/GDRDMA", "P2P/IPC" …)
         */
        static Facts of(Collection<String> versions, Collection<String> networks, Collection<String> transports) {
            // plain loops: a job's log holds thousands of processes, and this runs once for each, mostly before the JIT
            boolean net = false;
            boolean gdr = false;
            for (String t : transports) {
                if (t.startsWith("NET/")) {
                    net = true;
                    gdr |= t.contains("/GDRDMA");
                }
            }
            return new Facts(join(versions), join(networks), net ? Optional.of(gdr ? "used" : "not used") : Optional.empty());
        }

        /** The distinct values in their natural order, joined with ", "; empty when there are none. */
        private static Optional<String> join(Collection<String> values) {
            if (values.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(values.size() == 1 ? values.iterator().next() : String.join(", ", new TreeSet<>(values)));
        }
    }

    /** @param noun what the units are, plural ("files", "processes") */
    static List<String> differences(Map<String, Facts> units, String noun) {
        List<String> lines = new ArrayList<>();
        differs("the NCCL version", units, Facts::version, noun, "Processes of one job must load the same libnccl.so.2: check "
                + "LD_LIBRARY_PATH and the Python environment there").ifPresent(lines::add);
        differs("the network NCCL chose", units, Facts::network, noun, "A process on sockets (NET/Socket) moves every byte "
                + "through the kernel's TCP stack and slows the whole job: NCCL_IB_DISABLE, NCCL_NET or an IB/RoCE device that "
                + "did not come up there").ifPresent(lines::add);
        differs("GPUDirect RDMA on the network channels", units, Facts::gdrOnNetwork, noun, "Without it the NIC reads and "
                + "writes host memory and each transfer is staged through a copy: nvidia-peermem or dma-buf missing, "
                + "NCCL_NET_GDR_LEVEL, or a GPU too far from its NIC (see the GDR lines)").ifPresent(lines::add);
        return List.copyOf(lines);
    }

    /**
     * One line when the units with a value do not all agree: the majority's value and count, then each other value
     * with its units (the first five named).
     */
    private static Optional<String> differs(String what, Map<String, Facts> units, Function<Facts, Optional<String>> value,
                                            String noun, String why) {
        Map<String, List<String>> byValue = new LinkedHashMap<>();
        for (Map.Entry<String, Facts> unit : units.entrySet()) { // a loop: thousands of processes, mostly before the JIT
            Optional<String> v = value.apply(unit.getValue());
            if (v.isPresent()) {
                List<String> names = byValue.get(v.get());
                if (names == null) {
                    names = new ArrayList<>();
                    byValue.put(v.get(), names);
                }
                names.add(unit.getKey());
            }
        }
        if (byValue.size() < 2) {
            return Optional.empty();
        }
        List<Map.Entry<String, List<String>>> groups = new ArrayList<>(byValue.entrySet());
        groups.sort((a, b) -> Integer.compare(b.getValue().size(), a.getValue().size())); // stable: ties keep the order given
        List<String> most = groups.get(0).getValue();
        StringBuilder line = new StringBuilder(what + " differs: " + groups.get(0).getKey() + " in "
                + (most.size() == 1 ? most.get(0) : most.size() + " " + noun));
        for (Map.Entry<String, List<String>> g : groups.subList(1, groups.size())) {
            List<String> names = g.getValue();
            line.append("; ").append(g.getKey()).append(" in ").append(String.join(", ", names.subList(0, Math.min(5, names.size()))));
            if (names.size() > 5) {
                line.append(" and ").append(names.size() - 5).append(" more");
            }
        }
        return Optional.of(line.append(". ").append(why).toString());
    }
}
