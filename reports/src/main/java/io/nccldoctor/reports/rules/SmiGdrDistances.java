package io.nccldoctor.reports.rules;

import io.nccldoctor.gdr.GdrLevel;
import io.nccldoctor.pcie.SmiPath;
import io.nccldoctor.pcie.SmiTopoMatrix;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Rule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * GDR_DISABLED_BY_DISTANCE from a pasted `nvidia-smi topo -m` alone, when no PCI tree was read: each GPU's nearest
 * NIC by the matrix's path type against NCCL's GDR threshold. nvidia-smi names the same paths NCCL compares (PIX, PXB,
 * PHB, SYS; SOC is the old name of SYS); its NODE, two host bridges of one CPU, is NCCL's PHB.
 */
final class SmiGdrDistances {

    private SmiGdrDistances() {
    }

    static List<Finding> findings(Rule rule, SmiTopoMatrix m, GdrLevel level) {
        SmiPath threshold = threshold(level.name());
        List<Finding> out = new ArrayList<>();
        for (String gpu : m.devices().stream().filter(d -> d.startsWith("GPU")).toList()) {
            Map<String, String> row = m.cells().getOrDefault(gpu, Map.of());
            String nearest = null;
            SmiPath path = null;
            for (String nic : m.devices().stream().filter(d -> !d.startsWith("GPU")).toList()) {
                Optional<SmiPath> p = path(row.get(nic));
                if (p.isPresent() && (path == null || p.get().ordinal() < path.ordinal())) {
                    nearest = nic;
                    path = p.get();
                }
            }
            if (path != null && path.ordinal() > threshold.ordinal()) {
                String nic = m.name(nearest);
                out.add(rule.finding(gpu + "-" + nic, gpu + " reaches its nearest NIC " + nic + " through " + path
                        + " (nvidia-smi topo -m): GPUDirect RDMA off by default", List.of(
                        "nvidia-smi topo -m: " + gpu + "-" + nearest + (nic.equals(nearest) ? "" : " (" + nic + ")") + " " + row.get(nearest),
                        "threshold " + level.name() + ": " + level.source(),
                        "NCCL_NET_GDR_LEVEL=" + (path == SmiPath.NODE ? "PHB" : path.name()) + " would enable it for this pair")));
            }
        }
        return out;
    }

    /** A cell's path type; NV# (NVLink) and P2P status cells are none. */
    private static Optional<SmiPath> path(String cell) {
        if (cell == null) {
            return Optional.empty();
        }
        String name = cell.equals("SOC") ? "SYS" : cell;
        for (SmiPath p : SmiPath.values()) {
            if (p.name().equals(name) && p != SmiPath.X) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /**
     * The farthest path NCCL still enables: LOC none; PIX, PXB, PHB (which takes NODE in) and SYS as named; the newer
     * levels between PXB and PHB (PXN, P2C, C2C) enable what PXB enables in a matrix that has no such column.
     */
    private static SmiPath threshold(String level) {
        return switch (level) {
            case "LOC" -> SmiPath.X;
            case "PIX" -> SmiPath.PIX;
            case "PHB" -> SmiPath.NODE;
            case "SYS" -> SmiPath.SYS;
            default -> SmiPath.PXB;
        };
    }
}
