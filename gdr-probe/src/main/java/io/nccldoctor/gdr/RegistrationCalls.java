package io.nccldoctor.gdr;

import com.sun.jna.Function;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.libs.CudaErrors;
import io.nccldoctor.core.libs.JnaLoader;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The native edge of `gdr --active`: registers GPU memory with each HCA through libibverbs and the CUDA driver API,
 * by JNA (reference/peers-and-platform.md B5). Everything allocated is released in reverse order; every failure is
 * a fact with the errno and what it means for GPUDirect RDMA.
 */
final class RegistrationCalls {

    static final long SIZE = 2L << 20; // 2 MiB: host-page aligned, as cuMemGetHandleForAddressRange requires
    static final int CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD = 1;
    static final int ACCESS = 1 | 2 | 4; // IBV_ACCESS_LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ
    static final int EFAULT = 14;
    static final int EBADF = 9;
    static final int EPROTONOSUPPORT = 93;
    static final int EOPNOTSUPP = 95;

    private RegistrationCalls() {
    }

    /** One HCA opened for the probe: its context and protection domain (null where opening failed). */
    private record Hca(String name, Pointer context, Pointer pd) {
    }

    /**
     * Opens every HCA once (NCCL's probe on each), then takes each GPU once: its primary context retained, 2 MiB
     * allocated and registered with every HCA, freed, released. A GPU is opened once per run, not once per GPU–HCA
     * pair (80 context cycles on an 8-GPU, 10-HCA node).
     */
    static Registration run(String libibverbs, String libcuda, List<String> gpuBusIds) {
        NativeLibrary ibv;
        try {
            ibv = JnaLoader.open(libibverbs);
        } catch (LinkageError e) {
            Fact<List<Registration.HcaProbe>> no = Fact.error("cannot load " + libibverbs + ": " + e.getMessage());
            return new Registration(no, Fact.error(no.reason()));
        }
        IntByReference count = new IntByReference();
        Pointer list = fn(ibv, "ibv_get_device_list").invokePointer(new Object[] {count});
        if (list == null) {
            Fact<List<Registration.HcaProbe>> no = DeviceListFailure.of(Native.getLastError());
            return new Registration(no, no.isAbsent() ? Fact.absent(no.reason()) : Fact.error(no.reason()));
        }
        List<Hca> hcas = new ArrayList<>();
        try {
            if (count.getValue() == 0) { // an empty list is still a list to free
                String why = "ibv_get_device_list found no RDMA device";
                return new Registration(Fact.absent(why), Fact.absent(why));
            }
            List<Registration.HcaProbe> probes = new ArrayList<>();
            for (int i = 0; i < count.getValue(); i++) {
                probes.add(open(ibv, list.getPointer((long) i * Native.POINTER_SIZE), hcas));
            }
            return new Registration(Fact.of(probes), gpuBusIds.isEmpty() ? Fact.absent("no NVIDIA GPU to register")
                    : Fact.of(pairs(ibv, libcuda, gpuBusIds, hcas)));
        } catch (UnsatisfiedLinkError e) {
            return new Registration(Fact.error("a libibverbs symbol is missing: " + JnaLoader.reason(e)), Fact.error(JnaLoader.reason(e)));
        } finally {
            for (Hca h : hcas) {
                if (h.pd() != null) {
                    fn(ibv, "ibv_dealloc_pd").invokeInt(new Object[] {h.pd()});
                }
                fn(ibv, "ibv_close_device").invokeInt(new Object[] {h.context()});
            }
            fn(ibv, "ibv_free_device_list").invokeVoid(new Object[] {list});
        }
    }

    private static Registration.HcaProbe open(NativeLibrary ibv, Pointer dev, List<Hca> hcas) {
        String name = fn(ibv, "ibv_get_device_name").invokeString(new Object[] {dev}, false);
        Pointer ctx = fn(ibv, "ibv_open_device").invokePointer(new Object[] {dev});
        if (ctx == null) {
            return new Registration.HcaProbe(name, Fact.error("ibv_open_device failed, errno " + Native.getLastError()));
        }
        Pointer pd = fn(ibv, "ibv_alloc_pd").invokePointer(new Object[] {ctx});
        hcas.add(new Hca(name, ctx, pd));
        if (pd == null) {
            return new Registration.HcaProbe(name, Fact.error("ibv_alloc_pd failed, errno " + Native.getLastError()));
        }
        return new Registration.HcaProbe(name, ncclProbe(ibv, pd));
    }

    private static List<Registration.PairResult> pairs(NativeLibrary ibv, String libcuda, List<String> gpuBusIds, List<Hca> hcas) {
        List<Hca> usable = hcas.stream().filter(h -> h.pd() != null).toList();
        NativeLibrary cuda;
        try {
            cuda = JnaLoader.open(libcuda);
        } catch (LinkageError e) {
            Fact<String> no = Fact.error("cannot load " + libcuda + ": " + e.getMessage());
            return gpuBusIds.stream().flatMap(g -> usable.stream().map(h -> new Registration.PairResult(g, h.name(), no, no))).toList();
        }
        List<Registration.PairResult> pairs = new ArrayList<>();
        for (String gpu : gpuBusIds) {
            pairs.addAll(gpu(ibv, cuda, gpu, usable));
        }
        List<String> order = usable.stream().map(Hca::name).toList(); // listed per HCA, then per GPU, as before
        pairs.sort(Comparator.comparingInt((Registration.PairResult p) -> order.indexOf(p.hca()))
                .thenComparingInt(p -> gpuBusIds.indexOf(p.gpuBusId())));
        return pairs;
    }

    /** One GPU with every HCA: retained, allocated and released once. */
    private static List<Registration.PairResult> gpu(NativeLibrary ibv, NativeLibrary cuda, String busId, List<Hca> hcas) {
        IntByReference dev = new IntByReference();
        PointerByReference ctx = new PointerByReference();
        LongByReference dptr = new LongByReference();
        int rc = cu(cuda, "cuInit", 0);
        rc = rc != 0 ? rc : cu(cuda, "cuDeviceGetByPCIBusId", dev, busId);
        rc = rc != 0 ? rc : cu(cuda, "cuDevicePrimaryCtxRetain", ctx, dev.getValue());
        if (rc != 0) {
            return each(busId, hcas, Fact.error("CUDA could not open " + busId + ": " + CudaErrors.describe(rc)));
        }
        try {
            rc = cu(cuda, "cuCtxSetCurrent", ctx.getValue());
            rc = rc != 0 ? rc : cu(cuda, "cuMemAlloc_v2", dptr, SIZE);
            if (rc != 0) {
                return each(busId, hcas, Fact.error("cuMemAlloc of " + SIZE + " bytes failed: " + CudaErrors.describe(rc)));
            }
            try {
                List<Registration.PairResult> out = new ArrayList<>();
                for (Hca h : hcas) {
                    out.add(new Registration.PairResult(busId, h.name(), dmabuf(ibv, h.pd(), cuda, dptr.getValue()),
                            peermem(ibv, h.pd(), dptr.getValue())));
                }
                return out;
            } finally {
                cu(cuda, "cuMemFree_v2", dptr.getValue());
            }
        } finally {
            cu(cuda, "cuDevicePrimaryCtxRelease_v2", dev.getValue()); // cuda.h maps cuDevicePrimaryCtxRelease to _v2
        }
    }

    private static List<Registration.PairResult> each(String busId, List<Hca> hcas, Fact<String> why) {
        return hcas.stream().map(h -> new Registration.PairResult(busId, h.name(), why, why)).toList();
    }

    /** NCCL's probe (src/transport/net_ib/init.cc): fd -1 gives EBADF when DMA-BUF MRs are supported at all. */
    static Fact<String> ncclProbe(NativeLibrary ibv, Pointer pd) {
        Function reg;
        try {
            reg = fn(ibv, "ibv_reg_dmabuf_mr");
        } catch (UnsatisfiedLinkError e) {
            return Fact.of("not supported: this libibverbs has no ibv_reg_dmabuf_mr (rdma-core before 34)");
        }
        Pointer mr = reg.invokePointer(new Object[] {pd, 0L, 0L, 0L, -1, 0});
        int errno = Native.getLastError();
        if (mr != null) {
            fn(ibv, "ibv_dereg_mr").invokeInt(new Object[] {mr});
            return Fact.of("unexpected: a registration with fd -1 succeeded");
        }
        return switch (errno) {
            case EBADF -> Fact.of("supported (EBADF for fd -1, as NCCL expects)");
            case EOPNOTSUPP, EPROTONOSUPPORT -> Fact.of("not supported (errno " + errno + ": kernel or driver without DMA-BUF MRs)");
            default -> Fact.of("unknown (errno " + errno + ")");
        };
    }

    private static Fact<String> dmabuf(NativeLibrary ibv, Pointer pd, NativeLibrary cuda, long dptr) {
        IntByReference fd = new IntByReference(-1);
        int rc;
        try {
            rc = cu(cuda, "cuMemGetHandleForAddressRange", fd, dptr, SIZE, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0L);
        } catch (UnsatisfiedLinkError e) {
            return Fact.of("not possible: the driver has no cuMemGetHandleForAddressRange (CUDA 11.7+)");
        }
        if (rc != 0) {
            return Fact.of("the GPU refused to export a DMA-BUF (cuMemGetHandleForAddressRange CUresult " + rc + ")");
        }
        try {
            Pointer mr = fn(ibv, "ibv_reg_dmabuf_mr").invokePointer(new Object[] {pd, 0L, SIZE, dptr, fd.getValue(), ACCESS});
            int errno = Native.getLastError();
            if (mr != null) {
                fn(ibv, "ibv_dereg_mr").invokeInt(new Object[] {mr});
                return Fact.of("registered");
            }
            return Fact.of("failed: errno " + errno + meaning(errno));
        } catch (UnsatisfiedLinkError e) {
            return Fact.of("not possible: libibverbs has no ibv_reg_dmabuf_mr (rdma-core before 34)");
        } finally {
            JnaLoader.libc("close").invokeInt(new Object[] {fd.getValue()});
        }
    }

    private static Fact<String> peermem(NativeLibrary ibv, Pointer pd, long dptr) {
        Pointer mr = fn(ibv, "ibv_reg_mr").invokePointer(new Object[] {pd, new Pointer(dptr), SIZE, ACCESS});
        int errno = Native.getLastError();
        if (mr != null) {
            fn(ibv, "ibv_dereg_mr").invokeInt(new Object[] {mr});
            return Fact.of("registered");
        }
        return Fact.of("failed: errno " + errno + meaning(errno));
    }

    static String meaning(int errno) {
        return switch (errno) {
            case EFAULT -> " (EFAULT: the NIC cannot pin this GPU memory: no peer-memory client, or a GPU without GPUDirect RDMA)";
            case EOPNOTSUPP, EPROTONOSUPPORT -> " (not supported by kernel, driver or NIC)";
            case 12 -> " (ENOMEM: locked-memory limit, raise ulimit -l)";
            case 22 -> " (EINVAL)";
            default -> "";
        };
    }

    private static int cu(NativeLibrary cuda, String name, Object... args) {
        return cuda.getFunction(name).invokeInt(args);
    }

    private static Function fn(NativeLibrary lib, String name) {
        return lib.getFunction(name);
    }
}
