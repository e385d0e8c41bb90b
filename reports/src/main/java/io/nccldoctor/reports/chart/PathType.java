package io.nccldoctor.reports.chart;

import java.awt.Color;
import java.util.Locale;

/**
 * The connection types of {@code nvidia-smi topo -m}, nearest first, each with the colour the path matrix gives it:
 * greens while traffic stays on NVLink or inside a PCIe switch, yellow to red once it crosses the CPU. The turn sits
 * between PXB and PHB because NCCL uses GPUDirect RDMA up to PXB by default (NCCL_NET_GDR_LEVEL); from PHB on, a
 * GPU–NIC pair silently falls back to staging through host memory. Colours: ColorBrewer RdYlGn, reversed.
 */
public enum PathType {
    SELF("X", "the device itself", 0xF2F2F2),
    NVLINK("NV#", "a bonded set of # NVLinks", 0x1A9850),
    /** NVLink-C2C, the Grace–Hopper/Blackwell chip-to-chip link. */
    C2C("C2C", "NVLink-C2C between CPU and GPU", 0x66BD63),
    PIX("PIX", "at most one PCIe bridge (same switch)", 0xA6D96A),
    PXB("PXB", "several PCIe bridges, not the host bridge", 0xD9EF8B),
    PHB("PHB", "through a PCIe host bridge (the CPU)", 0xFEE08B),
    NODE("NODE", "between host bridges in one NUMA node", 0xFDAE61),
    SYS("SYS", "across the CPU interconnect (UPI, xGMI)", 0xE8553B),
    UNKNOWN("?", "not a known path type", 0xBDBDBD);

    private final String code;
    private final String meaning;
    /** 0xRRGGBB; a number, not a Color, so that naming a path type does not start AWT (see {@link Headless}). */
    private final int colour;

    PathType(String code, String meaning, int colour) {
        this.code = code;
        this.meaning = meaning;
        this.colour = colour;
    }

    /** As nvidia-smi prints it; "NV#" for NVLink, whose cells say how many links ("NV12"). */
    public String code() {
        return code;
    }

    /** What the path crosses, short enough for a legend. */
    public String meaning() {
        return meaning;
    }

    Color colour() {
        return Palette.rgb(colour);
    }

    /**
     * The type of one matrix cell. Older drivers printed SOC where current ones print SYS (the same: a hop
     * between CPU sockets), so SOC reads as SYS. Anything else, including an empty cell, is UNKNOWN.
     */
    public static PathType of(String cell) {
        String c = cell.strip().toUpperCase(Locale.ROOT);
        if (c.matches("NV\\d+")) {
            return NVLINK;
        }
        return switch (c) {
            case "X" -> SELF;
            case "C2C" -> C2C;
            case "PIX" -> PIX;
            case "PXB" -> PXB;
            case "PHB" -> PHB;
            case "NODE" -> NODE;
            case "SYS", "SOC" -> SYS;
            default -> UNKNOWN;
        };
    }
}
