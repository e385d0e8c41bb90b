/*
 * Host-memory stand-in for libnvidia-ml.so.1: the NVML calls of `gdr` (nvml.h: nvmlInit_v2, nvmlShutdown,
 * nvmlDeviceGetHandleByPciBusId_v2, nvmlDeviceGetBrand, nvmlDeviceGetP2PStatus). GPUs are the libcuda stand-in's
 * (bus 0x18 + ordinal); every GPU is NVML_BRAND_TESLA (2) and every P2P status NVML_P2P_STATUS_OK (0).
 * Each nvmlInit_v2 must be matched by an nvmlShutdown (NVML counts them): the trace and
 * standin_nvml_live_inits() show one that is not.
 */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdint.h>

#include "standin.h"

#define NVML_SUCCESS 0
#define NVML_ERROR_UNINITIALIZED 1
#define NVML_ERROR_INVALID_ARGUMENT 2
#define NVML_ERROR_NOT_FOUND 6

static atomic_int inits;

int nvmlInit_v2(void) {
    atomic_fetch_add(&inits, 1);
    standin_trace("nvml init");
    return NVML_SUCCESS;
}

int nvmlShutdown(void) {
    if (atomic_load(&inits) == 0) {
        return NVML_ERROR_UNINITIALIZED;
    }
    atomic_fetch_sub(&inits, 1);
    standin_trace("nvml shutdown");
    return NVML_SUCCESS;
}

int nvmlDeviceGetHandleByPciBusId_v2(const char *busId, void **device) {
    if (atomic_load(&inits) == 0) {
        return NVML_ERROR_UNINITIALIZED;
    }
    unsigned domain, bus, dev, fn;
    if (busId == NULL || sscanf(busId, "%x:%x:%x.%x", &domain, &bus, &dev, &fn) != 4) {
        return NVML_ERROR_INVALID_ARGUMENT;
    }
    int ordinal = (int)((domain << 8) | bus) - 0x18;
    const char *n = getenv("STANDIN_CUDA_DEVICES");
    if (ordinal < 0 || ordinal >= (n == NULL ? 8 : atoi(n))) {
        return NVML_ERROR_NOT_FOUND;
    }
    *device = (void *)(intptr_t)(ordinal + 1);
    return NVML_SUCCESS;
}

int nvmlDeviceGetBrand(void *device, int *brand) {
    if (device == NULL) {
        return NVML_ERROR_INVALID_ARGUMENT;
    }
    *brand = 2;
    return NVML_SUCCESS;
}

int nvmlDeviceGetP2PStatus(void *a, void *b, int index, int *status) {
    (void)index;
    if (a == NULL || b == NULL) {
        return NVML_ERROR_INVALID_ARGUMENT;
    }
    *status = 0;
    return NVML_SUCCESS;
}

int standin_nvml_live_inits(void) {
    return atomic_load(&inits);
}

__attribute__((destructor)) static void at_exit(void) {
    standin_trace("nvml exit inits-open=%d", atomic_load(&inits));
}
