package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.Probe;
import io.nccldoctor.core.libs.LibrarySearch;
import io.nccldoctor.core.libs.NativeLibrary;
import java.util.List;

/** Per GPU and GPU pair: name, brand, compute capability, GPUDirect RDMA and DMA-BUF attributes, P2P read/write status. */
public final class GpuProbe implements Probe<GpuSurvey> {

    public static final String KEY = "gpus";

    @Override
    public String key() {
        return KEY;
    }

    @Override
    public String description() {
        return "CUDA and NVML per GPU: brand, compute capability, GPUDirect RDMA / DMA-BUF attributes, P2P read and write";
    }

    /**
     * Asks the CUDA driver library the loader would pick. Without the kernel module (/proc/driver/nvidia/version)
     * and without a loadable libcuda.so.1 there is no GPU to ask; with a libcuda.so.1 the library is asked all the
     * same (a container may not show the module's file), and its error says what is wrong.
     */
    @Override
    public GpuSurvey run(Host host) {
        boolean module = host.files().exists("/proc/driver/nvidia/version");
        LibrarySearch search = new LibrarySearch(host);
        Fact<NativeLibrary.Copy> cuda = search.find("CUDA driver", List.of("libcuda.so.1")).loaded();
        if (!cuda.isValue()) {
            String why = module ? cuda.reason()
                    : "the NVIDIA kernel module is not loaded (/proc/driver/nvidia/version absent): no GPU can be asked";
            return new GpuSurvey(Fact.absent(why), Fact.absent(why));
        }
        String nvml = search.find("NVML", List.of("libnvidia-ml.so.1")).loaded().map(NativeLibrary.Copy::realPath).orElse(null);
        String libcuda = cuda.get().realPath();
        return host.natives().query("gpuSurvey:" + libcuda, GpuSurvey.class, () -> Fact.of(GpuCalls.survey(libcuda, nvml)))
                .orElseGet(() -> new GpuSurvey(Fact.absent("not in the capture"), Fact.absent("not in the capture")));
    }
}
