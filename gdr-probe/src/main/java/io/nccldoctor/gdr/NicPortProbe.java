package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.Probe;
import io.nccldoctor.core.libs.LibrarySearch;
import io.nccldoctor.core.libs.NativeLibrary;
import java.util.List;

/**
 * The RDMA ports through libibverbs, the library NCCL's IB transport opens: state and line rate per port. Where sysfs
 * is hidden (a container without /sys/class/infiniband) this is still what NCCL will use.
 */
public final class NicPortProbe implements Probe<NicPorts> {

    public static final String KEY = "nicPorts";

    @Override
    public String key() {
        return KEY;
    }

    @Override
    public String description() {
        return "libibverbs per RDMA port: state, link layer, width and speed, line rate";
    }

    @Override
    public NicPorts run(Host host) {
        Fact<NativeLibrary.Copy> lib = new LibrarySearch(host).find("libibverbs", List.of("libibverbs.so.1")).loaded();
        if (!lib.isValue()) {
            return new NicPorts(Fact.absent(lib.reason() + ": NCCL has no RDMA transport here"));
        }
        String path = lib.get().realPath();
        Fact<NicPorts> answer = host.natives().query("nicPorts:" + path, NicPorts.class, () -> Fact.of(new NicPorts(NicPortCalls.query(path))));
        return answer.orElseGet(() -> new NicPorts(Fact.absent(answer.reason())));
    }
}
