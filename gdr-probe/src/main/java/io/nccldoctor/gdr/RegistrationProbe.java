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

    @Override
    public Registration run(Host host) {
        Fact<List<String>> hcas = host.files().list("/sys/class/infiniband");
        if (!hcas.isValue() || hcas.get().isEmpty()) {
            String why = "skipped: no RDMA device (" + hcas.fold(l -> "/sys/class/infiniband is empty", r -> r) + ")";
            return new Registration(Fact.absent(why), Fact.absent(why));
        }
        LibrarySearch search = new LibrarySearch(host);
        Fact<NativeLibrary.Copy> ibverbs = search.find("libibverbs", List.of("libibverbs.so.1")).loaded();
        if (!ibverbs.isValue()) {
            String why = "skipped: " + ibverbs.reason();
            return new Registration(Fact.absent(why), Fact.absent(why));
        }
        GpuSurvey survey = new GpuProbe().run(host);
        List<String> gpus = survey.gpus().orElse(List.of()).stream().map(GpuSurvey.Gpu::busId).toList();
        String libcuda = search.find("CUDA driver", List.of("libcuda.so.1")).loaded().map(NativeLibrary.Copy::realPath).orElse("libcuda.so.1");
        String libibverbs = ibverbs.get().realPath();
        return host.natives().query("registration:" + libibverbs, Registration.class,
                () -> Fact.of(RegistrationCalls.run(libibverbs, libcuda, gpus)))
                .orElseGet(() -> new Registration(Fact.absent("not in the capture"), Fact.absent("not in the capture")));
    }
}
