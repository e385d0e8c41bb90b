package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.Probe;
import io.nccldoctor.core.host.HostRoot;
import java.util.List;

/** Which RDMA devices the kernel exposes, and on which PCI function each sits. */
public final class RdmaProbe implements Probe<RdmaDevices> {

    public static final String KEY = "rdma";
    static final String CLASS_DIR = "/sys/class/infiniband";

    @Override
    public String key() {
        return KEY;
    }

    @Override
    public String description() {
        return "RDMA devices in /sys/class/infiniband with their PCI function and ports";
    }

    @Override
    public RdmaDevices run(Host host) {
        HostRoot files = host.files();
        Fact<List<String>> names = files.list(CLASS_DIR);
        if (names.isAbsent()) {
            return new RdmaDevices(Fact.absent(CLASS_DIR + " absent: no RDMA device, or the ib_core/ib_uverbs modules are not loaded"));
        }
        return new RdmaDevices(names.map(list -> list.stream().map(n -> device(files, n)).toList()));
    }

    private static RdmaDevices.RdmaDevice device(HostRoot files, String name) {
        String dir = CLASS_DIR + "/" + name;
        Fact<String> pci = files.realPath(dir + "/device").map(p -> p.substring(p.lastIndexOf('/') + 1));
        Fact<List<Integer>> ports = files.list(dir + "/ports").map(l -> l.stream()
                .filter(s -> s.matches("\\d+")).map(Integer::valueOf).sorted().toList());
        return new RdmaDevices.RdmaDevice(name, pci, ports);
    }
}
