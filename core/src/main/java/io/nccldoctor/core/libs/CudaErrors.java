package io.nccldoctor.core.libs;

import java.util.Map;
import java.util.Optional;

/**
 * CUDA driver API result codes (CUresult) as people read them: the name and, for the codes a first run on a node
 * meets, what to do. Names from cuda.h 13.0, enum cudaError_enum; 35 is not among them (cudaErrorInsufficientDriver
 * is a runtime API code, which the driver API never returns).
 */
public final class CudaErrors {

    private static final Map<Integer, String> NAMES = Map.ofEntries(
            Map.entry(1, "CUDA_ERROR_INVALID_VALUE"), Map.entry(2, "CUDA_ERROR_OUT_OF_MEMORY"),
            Map.entry(3, "CUDA_ERROR_NOT_INITIALIZED"), Map.entry(4, "CUDA_ERROR_DEINITIALIZED"),
            Map.entry(34, "CUDA_ERROR_STUB_LIBRARY"), Map.entry(36, "CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER"),
            Map.entry(46, "CUDA_ERROR_DEVICE_UNAVAILABLE"), Map.entry(100, "CUDA_ERROR_NO_DEVICE"),
            Map.entry(101, "CUDA_ERROR_INVALID_DEVICE"), Map.entry(201, "CUDA_ERROR_INVALID_CONTEXT"),
            Map.entry(400, "CUDA_ERROR_INVALID_HANDLE"), Map.entry(600, "CUDA_ERROR_NOT_READY"),
            Map.entry(700, "CUDA_ERROR_ILLEGAL_ADDRESS"), Map.entry(719, "CUDA_ERROR_LAUNCH_FAILED"),
            Map.entry(800, "CUDA_ERROR_NOT_PERMITTED"), Map.entry(801, "CUDA_ERROR_NOT_SUPPORTED"),
            Map.entry(802, "CUDA_ERROR_SYSTEM_NOT_READY"), Map.entry(803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"),
            Map.entry(804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"), Map.entry(999, "CUDA_ERROR_UNKNOWN"));

    private static final Map<Integer, String> HINTS = Map.of(
            34, "the libcuda.so.1 loaded is the CUDA toolkit's stub (lib64/stubs, for linking only), not the driver's: "
                    + "take the stubs folder out of LD_LIBRARY_PATH",
            46, "the GPU is busy or unavailable: EXCLUSIVE_PROCESS or PROHIBITED compute mode with another process on it "
                    + "(nvidia-smi -q -d COMPUTE)",
            100, "the driver sees no GPU: check CUDA_VISIBLE_DEVICES, the container's device list and the kernel module",
            802, "the system is not ready: on NVSwitch systems start nvidia-fabricmanager",
            803, "the user-space driver (libcuda.so.1) and the kernel module are different versions: reload the module or "
                    + "reboot after a driver update",
            804, "a CUDA forward-compatibility libcuda.so.1 (cuda-compat) is loaded on a GPU that does not support it: "
                    + "take it off the library path",
            999, "often a driver and kernel module mismatch or a GPU fallen off the bus (look for Xid lines in dmesg)");

    private CudaErrors() {
    }

    /** "CUDA_ERROR_STUB_LIBRARY (34): the libcuda.so.1 loaded is ..." for a code this class knows. */
    public static String describe(int code) {
        return describe(code, Optional.empty());
    }

    /**
     * @param driverName the name the driver gave (cuGetErrorName), used for a code missing from the table
     */
    public static String describe(int code, Optional<String> driverName) {
        String name = Optional.ofNullable(NAMES.get(code)).or(() -> driverName).orElse("CUDA error");
        String hint = HINTS.get(code);
        return name + " (" + code + ")" + (hint == null ? "" : ": " + hint);
    }
}
