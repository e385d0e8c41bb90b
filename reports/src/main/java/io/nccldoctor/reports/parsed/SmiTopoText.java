package io.nccldoctor.reports.parsed;

import io.nccldoctor.pcie.SmiTopoMatrix;
import java.util.Map;

/** The human form of `parse nvidia-smi-topo`: devices, affinities and every pair. */
public final class SmiTopoText {

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
        for (int i = 0; i < m.devices().size(); i++) {
            for (int j = i + 1; j < m.devices().size(); j++) {
                String a = m.devices().get(i);
                String b = m.devices().get(j);
                out.append("  ").append(a).append('-').append(b).append("  ")
                        .append(m.cells().getOrDefault(a, Map.of()).getOrDefault(b, "?")).append('\n');
            }
        }
        m.skipped().forEach(s -> out.append("not understood: line ").append(s).append('\n'));
        return out.toString();
    }
}
