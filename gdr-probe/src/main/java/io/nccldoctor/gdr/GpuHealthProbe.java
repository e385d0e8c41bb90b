package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.Probe;
import io.nccldoctor.core.libs.LibrarySearch;
import io.nccldoctor.core.libs.NativeLibrary;
import java.time.Duration;
import java.util.List;

/**
 * GPU health: per GPU what NVML says (ECC, retired pages, row remapping, NVLinks, clocks and their event reasons,
 * persistence and MIG mode, fabric registration, PCIe replays), and the Xids of the kernel log. NVML alone, without a
 * CUDA context, so preflight can afford it on every run; recorded in a capture as one native answer and the log
 * commands.
 */
public final class GpuHealthProbe implements Probe<GpuHealth> {

    public static final String KEY = "gpuHealth";

    private final Duration window;

    public GpuHealthProbe() {
        this(KernelXids.WINDOW);
    }

    /** @param window how far back the kernel log is read for Xids */
    public GpuHealthProbe(Duration window) {
        this.window = window;
    }

    @Override
    public String key() {
        return KEY;
    }

    @Override
    public String description() {
        return "NVML per GPU: ECC, retired pages, row remapping, NVLink states and errors, clock event reasons, persistence, "
                + "MIG, fabric, PCIe replays; Xids of the kernel log";
    }

    /**
     * NVML is asked when the loader can find it (a container may not show the module's file); the kernel log is read
     * when the NVIDIA module is loaded or NVML listed a GPU, for only the driver writes Xids there.
     */
    @Override
    public GpuHealth run(Host host) {
        boolean module = host.files().exists(NvidiaDriverProbe.PROC_VERSION);
        Fact<NativeLibrary.Copy> lib = new LibrarySearch(host).find("NVML", List.of("libnvidia-ml.so.1")).loaded();
        Fact<List<GpuHealth.Gpu>> gpus;
        if (lib.isValue()) {
            String path = lib.get().realPath();
            gpus = host.natives().query("gpuHealth:" + path, NvmlHealthCalls.Answer.class, () -> NvmlHealthCalls.survey(path))
                    .map(NvmlHealthCalls.Answer::gpus);
        } else {
            gpus = Fact.absent(module ? lib.reason() : "no NVIDIA driver: the NVIDIA kernel module is not loaded ("
                    + NvidiaDriverProbe.PROC_VERSION + " absent) and NVML is not found");
        }
        boolean anyGpu = gpus.map(l -> !l.isEmpty()).orElse(false);
        Fact<GpuHealth.XidLog> xids = module || anyGpu ? KernelXids.read(host, window)
                : Fact.absent("no NVIDIA driver: no Xid can be logged (" + NvidiaDriverProbe.PROC_VERSION + " absent, NVML lists no GPU)");
        return new GpuHealth(gpus, xids);
    }
}
