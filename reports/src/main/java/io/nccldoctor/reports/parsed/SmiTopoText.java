package io.nccldoctor.reports.parsed;

import io.nccldoctor.pcie.SmiTopoMatrix;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The human form of `parse nvidia-smi-topo`: devices, affinities and every pair. */
public final class SmiTopoText {

    /** Pairs no row holds are named one by one up to this many, else counted (a fragment of a few rows of a big matrix). */
    private static final int UNKNOWN_SHOWN = 20;

    private SmiTopoText() {
    }

    public static String render(SmiTopoMatrix m, String file) {
        StringBuilder out = new StringBuilder("nvidia-smi " + m.matrix() + " from " + file + ": " + m.devices().size() + " devices"
                + (m.p2p() ? " (P2P status per pair, not link types)" : "")
                + (m.pciOnly() ? " (PCIe paths only: NVLink is not shown, so a GPU pair's cell is no verdict on NVLink between them)" : "")
                + "\n");
        for (String d : m.devices()) {
            out.append("  ").append(d).append(m.name(d).equals(d) ? "" : " = " + m.name(d))
                    .append(m.cpuAffinity().containsKey(d) ? "  CPU affinity " + m.cpuAffinity().get(d) : "")
                    .append(m.numaAffinity().containsKey(d) ? "  NUMA " + m.numaAffinity().get(d) : "")
                    .append(m.gpuNumaId().containsKey(d) ? "  GPU NUMA ID " + m.gpuNumaId().get(d) : "").append('\n');
        }
        out.append("Pairs:\n");
        List<String> unknown = new ArrayList<>();
        for (int i = 0; i < m.devices().size(); i++) {
            for (int j = i + 1; j < m.devices().size(); j++) {
                String a = m.devices().get(i);
                String b = m.devices().get(j);
                // a pair is in either device's row: a fragment of NIC rows holds a GPU-NIC pair in the NIC's row only
                String v = m.cells().getOrDefault(a, Map.of()).getOrDefault(b, m.cells().getOrDefault(b, Map.of()).get(a));
                if (v == null) {
                    unknown.add(a + "-" + b);
                } else {
                    out.append("  ").append(a).append('-').append(b).append("  ").append(v).append('\n');
                }
            }
        }
        if (unknown.size() > UNKNOWN_SHOWN) {
            out.append("  ").append(unknown.size()).append(" pairs not in the text (neither device's row holds them), from ")
                    .append(unknown.get(0)).append(" to ").append(unknown.get(unknown.size() - 1)).append('\n');
        } else {
            unknown.forEach(p -> out.append("  ").append(p).append("  ?\n"));
        }
        m.skipped().forEach(s -> out.append("not understood: line ").append(s).append('\n'));
        return out.toString();
    }
}
