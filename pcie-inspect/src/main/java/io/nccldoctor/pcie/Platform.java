package io.nccldoctor.pcie;

import io.nccldoctor.core.Fact;
import java.util.List;

/**
 * The node itself: name, kernel, distribution, CPU and NUMA layout.
 *
 * @param os the PRETTY_NAME of /etc/os-release
 */
public record Platform(Fact<String> hostName, Fact<String> kernel, Fact<String> os, Cpu cpu,
                       Fact<List<NumaNode>> numaNodes) {

    /**
     * From /proc/cpuinfo. Family and model are the decimal numbers the kernel prints; Intel client platforms
     * (family 6, model 198 = Arrow Lake-S) are identified from them (reference/peers-and-platform.md B7).
     */
    public record Cpu(Fact<String> vendor, Fact<Integer> family, Fact<Integer> model, Fact<String> modelName,
                      Fact<Integer> logicalCpus, Fact<Integer> sockets) {
    }

    /** One NUMA node of /sys/devices/system/node and its CPUs as a cpulist ("0-31,64-95"). */
    public record NumaNode(int id, Fact<String> cpuList) {
    }
}
