package io.nccldoctor.pcie;

/**
 * What a PCI function is, from its class code and vendor (reference/peers-and-platform.md B2: NCCL classifies
 * 0x03* as GPU and 0x02* as NIC; only NVIDIA display-class functions count as GPUs here, because NCCL uses
 * nothing else, and an ASPEED BMC or Intel iGPU VGA function is a display, not a GPU).
 */
public enum DeviceKind {
    GPU, NVSWITCH, NIC, DISPLAY, BRIDGE, HOST_BRIDGE, OTHER;

    static final String NVIDIA = "10de";

    public static DeviceKind classify(String vendorId, String classCode) {
        String base = classCode.substring(0, 2);
        String sub = classCode.substring(0, 4);
        if (base.equals("03")) {
            return vendorId.equals(NVIDIA) ? GPU : DISPLAY;
        }
        if (sub.equals("0680") && vendorId.equals(NVIDIA)) {
            return NVSWITCH;
        }
        if (base.equals("02")) {
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
}
