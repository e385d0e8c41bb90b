package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;

/** nvmlReturn_t (nvml.h of NVML 13.3.29): a return code's name, and what a failed query means as a fact. */
final class NvmlReturn {

    static final int SUCCESS = 0;
    static final int ERROR_INVALID_ARGUMENT = 2;
    static final int ERROR_NOT_SUPPORTED = 3;
    static final int ERROR_INSUFFICIENT_SIZE = 7;
    static final int ERROR_ARGUMENT_VERSION_MISMATCH = 25;

    private static final String[] NAMES = {"SUCCESS", "ERROR_UNINITIALIZED", "ERROR_INVALID_ARGUMENT", "ERROR_NOT_SUPPORTED",
        "ERROR_NO_PERMISSION", "ERROR_ALREADY_INITIALIZED", "ERROR_NOT_FOUND", "ERROR_INSUFFICIENT_SIZE",
        "ERROR_INSUFFICIENT_POWER", "ERROR_DRIVER_NOT_LOADED", "ERROR_TIMEOUT", "ERROR_IRQ_ISSUE", "ERROR_LIBRARY_NOT_FOUND",
        "ERROR_FUNCTION_NOT_FOUND", "ERROR_CORRUPTED_INFOROM", "ERROR_GPU_IS_LOST", "ERROR_RESET_REQUIRED",
        "ERROR_OPERATING_SYSTEM", "ERROR_LIB_RM_VERSION_MISMATCH", "ERROR_IN_USE", "ERROR_MEMORY", "ERROR_NO_DATA",
        "ERROR_VGPU_ECC_NOT_SUPPORTED", "ERROR_INSUFFICIENT_RESOURCES", "ERROR_FREQ_NOT_SUPPORTED",
        "ERROR_ARGUMENT_VERSION_MISMATCH", "ERROR_DEPRECATED", "ERROR_NOT_READY", "ERROR_GPU_NOT_FOUND", "ERROR_INVALID_STATE",
        "ERROR_RESET_TYPE_NOT_SUPPORTED"};

    private NvmlReturn() {
    }

    /** "NVML_ERROR_GPU_IS_LOST (15)"; 999 is NVML_ERROR_UNKNOWN. */
    static String name(int rc) {
        return "NVML_" + shortName(rc) + " (" + rc + ")";
    }

    /** "SUCCESS", "ERROR_NOT_READY"; a code this table does not know as "code N". */
    static String shortName(int rc) {
        return rc >= 0 && rc < NAMES.length ? NAMES[rc] : rc == 999 ? "ERROR_UNKNOWN" : "code " + rc;
    }

    /**
     * The fact for a query that did not succeed: NOT_SUPPORTED is a property of the GPU, not an error ("not supported
     * on this GPU"); anything else is an error with the call and its code.
     */
    static <T> Fact<T> failed(String function, int rc) {
        if (rc == ERROR_NOT_SUPPORTED) {
            return Fact.absent("not supported on this GPU (" + function + ": " + name(rc) + ")");
        }
        return Fact.error(function + " returned " + name(rc));
    }
}
