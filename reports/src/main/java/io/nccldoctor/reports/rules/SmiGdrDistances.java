package io.nccldoctor.reports.rules;

import io.nccldoctor.pcie.SmiPath;
import io.nccldoctor.pcie.SmiTopoMatrix;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * GDR_DISABLED_BY_DISTANCE from a pasted `nvidia-smi topo -m` alone, when no PCI tree was read: each GPU's nearest
 * NIC by the matrix's path type against NCCL's GDR threshold. nvidia-smi names the same paths NCCL compares (PIX, PXB,
 * PHB, SYS; SOC is the old name of SYS); its NODE, two host bridges of one CPU, is NCCL's PHB. A GPU whose memory is a
 * NUMA node (a number in the GPU NUMA ID column: Grace Hopper, Grace Blackwell) reaches the NIC through C2C, which NCCL
 * from 2.29 may enable as P2C and the matrix does not show: it is left out, and the outcome names it (no pass when every
 * GPU is). A GPU-NIC cell is read from the GPU's row,
 * else from the NIC's (a fragment of NIC rows holds them there only). A GPU with NIC cells in neither row (a row cut
 * short or not in the text, an unreadable cell) is judged only when a cell that is there already meets the threshold:
 * the nearest NIC may be among the missing ones, so otherwise it is not judged, and the outcome says which cells were
 * read from which rows and which are missing.
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
        Map<String, List<String>> unjudged = new LinkedHashMap<>(); // what was read → the GPUs it holds for
        List<String> nics = m.devices().stream().filter(d -> !d.startsWith("GPU")).toList();
        List<String> gpus = m.devices().stream().filter(d -> d.startsWith("GPU")).toList();
        List<String> c2c = new ArrayList<>();
        for (String gpu : gpus) {
            if (m.gpuNumaId().getOrDefault(gpu, "N/A").matches("\\d+")) {
                c2c.add(gpu); // GPU memory as a NUMA node: a Grace (C2C) GPU, whose path to the NIC NCCL may call P2C; the matrix cannot say
                continue;
            }
            Cells c = cells(m, gpu, nics);
            if (c.path != null && c.path.ordinal() <= threshold.ordinal()) {
                continue; // a NIC within the threshold: a missing cell could only be as near
            }
            if (!c.missing.isEmpty()) {
                unjudged.computeIfAbsent(c.read(nics) + "no cell for " + span(c.missing, nics)
                        + (c.path == null ? "" : "; the cells read reach " + c.path + " at best"), k -> new ArrayList<>()).add(gpu);
            } else if (c.path != null) {
                out.add(finding(rule, m, gpu, c, level, source));
            }
        }
        String leftOut = c2c.isEmpty() ? "" : "; " + span(c2c, gpus, "GPUs") + " left out: a number in the GPU NUMA ID column "
                + "(GPU memory as a NUMA node, a Grace C2C GPU), whose path to the NIC NCCL may call P2C, which the matrix cannot show";
        if (unjudged.isEmpty()) {
            if (c2c.size() == gpus.size() && !gpus.isEmpty()) {
                return Outcome.waived("not judged from nvidia-smi " + m.matrix() + leftOut); // no GPU was judged: no pass
            }
            return out.isEmpty() ? Outcome.pass() : Outcome.flag(out);
        }
        List<String> notes = unjudged.entrySet().stream().map(e -> span(e.getValue(), gpus, "GPUs") + " (" + e.getKey() + ")").toList();
        return new Outcome(List.copyOf(out), "not judged from nvidia-smi " + m.matrix() + ": " + String.join(", ", notes)
                + ": the nearest NIC may be one whose cell is not in the text" + leftOut);
    }

    /**
     * A GPU's NIC cells: from its own row, else from the NIC's row (the matrix is symmetric, and a fragment of NIC rows
     * holds the GPU cells in the NIC rows only), with the NICs whose cell is in neither.
     */
    private static Cells cells(SmiTopoMatrix m, String gpu, List<String> nics) {
        Map<String, String> row = m.cells().get(gpu);
        Cells c = new Cells(row != null);
        for (String nic : nics) {
            String cell = row == null ? null : row.get(nic);
            if (cell == null) {
                cell = m.cells().getOrDefault(nic, Map.of()).get(gpu);
                if (cell != null) {
                    c.fromNicRows.add(nic);
                }
            }
            Optional<SmiPath> p = path(cell);
            if (cell == null) {
                c.missing.add(nic); // in neither row: cut off, or an unknown cell the parser listed and left out
            } else if (p.isPresent() && (c.path == null || p.get().ordinal() < c.path.ordinal())) {
                c.nearest = nic;
                c.path = p.get();
                c.cell = cell;
            }
        }
        return c;
    }

    /** The NIC cells of one GPU as read, and where from. */
    private static final class Cells {
        final boolean ownRow;
        final List<String> fromNicRows = new ArrayList<>();
        final List<String> missing = new ArrayList<>();
        String nearest;
        SmiPath path;
        String cell;

        Cells(boolean ownRow) {
            this.ownRow = ownRow;
        }

        /** Where the cells came from, when not all from the GPU's own row: "its row is not in the text; …". */
        String read(List<String> nics) {
            String own = ownRow ? "the GPU row lacks " + (missing.size() + fromNicRows.size()) + " NIC cells (cut short or unreadable)"
                    : "the GPU row is not in the text";
            return own + "; " + (fromNicRows.isEmpty() ? "no NIC row holds them either"
                    : "cells for " + span(fromNicRows, nics) + " read from " + (fromNicRows.size() == 1 ? "that NIC's row" : "those NICs' rows")) + "; ";
        }
    }

    private static Finding finding(Rule rule, SmiTopoMatrix m, String gpu, Cells c, String level, String source) {
        String nic = m.name(c.nearest);
        String smi = "nvidia-smi " + m.matrix();
        return rule.finding(gpu + "-" + nic, gpu + " reaches its nearest NIC " + nic + " through " + c.path
                + " (" + smi + "): GPUDirect RDMA off by default", List.of(
                smi + ": " + gpu + "-" + c.nearest + (nic.equals(c.nearest) ? "" : " (" + nic + ")") + " " + c.cell
                        + (c.fromNicRows.contains(c.nearest) ? " (in " + c.nearest + "'s row; " + gpu + "'s row is "
                        + (c.ownRow ? "cut short there" : "not in the text") + ")" : ""),
                "threshold " + level + ": " + source,
                "NCCL_NET_GDR_LEVEL=" + (c.path == SmiPath.NODE ? "PHB" : c.path.name()) + " would enable it for this pair"));
    }

    /** "NIC7", or runs in NIC order: "NIC0 … NIC29, NIC34 … NIC41 (38 NICs)". */
    private static String span(List<String> some, List<String> nics) {
        return span(some, nics, "NICs");
    }

    /** Runs of {@code some} in the order of {@code all}, with their count in {@code what}. */
    private static String span(List<String> some, List<String> all, String what) {
        if (some.size() == 1) {
            return some.get(0);
        }
        List<String> runs = new ArrayList<>();
        int start = 0;
        for (int i = 1; i <= some.size(); i++) {
            if (i == some.size() || all.indexOf(some.get(i)) != all.indexOf(some.get(i - 1)) + 1) {
                runs.add(i - 1 == start ? some.get(start) : some.get(start) + " … " + some.get(i - 1));
                start = i;
            }
        }
        return String.join(", ", runs) + " (" + some.size() + " " + what + ")";
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
