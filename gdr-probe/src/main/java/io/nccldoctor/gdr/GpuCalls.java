package io.nccldoctor.gdr;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.libs.CudaErrors;
import io.nccldoctor.core.libs.JnaLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The native edge for GPU facts: the CUDA driver API (libcuda.so.1) and NVML (libnvidia-ml.so.1) through JNA, by
 * exact symbol. JNA rather than the JavaCPP presets: a symbol missing from an old driver is then an
 * UnsatisfiedLinkError caught here, where JavaCPP's lazy binding would kill the JVM (reference/java-deps.md §2).
 * Every failure becomes a fact with the call and its return code.
 */
final class GpuCalls {

    static final int ATTR_COMPUTE_MAJOR = 75;
    static final int ATTR_COMPUTE_MINOR = 76;
    static final int ATTR_GPU_DIRECT_RDMA_SUPPORTED = 116;
    static final int ATTR_DMA_BUF_SUPPORTED = 124;
    /** nvmlBrandType_t (reference/peers-and-platform.md B8). */
    static final String[] BRANDS = {"UNKNOWN", "QUADRO", "TESLA", "NVS", "GRID", "GEFORCE", "TITAN", "NVIDIA_VAPPS",
        "NVIDIA_VPC", "NVIDIA_VCS", "NVIDIA_VWS", "NVIDIA_CLOUD_GAMING", "QUADRO_RTX", "NVIDIA_RTX", "NVIDIA", "GEFORCE_RTX", "TITAN_RTX"};
    /** nvmlGpuP2PStatus_t. */
    static final String[] P2P = {"OK", "CHIPSET_NOT_SUPPORTED", "GPU_NOT_SUPPORTED", "IOH_TOPOLOGY_NOT_SUPPORTED",
        "DISABLED_BY_REGKEY", "NOT_SUPPORTED", "UNKNOWN"};
    static final int P2P_READ = 0;
    static final int P2P_WRITE = 1;

    private GpuCalls() {
    }

    static GpuSurvey survey(String libcuda, String libnvml) {
        NativeLibrary cuda;
        try {
            cuda = JnaLoader.open(libcuda);
        } catch (LinkageError e) {
            Fact<List<GpuSurvey.Gpu>> no = Fact.error("cannot load " + libcuda + ": " + e.getMessage());
            return new GpuSurvey(no, Fact.error(no.reason()));
        }
        NativeLibrary nvml = null;
        try {
            int rc = call(cuda, "cuInit", 0);
            if (rc != 0) {
                Fact<List<GpuSurvey.Gpu>> no = Fact.error("cuInit returned " + CudaErrors.describe(rc));
                return new GpuSurvey(no, Fact.error(no.reason()));
            }
            IntByReference count = new IntByReference();
            rc = call(cuda, "cuDeviceGetCount", count);
            if (rc != 0) {
                Fact<List<GpuSurvey.Gpu>> no = Fact.error("cuDeviceGetCount returned " + CudaErrors.describe(rc));
                return new GpuSurvey(no, Fact.error(no.reason()));
            }
            nvml = nvml(libnvml);
            List<GpuSurvey.Gpu> gpus = new ArrayList<>();
            List<Pointer> handles = new ArrayList<>();
            List<Integer> devices = new ArrayList<>();
            for (int i = 0; i < count.getValue(); i++) {
                IntByReference dev = new IntByReference();
                call(cuda, "cuDeviceGet", dev, i);
                devices.add(dev.getValue());
                GpuSurvey.Gpu g = gpu(cuda, nvml, i, dev.getValue());
                gpus.add(g);
                handles.add(nvml == null ? null : handle(nvml, g.busId()));
            }
            return new GpuSurvey(Fact.of(gpus), Fact.of(peers(cuda, nvml, gpus, devices, handles)));
        } catch (UnsatisfiedLinkError e) {
            Fact<List<GpuSurvey.Gpu>> no = Fact.error("a CUDA driver symbol is missing: " + JnaLoader.reason(e));
            return new GpuSurvey(no, Fact.error(no.reason()));
        } finally {
            shutdown(nvml);
        }
    }

    private static GpuSurvey.Gpu gpu(NativeLibrary cuda, NativeLibrary nvml, int index, int d) {
        Memory bus = new Memory(64);
        bus.clear();
        call(cuda, "cuDeviceGetPCIBusId", bus, 64, d);
        String busId = normalise(bus.getString(0));
        Memory name = new Memory(256);
        name.clear();
        Fact<String> gpuName = call(cuda, "cuDeviceGetName", name, 256, d) == 0 ? Fact.of(name.getString(0)) : Fact.error("cuDeviceGetName failed");
        Fact<String> brand = Fact.absent("NVML not loadable");
        if (nvml != null) {
            Pointer h = handle(nvml, busId);
            if (h == null) {
                brand = Fact.error("nvmlDeviceGetHandleByPciBusId_v2 failed for " + busId);
            } else {
                IntByReference b = new IntByReference();
                int rc = call(nvml, "nvmlDeviceGetBrand", h, b);
                brand = rc == 0 ? Fact.of(b.getValue() >= 0 && b.getValue() < BRANDS.length ? BRANDS[b.getValue()] : "brand " + b.getValue())
                        : Fact.error("nvmlDeviceGetBrand returned " + rc);
            }
        }
        return new GpuSurvey.Gpu(index, busId, gpuName, brand, attribute(cuda, ATTR_COMPUTE_MAJOR, d),
                attribute(cuda, ATTR_COMPUTE_MINOR, d), attribute(cuda, ATTR_GPU_DIRECT_RDMA_SUPPORTED, d).map(v -> v != 0),
                attribute(cuda, ATTR_DMA_BUF_SUPPORTED, d).map(v -> v != 0));
    }

    private static List<GpuSurvey.PeerStatus> peers(NativeLibrary cuda, NativeLibrary nvml, List<GpuSurvey.Gpu> gpus,
                                                    List<Integer> devices, List<Pointer> handles) {
        List<GpuSurvey.PeerStatus> out = new ArrayList<>();
        for (int i = 0; i < gpus.size(); i++) {
            for (int j = 0; j < gpus.size(); j++) {
                if (i == j) {
                    continue;
                }
                IntByReference can = new IntByReference();
                int rc = call(cuda, "cuDeviceCanAccessPeer", can, devices.get(i), devices.get(j));
                Fact<Boolean> peer = rc == 0 ? Fact.of(can.getValue() != 0) : Fact.error("cuDeviceCanAccessPeer returned " + rc);
                out.add(new GpuSurvey.PeerStatus(gpus.get(i).busId(), gpus.get(j).busId(),
                        p2p(nvml, handles.get(i), handles.get(j), P2P_READ), p2p(nvml, handles.get(i), handles.get(j), P2P_WRITE), peer));
            }
        }
        return out;
    }

    private static Fact<String> p2p(NativeLibrary nvml, Pointer a, Pointer b, int index) {
        if (nvml == null || a == null || b == null) {
            return Fact.absent("NVML not loadable or no handle");
        }
        IntByReference status = new IntByReference();
        int rc = call(nvml, "nvmlDeviceGetP2PStatus", a, b, index, status);
        if (rc != 0) {
            return Fact.error("nvmlDeviceGetP2PStatus returned " + rc);
        }
        int s = status.getValue();
        return Fact.of(s >= 0 && s < P2P.length ? P2P[s] : "status " + s);
    }

    private static Fact<Integer> attribute(NativeLibrary cuda, int attr, int dev) {
        IntByReference v = new IntByReference();
        int rc = call(cuda, "cuDeviceGetAttribute", v, attr, dev);
        return rc == 0 ? Fact.of(v.getValue()) : Fact.error("cuDeviceGetAttribute(" + attr + ") returned " + rc
                + (rc == 1 ? " (CUDA_ERROR_INVALID_VALUE: the driver predates this attribute)" : ""));
    }

    private static NativeLibrary nvml(String path) {
        if (path == null) {
            return null;
        }
        try {
            NativeLibrary lib = JnaLoader.open(path);
            return call(lib, "nvmlInit_v2") == 0 ? lib : null;
        } catch (LinkageError e) {
            return null;
        }
    }

    /** Every nvmlInit_v2 needs its nvmlShutdown: NVML counts them and keeps its state until the last one (nvml.h). */
    private static void shutdown(NativeLibrary nvml) {
        if (nvml == null) {
            return;
        }
        try {
            call(nvml, "nvmlShutdown");
        } catch (UnsatisfiedLinkError e) {
            // an NVML without nvmlShutdown has nothing to release
        }
    }

    private static Pointer handle(NativeLibrary nvml, String busId) {
        PointerByReference h = new PointerByReference();
        return call(nvml, "nvmlDeviceGetHandleByPciBusId_v2", busId, h) == 0 ? h.getValue() : null;
    }

    private static int call(NativeLibrary lib, String function, Object... args) {
        Function f = lib.getFunction(function);
        return f.invokeInt(args);
    }

    /** "00000000:18:00.0" (CUDA's 8-digit domain) → "0000:18:00.0", as sysfs writes it. */
    static String normalise(String busId) {
        String b = busId.strip().toLowerCase(Locale.ROOT);
        int colon = b.indexOf(':');
        if (colon > 4) {
            b = b.substring(colon - 4);
        }
        return b;
    }
}
