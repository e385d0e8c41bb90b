package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import java.util.List;

/** RDMA devices of /sys/class/infiniband (InfiniBand and RoCE alike: mlx5_0, bnxt_re0, irdma0 …). */
public record RdmaDevices(Fact<List<RdmaDevice>> devices) {

    /**
     * @param pciAddress the PCI function behind the device (realpath of its {@code device} link)
     * @param ports      port numbers from {@code ports/}
     */
    public record RdmaDevice(String name, Fact<String> pciAddress, Fact<List<Integer>> ports) {
    }

    public int count() {
        return devices.orElse(List.of()).size();
    }
}
