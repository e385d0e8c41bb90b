package io.nccldoctor.reports.rules;

import io.nccldoctor.pcie.SmiPath;
import io.nccldoctor.pcie.SmiTopoMatrix;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * GDR_DISABLED_BY_DISTANCE from a pasted `nvidia-smi topo -m` alone, when no PCI tree was read: each GPU's nearest
 * NIC by the matrix's path type against NCCL's GDR threshold. nvidia-smi names the same paths NCCL compares (PIX, PXB,
 * PHB, SYS; SOC is the old name of SYS); its NODE, two host bridges of one CPU, is NCCL's PHB. A GPU whose memory is a
 * NUMA node (a number in the GPU NUMA ID column: Grace Hopper, Grace Blackwell) reaches the NIC through C2C, which NCCL
 * from 2.29 may enable as P2C and the matrix does not show: it is left out. A GPU whose row lacks NIC cells (a row cut
 * short, an unreadable cell) is judged only when a cell that is there already meets the threshold: the nearest NIC may
 * be among the missing ones, so otherwise it is not judged, and the outcome says so.
 */
final class SmiGdrDistances {

    /**
     * NCCL's default threshold when the matrix's NCCL version is unknown: PXB; from 2.29 P2C while NCCL_NET_GDR_C2C is
     * on (reference/nccl-internals.md 4.2), which differs from PXB only for a GPU that reaches the NIC through C2C.
     */
    static final String DEFAULT = "NCCL's default (PXB; from 2.29 P2C while NCCL_NET_GDR_C2C is on, which adds only a GPU that "
            + "reaches the NIC through its CPU's C2C link, left out here)";

    private SmiGdrDistances() {
    }

    /** The findings, waived in part (with the GPUs not judged and why) when a GPU's row lacks NIC cells. */
    static Outcome outcome(Rule rule, SmiTopoMatrix m, String level, String source) {
        SmiPath threshold = threshold(level);
        List<Finding> out = new ArrayList<>();
        List<String> unjudged = new ArrayList<>();
        List<String> nics = m.devices().stream().filter(d -> !d.startsWith("GPU")).toList();
        for (String gpu : m.devices().stream().filter(d -> d.startsWith("GPU")).toList()) {
            if (m.gpuNumaId().getOrDefault(gpu, "N/A").matches("\\d+")) {
                continue; // GPU memory as a NUMA node: a Grace (C2C) GPU, whose path to the NIC NCCL may call P2C; the matrix cannot say
            }
            Map<String, String> row = m.cells().getOrDefault(gpu, Map.of());
            String nearest = null;
            SmiPath path = null;
            List<String> missing = new ArrayList<>();
            for (String nic : nics) {
                Optional<SmiPath> p = path(row.get(nic));
                if (row.get(nic) == null) {
                    missing.add(nic); // cut off, or an unknown cell the parser listed and left out
                } else if (p.isPresent() && (path == null || p.get().ordinal() < path.ordinal())) {
                    nearest = nic;
                    path = p.get();
                }
            }
            if (path != null && path.ordinal() <= threshold.ordinal()) {
                continue; // a NIC within the threshold: a missing cell could only be as near
            }
            if (!missing.isEmpty()) {
                unjudged.add(gpu + " (no cell for " + span(missing) + (path == null ? "" : "; the cells there reach " + path + " at best") + ")");
            } else if (path != null) {
                out.add(finding(rule, m, gpu, nearest, path, level, source));
            }
        }
        if (unjudged.isEmpty()) {
            return out.isEmpty() ? Outcome.pass() : Outcome.flag(out);
        }
        return new Outcome(List.copyOf(out), "not judged from nvidia-smi " + m.matrix() + ": " + String.join(", ", unjudged)
                + ": the nearest NIC may be one whose cell is not in the text (a row cut short or an unreadable cell)");
    }

    private static Finding finding(Rule rule, SmiTopoMatrix m, String gpu, String nearest, SmiPath path, String level, String source) {
        String nic = m.name(nearest);
        String smi = "nvidia-smi " + m.matrix();
        return rule.finding(gpu + "-" + nic, gpu + " reaches its nearest NIC " + nic + " through " + path
                + " (" + smi + "): GPUDirect RDMA off by default", List.of(
                smi + ": " + gpu + "-" + nearest + (nic.equals(nearest) ? "" : " (" + nic + ")") + " " + m.cells().get(gpu).get(nearest),
                "threshold " + level + ": " + source,
                "NCCL_NET_GDR_LEVEL=" + (path == SmiPath.NODE ? "PHB" : path.name()) + " would enable it for this pair"));
    }

    /** "NIC7" or "NIC7 … NIC13 (7 NICs)". */
    private static String span(List<String> nics) {
        return nics.size() == 1 ? nics.get(0) : nics.get(0) + " … " + nics.get(nics.size() - 1) + " (" + nics.size() + " NICs)";
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
