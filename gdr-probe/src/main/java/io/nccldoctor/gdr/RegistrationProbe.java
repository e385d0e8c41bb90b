package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.Probe;
import io.nccldoctor.core.libs.LibrarySearch;
import io.nccldoctor.core.libs.NativeLibrary;
import java.util.List;

/**
 * `gdr --active`: registers GPU memory with every HCA for real (see {@link Registration}). Skipped, with the reason,
 * where there is no RDMA device, no libibverbs, or (for the per-GPU part) no GPU.
 */
public final class RegistrationProbe implements Probe<Registration> {

    public static final String KEY = "registration";

    @Override
    public String key() {
        return KEY;
    }

    @Override
    public String description() {
        return "active: NCCL's DMA-BUF probe per HCA, and a real DMA-BUF and peer-memory registration per GPU and HCA";
    }

    /**
     * Asks libibverbs itself (NCCL does: ibv_get_device_list) when the loader finds it; without it, or without any
     * RDMA device, the probe is skipped with the reason.
     */
    @Override
    public Registration run(Host host) {
        Fact<List<String>> hcas = host.files().list("/sys/class/infiniband");
        String sysfs = hcas.fold(l -> l.isEmpty() ? "/sys/class/infiniband is empty" : "/sys/class/infiniband lists " + l.size(), r -> r);
        LibrarySearch search = new LibrarySearch(host);
        Fact<NativeLibrary.Copy> ibverbs = search.find("libibverbs", List.of("libibverbs.so.1")).loaded();
        if (!ibverbs.isValue()) {
            String why = hcas.isValue() && !hcas.get().isEmpty() ? "skipped: " + ibverbs.reason() : "skipped: no RDMA device (" + sysfs + ")";
            return new Registration(Fact.absent(why), Fact.absent(why));
        }
        GpuSurvey survey = new GpuProbe().run(host);
        List<String> gpus = survey.gpus().orElse(List.of()).stream().map(GpuSurvey.Gpu::busId).toList();
        String libcuda = search.find("CUDA driver", List.of("libcuda.so.1")).loaded().map(NativeLibrary.Copy::realPath).orElse("libcuda.so.1");
        String libibverbs = ibverbs.get().realPath();
        Registration r = host.natives().query("registration:" + libibverbs, Registration.class,
                () -> Fact.of(RegistrationCalls.run(libibverbs, libcuda, gpus)))
                .orElseGet(() -> new Registration(Fact.absent("not in the capture"), Fact.absent("not in the capture")));
        if (!r.ncclProbe().isValue() && r.ncclProbe().reason().contains("found no RDMA device")) {
            String why = "skipped: no RDMA device (" + r.ncclProbe().reason() + "; " + sysfs + ")";
            return new Registration(Fact.absent(why), Fact.absent(why));
        }
        return r;
    }
}
