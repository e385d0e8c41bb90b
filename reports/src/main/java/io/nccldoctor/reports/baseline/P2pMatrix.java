package io.nccldoctor.reports.baseline;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The matrix of {@code nvidia-smi topo -p2p r|w|n|a|p}: per GPU pair whether peer-to-peer reads, writes, NVLink,
 * atomics or PCIe P2P are supported. Its legend (X Self, OK Status Ok, CNS Chipset not supported, GNS GPU not
 * supported, TNS Topology not supported, NS Not supported, U Unknown; newer drivers add DR Disabled by regkey) tells
 * it from {@code topo -m}, whose cells are path types (corpus/nvidia-smi-topo/nvidia-smi-topo-p2p-p-autodl-2x-rtx2080ti-ns.txt,
 * nvidia-smi-topo-p2p-2x-rtx5090-gns-dr-legend-club3090.txt).
 *
 * @param cells GPU label → GPU label → status as printed
 */
record P2pMatrix(Map<String, Map<String, String>> cells) {

    static final Set<String> STATUS = Set.of("X", "OK", "CNS", "GNS", "TNS", "NS", "DR", "U");
    private static final Pattern GPU = Pattern.compile("GPU\\d+");

    /** The matrix, or empty when the text is not a -p2p matrix (no legend line "CNS = Chipset not supported"). */
    static Optional<P2pMatrix> parse(List<String> lines) {
        if (lines.stream().noneMatch(l -> l.strip().matches("CNS\\s*=\\s*Chipset not supported"))) {
            return Optional.empty();
        }
        List<String> header = null;
        Map<String, Map<String, String>> cells = new LinkedHashMap<>();
        for (String line : lines) {
            String[] t = line.strip().split("\\s+");
            if (header == null && t.length > 0 && GPU.matcher(t[0]).matches() && line.strip().startsWith("GPU0")
                    && List.of(t).stream().allMatch(x -> GPU.matcher(x).matches())) {
                header = List.of(t);
                continue;
            }
            if (header != null && t.length == header.size() + 1 && header.contains(t[0])) {
                Map<String, String> row = new LinkedHashMap<>();
                for (int c = 0; c < header.size(); c++) {
                    if (!STATUS.contains(t[c + 1])) {
                        return Optional.empty();
                    }
                    row.put(header.get(c), t[c + 1]);
                }
                cells.put(t[0], row);
            }
        }
        return cells.isEmpty() ? Optional.empty() : Optional.of(new P2pMatrix(cells));
    }

    /** "GPU0-GPU1: NS", each unordered pair whose status is neither OK nor X, once. */
    List<String> unsupported() {
        List<String> out = new ArrayList<>();
        cells.forEach((row, cols) -> cols.forEach((col, v) -> {
            if (row.compareTo(col) < 0 && !v.equals("OK") && !v.equals("X")) {
                out.add(row + "-" + col + ": " + v);
            }
        }));
        return out;
    }
}
