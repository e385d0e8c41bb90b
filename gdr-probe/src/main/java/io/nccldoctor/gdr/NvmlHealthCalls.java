package io.nccldoctor.gdr;

import com.sun.jna.Memory;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.libs.JnaLoader;
import java.util.ArrayList;
import java.util.List;

/**
 * The native edge of GPU health: NVML (libnvidia-ml.so.1) through JNA, each function looked up by its exact name, so
 * an NVML too old for one query answers "this NVML lacks it" for that query alone. Signatures, enum values and struct
 * layouts: nvml.h of NVML 13.3.29 (NVIDIA/go-nvml gen/nvml/nvml.h at 2f9e261; the struct offsets below were checked
 * with offsetof against that header). NVML only, no CUDA context: preflight stays fast and a GPU CUDA cannot open
 * still answers here.
 */
final class NvmlHealthCalls {

    /** nvmlPciInfo_t: 16-byte busIdLegacy, five unsigned ints, then busId[32] at offset 36; 68 bytes in all. */
    private static final int PCI_INFO_BYTES = 68;
    private static final int PCI_BUS_ID_OFFSET = 36;
    /** NVML_NVLINK_MAX_LINKS: 36 in NVML 13 (18 in NVML 12); links past a GPU's own count answer an error. */
    static final int MAX_LINKS = 36;
    private static final int CLOCK_SM = 1;
    private static final int CLOCK_MEM = 2;
    /** Room for the retired page addresses (DCGM fails a GPU at 63 retired pages: DcgmGPUHardwareLimits.h). */
    private static final int PAGES_ASKED = 512;

    /** What NVML answered for the node: its GPUs in index order. */
    public record Answer(List<GpuHealth.Gpu> gpus) {
    }

    private final NativeLibrary nvml;

    private NvmlHealthCalls(NativeLibrary nvml) {
        this.nvml = nvml;
    }

    /** Loads NVML from its path, asks every GPU, shuts NVML down again (each nvmlInit_v2 needs its nvmlShutdown). */
    static Fact<Answer> survey(String libnvml) {
        NativeLibrary lib;
        try {
            lib = JnaLoader.open(libnvml);
        } catch (LinkageError e) {
            return Fact.error("cannot load " + libnvml + ": " + JnaLoader.reason(e));
        }
        try {
            int rc = lib.getFunction("nvmlInit_v2").invokeInt(new Object[0]);
            if (rc != 0) {
                return Fact.error("nvmlInit_v2 returned " + NvmlReturn.name(rc));
            }
        } catch (UnsatisfiedLinkError e) {
            return Fact.error(libnvml + " has no nvmlInit_v2: " + JnaLoader.reason(e));
        }
        try {
            return new NvmlHealthCalls(lib).gpus();
        } finally {
            shutdown(lib);
        }
    }

    private static void shutdown(NativeLibrary lib) {
        try {
            lib.getFunction("nvmlShutdown").invokeInt(new Object[0]);
        } catch (UnsatisfiedLinkError e) {
            // an NVML without nvmlShutdown has nothing to release
        }
    }

    private Fact<Answer> gpus() {
        IntByReference count = new IntByReference();
        int rc = call("nvmlDeviceGetCount_v2", count);
        if (rc != 0) {
            return rc == Integer.MIN_VALUE ? Fact.error("this NVML lacks nvmlDeviceGetCount_v2")
                    : Fact.error("nvmlDeviceGetCount_v2 returned " + NvmlReturn.name(rc));
        }
        List<GpuHealth.Gpu> out = new ArrayList<>();
        for (int i = 0; i < count.getValue(); i++) {
            PointerByReference h = new PointerByReference();
            rc = call("nvmlDeviceGetHandleByIndex_v2", i, h);
            out.add(rc == 0 ? gpu(i, h.getValue()) : unreachable(i, "nvmlDeviceGetHandleByIndex_v2 returned " + NvmlReturn.name(rc)));
        }
        return Fact.of(new Answer(out));
    }

    /** A GPU NVML counts but cannot open (fallen off the bus, no permission): every fact says so. */
    private static GpuHealth.Gpu unreachable(int index, String why) {
        return new GpuHealth.Gpu(index, Fact.error(why), Fact.error(why), Fact.error(why), Fact.error(why), Fact.error(why),
                Fact.error(why), Fact.error(why), Fact.error(why), Fact.error(why), Fact.error(why), Fact.error(why), Fact.error(why));
    }

    private GpuHealth.Gpu gpu(int index, Pointer h) {
        return new GpuHealth.Gpu(index, busId(h), name(h), enabled(h, "nvmlDeviceGetPersistenceMode"), mig(h), ecc(h),
                retiredPages(h), rowRemap(h), new NvmlLinks(this::call).links(h), clocksEventReasons(h), clocks(h),
                NvmlFabric.of(this::call, h), replays(h));
    }

    private Fact<String> busId(Pointer h) {
        Memory pci = new Memory(PCI_INFO_BYTES);
        pci.clear();
        int rc = call("nvmlDeviceGetPciInfo_v3", h, pci);
        return rc == 0 ? Fact.of(GpuCalls.normalise(pci.getString(PCI_BUS_ID_OFFSET))) : failed("nvmlDeviceGetPciInfo_v3", rc);
    }

    private Fact<String> name(Pointer h) {
        Memory name = new Memory(96); // NVML_DEVICE_NAME_V2_BUFFER_SIZE
        name.clear();
        int rc = call("nvmlDeviceGetName", h, name, 96);
        return rc == 0 ? Fact.of(name.getString(0)) : failed("nvmlDeviceGetName", rc);
    }

    /** An nvmlEnableState_t out-parameter: NVML_FEATURE_ENABLED is 1. */
    private Fact<Boolean> enabled(Pointer h, String function) {
        IntByReference v = new IntByReference();
        int rc = call(function, h, v);
        return rc == 0 ? Fact.of(v.getValue() == 1) : failed(function, rc);
    }

    private Fact<GpuHealth.Mig> mig(Pointer h) {
        IntByReference current = new IntByReference();
        IntByReference pending = new IntByReference();
        int rc = call("nvmlDeviceGetMigMode", h, current, pending);
        // NVML_DEVICE_MIG_ENABLE is 1
        return rc == 0 ? Fact.of(new GpuHealth.Mig(current.getValue() == 1, pending.getValue() == 1)) : failed("nvmlDeviceGetMigMode", rc);
    }

    private Fact<GpuHealth.Ecc> ecc(Pointer h) {
        IntByReference current = new IntByReference();
        IntByReference pending = new IntByReference();
        int rc = call("nvmlDeviceGetEccMode", h, current, pending);
        if (rc != 0) {
            return failed("nvmlDeviceGetEccMode", rc);
        }
        boolean on = current.getValue() == 1;
        // nvmlDeviceGetTotalEccErrors(device, nvmlMemoryErrorType_t (CORRECTED 0, UNCORRECTED 1), nvmlEccCounterType_t
        // (VOLATILE 0, AGGREGATE 1), unsigned long long *); it needs ECC on
        return Fact.of(new GpuHealth.Ecc(on, pending.getValue() == 1, eccCount(h, on, 0, 0), eccCount(h, on, 1, 0), eccCount(h, on, 0, 1),
                eccCount(h, on, 1, 1)));
    }

    private Fact<Long> eccCount(Pointer h, boolean on, int errorType, int counterType) {
        if (!on) {
            return Fact.absent("ECC is disabled on this GPU: NVML keeps no counts");
        }
        LongByReference v = new LongByReference();
        int rc = call("nvmlDeviceGetTotalEccErrors", h, errorType, counterType, v);
        return rc == 0 ? Fact.of(v.getValue()) : failed("nvmlDeviceGetTotalEccErrors", rc);
    }

    private Fact<GpuHealth.RetiredPages> retiredPages(Pointer h) {
        Fact<Integer> sbe = pages(h, 0);
        Fact<Integer> dbe = pages(h, 1);
        Fact<Boolean> pending = enabled(h, "nvmlDeviceGetRetiredPagesPendingStatus");
        if (sbe.isAbsent() && dbe.isAbsent() && pending.isAbsent()) {
            return Fact.absent(pending.reason());
        }
        return Fact.of(new GpuHealth.RetiredPages(sbe, dbe, pending));
    }

    /**
     * nvmlDeviceGetRetiredPages for one nvmlPageRetirementCause_t (MULTIPLE_SINGLE_BIT_ECC_ERRORS 0,
     * DOUBLE_BIT_ECC_ERROR 1); INSUFFICIENT_SIZE still sets the count to the pages that match. */
    private Fact<Integer> pages(Pointer h, int cause) {
        IntByReference count = new IntByReference(PAGES_ASKED);
        Memory addresses = new Memory(8L * PAGES_ASKED);
        int rc = call("nvmlDeviceGetRetiredPages", h, cause, count, addresses);
        return rc == 0 || rc == NvmlReturn.ERROR_INSUFFICIENT_SIZE ? Fact.of(count.getValue()) : failed("nvmlDeviceGetRetiredPages", rc);
    }

    private Fact<GpuHealth.RowRemap> rowRemap(Pointer h) {
        IntByReference corr = new IntByReference();
        IntByReference unc = new IntByReference();
        IntByReference pending = new IntByReference();
        IntByReference failed = new IntByReference();
        int rc = call("nvmlDeviceGetRemappedRows", h, corr, unc, pending, failed);
        return rc == 0 ? Fact.of(new GpuHealth.RowRemap(corr.getValue(), unc.getValue(), pending.getValue() != 0, failed.getValue() != 0))
                : failed("nvmlDeviceGetRemappedRows", rc);
    }

    /** nvmlDeviceGetCurrentClocksEventReasons, or the older nvmlDeviceGetCurrentClocksThrottleReasons (same bits). */
    private Fact<Long> clocksEventReasons(Pointer h) {
        LongByReference v = new LongByReference();
        String f = "nvmlDeviceGetCurrentClocksEventReasons";
        int rc = call(f, h, v);
        if (rc == Integer.MIN_VALUE) {
            f = "nvmlDeviceGetCurrentClocksThrottleReasons";
            rc = call(f, h, v);
        }
        return rc == 0 ? Fact.of(v.getValue()) : failed(f, rc);
    }

    private Fact<GpuHealth.Clocks> clocks(Pointer h) {
        Fact<Integer> sm = uint("nvmlDeviceGetClockInfo", h, CLOCK_SM);
        Fact<Integer> smMax = uint("nvmlDeviceGetMaxClockInfo", h, CLOCK_SM);
        if (sm.isAbsent() && smMax.isAbsent()) {
            return Fact.absent(sm.reason());
        }
        return Fact.of(new GpuHealth.Clocks(sm, smMax, uint("nvmlDeviceGetClockInfo", h, CLOCK_MEM), uint("nvmlDeviceGetMaxClockInfo", h, CLOCK_MEM)));
    }

    private Fact<Integer> uint(String function, Pointer h, int arg) {
        IntByReference v = new IntByReference();
        int rc = call(function, h, arg, v);
        return rc == 0 ? Fact.of(v.getValue()) : failed(function, rc);
    }

    /** nvmlDeviceGetPcieReplayCounter(device, unsigned int *value). */
    private Fact<Long> replays(Pointer h) {
        IntByReference v = new IntByReference();
        int rc = call("nvmlDeviceGetPcieReplayCounter", h, v);
        return rc == 0 ? Fact.of(Integer.toUnsignedLong(v.getValue())) : failed("nvmlDeviceGetPcieReplayCounter", rc);
    }

    /** Calls a function by name; {@link Integer#MIN_VALUE} when this NVML does not export it. */
    int call(String function, Object... args) {
        try {
            return nvml.getFunction(function).invokeInt(args);
        } catch (UnsatisfiedLinkError e) {
            return Integer.MIN_VALUE;
        }
    }

    /** The fact for a call that did not succeed, a missing symbol included. */
    static <T> Fact<T> failed(String function, int rc) {
        return rc == Integer.MIN_VALUE ? Fact.absent("this NVML lacks " + function + " (a driver older than the query)")
                : NvmlReturn.failed(function, rc);
    }

    /** How NvmlLinks and NvmlFabric call NVML: a function by name and its arguments. */
    interface Caller {
        int call(String function, Object... args);
    }
}
