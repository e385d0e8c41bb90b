package io.nccldoctor.pcie;

/**
 * The path vocabulary of {@code nvidia-smi topo -m} (reference/peers-and-platform.md A6), from the closest to the
 * farthest.
 */
public enum SmiPath {
    /** the device itself */
    X("Self"),
    /** through at most one PCIe switch */
    PIX("Connection traversing at most a single PCIe bridge"),
    /** through several PCIe switches, without the host bridge */
    PXB("Connection traversing multiple PCIe bridges (without traversing the PCIe Host Bridge)"),
    /** through a PCIe host bridge (typically the CPU) */
    PHB("Connection traversing PCIe as well as a PCIe Host Bridge (typically the CPU)"),
    /** between PCIe host bridges within one NUMA node */
    NODE("Connection traversing PCIe as well as the interconnect between PCIe Host Bridges within a NUMA node"),
    /** across the SMP interconnect between NUMA nodes (QPI/UPI, Infinity Fabric) */
    SYS("Connection traversing PCIe as well as the SMP interconnect between NUMA nodes (e.g., QPI/UPI)");

    private final String legend;

    SmiPath(String legend) {
        this.legend = legend;
    }

    public String legend() {
        return legend;
    }
}
