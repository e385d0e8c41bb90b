package io.nccldoctor.pcie;

import io.nccldoctor.core.InputException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Our matrix against nvidia-smi's, pair by pair (rule zero for topology). GPUs are matched by index (both number
 * them in PCI bus order), NICs by their RDMA name (NIC legend or old-style column name), else by index.
 *
 * @param unmatched   labels of either side that have no counterpart
 * @param agreements  how many pairs agree
 * @param differences one line per pair that differs: "GPU0-NIC1: nvidia-smi PXB, nccl-doctor PHB"
 * @param nvlink      pairs nvidia-smi reports as NVLink (NV#), which PCIe cannot show
 * @param nvlinkCells the same, as our labels "GPU0-GPU1" → "NV18", for drawing them into our matrix
 * @param notCompared pairs whose path our input does not show (a tree without NUMA nodes, a snippet), with nvidia-smi's
 *                    cell: "GPU0-GPU2: nvidia-smi SYS, not in our input (...)"; neither agreement nor difference
 */
public record TopologyComparison(List<String> unmatched, int agreements, List<String> differences, List<String> nvlink,
                                 Map<String, String> nvlinkCells, List<String> notCompared) {

    public static TopologyComparison of(Topology ours, SmiTopoMatrix smi) {
        if (smi.p2p()) {
            throw new InputException("the nvidia-smi matrix is `nvidia-smi topo -p2p` output (P2P status: OK, NS …), not the link "
                    + "types of `nvidia-smi topo -m`; give the output of `nvidia-smi topo -m`");
        }
        Map<String, String> toOurs = new LinkedHashMap<>();
        List<String> unmatched = new ArrayList<>();
        for (String label : smi.devices()) {
            String mapped = match(ours, smi, label);
            if (mapped == null) {
                unmatched.add("nvidia-smi " + label + " (" + smi.name(label) + ")");
            } else {
                toOurs.put(label, mapped);
            }
        }
        for (Topology.Endpoint e : ours.endpoints()) {
            if (!toOurs.containsValue(e.label())) {
                unmatched.add("nccl-doctor " + e.label() + " (" + e.name() + ")");
            }
        }
        int agree = 0;
        List<String> differences = new ArrayList<>();
        List<String> nvlink = new ArrayList<>();
        List<String> notCompared = new ArrayList<>();
        Map<String, String> cells = new LinkedHashMap<>();
        List<String> labels = new ArrayList<>(toOurs.keySet());
        for (int i = 0; i < labels.size(); i++) {
            for (int j = i + 1; j < labels.size(); j++) {
                String a = labels.get(i);
                String b = labels.get(j);
                String theirs = smi.cells().getOrDefault(a, Map.of()).get(b);
                if (theirs == null) {
                    continue;
                }
                Topology.Pair p = ours.pair(toOurs.get(a), toOurs.get(b));
                String mine = p.smiPath().name();
                String pair = a + "-" + b + (a.equals(toOurs.get(a)) && b.equals(toOurs.get(b)) ? "" : " (" + toOurs.get(a) + "-" + toOurs.get(b) + ")");
                if (theirs.startsWith("NV")) {
                    nvlink.add(pair + ": " + theirs + " (PCIe path " + mine + ")");
                    cells.put(toOurs.get(a) + "-" + toOurs.get(b), theirs);
                    cells.put(toOurs.get(b) + "-" + toOurs.get(a), theirs);
                } else if (!p.shown().isValue()) {
                    notCompared.add(pair + ": nvidia-smi " + theirs + ", not in our input (" + p.shown().reason() + ")");
                } else if (theirs.equals(mine)) {
                    agree++;
                } else {
                    differences.add(pair + ": nvidia-smi " + theirs + ", nccl-doctor " + mine);
                }
            }
        }
        return new TopologyComparison(unmatched, agree, differences, nvlink, cells, notCompared);
    }

    private static String match(Topology ours, SmiTopoMatrix smi, String label) {
        if (label.startsWith("GPU")) {
            String ourLabel = label;
            return ours.endpoints().stream().anyMatch(e -> e.label().equals(ourLabel)) ? label : null;
        }
        String name = smi.name(label);
        for (Topology.Endpoint e : ours.endpoints()) {
            if (e.kind() == DeviceKind.NIC && e.name().equals(name)) {
                return e.label();
            }
        }
        // By position only when nvidia-smi gave no name: a legend name that this node lacks is a renamed device.
        if (name.equals(label) && label.startsWith("NIC") && ours.endpoints().stream().anyMatch(e -> e.label().equals(label))) {
            return label;
        }
        return null;
    }
}
