package io.nccldoctor.pcie;

/**
 * What a PCI function is, from its class code, vendor and device id through the one table ({@link PciIds}).
 * NCCL classifies 0x03* as GPU and 0x02* as NIC (reference/peers-and-platform.md B2); here a GPU is an NVIDIA
 * display-class function, because NCCL uses nothing else and an ASPEED BMC or Intel iGPU VGA function is a display.
 * An AMD Instinct GPU (RCCL's GPU) is {@link #AMD_GPU}: a GPU in the matrix, but no rule written for NVIDIA's driver,
 * CUDA or NCCL's path numbering judges it.
 */
public enum DeviceKind {
    GPU, AMD_GPU, NVSWITCH, NIC, DISPLAY, BRIDGE, HOST_BRIDGE, OTHER;

    static final String NVIDIA = PciIds.NVIDIA;

    /** Without a device id (snapshots that did not record one): AMD GPUs are then told by their compute-only class. */
    public static DeviceKind classify(String vendorId, String classCode) {
        return classify(vendorId, PciIds.UNKNOWN_DEVICE, classCode);
    }

    public static DeviceKind classify(String vendorId, String deviceId, String classCode) {
        String sub = classCode.substring(0, 4);
        if (sub.equals("0680") && vendorId.equals(NVIDIA)) {
            return NVSWITCH;
        }
        var family = PciIds.family(vendorId, deviceId, classCode, null);
        if (family.isPresent() && family.get().role() == PciIds.Role.NVIDIA_GPU) {
            return GPU;
        }
        if (family.isPresent() && family.get().role() == PciIds.Role.AMD_GPU) {
            return AMD_GPU;
        }
        if (classCode.startsWith("03")) {
            return DISPLAY;
        }
        if (classCode.startsWith("02")) {
            return NIC;
        }
        if (sub.equals("0604")) {
            return BRIDGE;
        }
        if (sub.equals("0600")) {
            return HOST_BRIDGE;
        }
        return OTHER;
    }

    /** A GPU of either vendor: a row and column of the GPU/NIC matrix. */
    public boolean isGpu() {
        return this == GPU || this == AMD_GPU;
    }
}
