/*
 * Host-memory stand-in for libnvidia-ml.so.1: the NVML calls of `gdr` (nvml.h: nvmlInit_v2, nvmlShutdown,
 * nvmlDeviceGetHandleByPciBusId_v2, nvmlDeviceGetBrand, nvmlDeviceGetP2PStatus) and of the GPU health probe (below,
 * "GPU health"). GPUs are the libcuda stand-in's (bus 0x18 + ordinal); every GPU is NVML_BRAND_TESLA (2) and every
 * P2P status NVML_P2P_STATUS_OK (0). Each nvmlInit_v2 must be matched by an nvmlShutdown (NVML counts them): the
 * trace and standin_nvml_live_inits() show one that is not.
 */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdint.h>

#include "standin.h"

#define NVML_SUCCESS 0
#define NVML_ERROR_UNINITIALIZED 1
#define NVML_ERROR_INVALID_ARGUMENT 2
#define NVML_ERROR_NOT_SUPPORTED 3
#define NVML_ERROR_NOT_FOUND 6
#define NVML_ERROR_INSUFFICIENT_SIZE 7
#define NVML_ERROR_GPU_IS_LOST 15
#define NVML_ERROR_ARGUMENT_VERSION_MISMATCH 25

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

/*
 * ---- GPU health (nvml.h of NVML 13.3.29): a healthy H100 SXM by default ----
 * ECC on with no errors, no retired pages or row remaps, 18 NVLinks active with zero error counters, no clock event
 * reason but GPU idle, SM at its 1980 MHz maximum, persistence on, MIG off, fabric registration COMPLETED with
 * SUCCESS and a HEALTHY summary, no PCIe replay. STANDIN_NVML_FAULTS="gpu:fault[=value],…" breaks one GPU each
 * (README.md lists the faults); it is read at each call.
 */
#define H100_NVLINKS 18

static int device_count(void) {
    const char *n = getenv("STANDIN_CUDA_DEVICES");
    return n == NULL ? 8 : atoi(n);
}

/* The fault's value ("" when it has none) if STANDIN_NVML_FAULTS lists it for this GPU, else NULL. */
static const char *fault(void *device, const char *kind) {
    static __thread char value[64];
    const char *spec = getenv("STANDIN_NVML_FAULTS");
    int gpu = (int)(intptr_t)device - 1;
    size_t len = strlen(kind);
    for (const char *p = spec; p != NULL && *p != '\0'; p = strchr(p, ',') == NULL ? NULL : strchr(p, ',') + 1) {
        char *end;
        long g = strtol(p, &end, 10);
        if (end == p || *end != ':' || g != gpu || strncmp(end + 1, kind, len) != 0) {
            continue;
        }
        const char *after = end + 1 + len;
        if (*after == '=') {
            size_t n = strcspn(after + 1, ",");
            snprintf(value, sizeof value, "%.*s", (int)(n < sizeof value - 1 ? n : sizeof value - 1), after + 1);
            return value;
        }
        if (*after == ',' || *after == '\0') {
            return "";
        }
    }
    return NULL;
}

static int valid(void *device) {
    int gpu = (int)(intptr_t)device - 1;
    return atomic_load(&inits) > 0 && gpu >= 0 && gpu < device_count();
}

int nvmlDeviceGetCount_v2(unsigned int *count) {
    if (atomic_load(&inits) == 0) {
        return NVML_ERROR_UNINITIALIZED;
    }
    *count = (unsigned)device_count();
    return NVML_SUCCESS;
}

int nvmlDeviceGetHandleByIndex_v2(unsigned int index, void **device) {
    if (atomic_load(&inits) == 0) {
        return NVML_ERROR_UNINITIALIZED;
    }
    if ((int)index >= device_count()) {
        return NVML_ERROR_INVALID_ARGUMENT;
    }
    *device = (void *)(intptr_t)(index + 1);
    return fault(*device, "lost") != NULL ? NVML_ERROR_GPU_IS_LOST : NVML_SUCCESS;
}

/* nvmlPciInfo_t: busIdLegacy[16], domain, bus, device, pciDeviceId, pciSubSystemId, busId[32] */
struct pci_info {
    char busIdLegacy[16];
    unsigned domain, bus, device, pciDeviceId, pciSubSystemId;
    char busId[32];
};

int nvmlDeviceGetPciInfo_v3(void *device, struct pci_info *pci) {
    if (!valid(device)) {
        return NVML_ERROR_INVALID_ARGUMENT;
    }
    unsigned bus = 0x18 + (unsigned)((intptr_t)device - 1);
    memset(pci, 0, sizeof *pci);
    pci->bus = bus;
    pci->pciDeviceId = 0x233010de; /* H100 SXM5 80GB, vendor 10de */
    snprintf(pci->busIdLegacy, sizeof pci->busIdLegacy, "%04X:%02X:%02X.0", 0, bus, 0);
    snprintf(pci->busId, sizeof pci->busId, "%08X:%02X:%02X.0", 0, bus, 0); /* NVML_DEVICE_PCI_BUS_ID_FMT */
    return NVML_SUCCESS;
}

int nvmlDeviceGetName(void *device, char *name, unsigned length) {
    if (!valid(device)) {
        return NVML_ERROR_INVALID_ARGUMENT;
    }
    snprintf(name, length, "NVIDIA H100 80GB HBM3");
    return NVML_SUCCESS;
}

int nvmlDeviceGetPersistenceMode(void *device, int *mode) {
    if (!valid(device)) {
        return NVML_ERROR_INVALID_ARGUMENT;
    }
    *mode = fault(device, "persistence-off") == NULL;
    return NVML_SUCCESS;
}

int nvmlDeviceGetMigMode(void *device, unsigned *current, unsigned *pending) {
    if (!valid(device)) {
        return NVML_ERROR_INVALID_ARGUMENT;
    }
    *current = *pending = fault(device, "mig") != NULL;
    return NVML_SUCCESS;
}

int nvmlDeviceGetEccMode(void *device, int *current, int *pending) {
    if (!valid(device)) {
        return NVML_ERROR_INVALID_ARGUMENT;
    }
    *current = *pending = 1;
    return NVML_SUCCESS;
}

/* errorType: CORRECTED 0, UNCORRECTED 1; counterType: VOLATILE 0, AGGREGATE 1. dbe=N: N uncorrected since load. */
int nvmlDeviceGetTotalEccErrors(void *device, int errorType, int counterType, unsigned long long *count) {
    if (!valid(device) || errorType < 0 || errorType > 1 || counterType < 0 || counterType > 1) {
        return NVML_ERROR_INVALID_ARGUMENT;
    }
    const char *dbe = fault(device, "dbe");
    *count = errorType == 1 && dbe != NULL ? strtoull(dbe, NULL, 0) : 0;
    return NVML_SUCCESS;
}

int nvmlDeviceGetRetiredPages(void *device, int cause, unsigned *count, unsigned long long *addresses) {
    if (!valid(device) || count == NULL || cause < 0 || cause > 1) {
        return NVML_ERROR_INVALID_ARGUMENT;
    }
    unsigned have = cause == 1 && fault(device, "retired-pending") != NULL ? 1 : 0;
    unsigned room = *count;
    *count = have;
    if (have > room) {
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    if (have > 0) {
        addresses[0] = 0x7f3a2000ull;
    }
    return NVML_SUCCESS;
}

int nvmlDeviceGetRetiredPagesPendingStatus(void *device, int *pending) {
    if (!valid(device)) {
        return NVML_ERROR_INVALID_ARGUMENT;
    }
    *pending = fault(device, "retired-pending") != NULL;
    return NVML_SUCCESS;
}

int nvmlDeviceGetRemappedRows(void *device, unsigned *corr, unsigned *unc, unsigned *pending, unsigned *failed) {
    if (!valid(device)) {
        return NVML_ERROR_INVALID_ARGUMENT;
    }
    int p = fault(device, "remap-pending") != NULL, f = fault(device, "remap-failed") != NULL;
    *corr = 0;
    *unc = p || f ? 1 : 0;
    *pending = (unsigned)p;
    *failed = (unsigned)f;
    return NVML_SUCCESS;
}

/* nvlink-down=N: link N inactive; no-nvlink: a GPU without NVLink (NOT_SUPPORTED, as a PCIe card answers) */
int nvmlDeviceGetNvLinkState(void *device, unsigned link, int *active) {
    if (!valid(device) || link >= H100_NVLINKS) {
        return NVML_ERROR_INVALID_ARGUMENT;
    }
    if (fault(device, "no-nvlink") != NULL) {
        return NVML_ERROR_NOT_SUPPORTED;
    }
    const char *down = fault(device, "nvlink-down");
    *active = !(down != NULL && (unsigned)atoi(down) == link);
    return NVML_SUCCESS;
}

/* counter: DL_REPLAY 0, DL_RECOVERY 1, DL_CRC_FLIT 2, DL_CRC_DATA 3, DL_ECC_DATA 4. nvlink-errors=N: link 0 counts N of each */
int nvmlDeviceGetNvLinkErrorCounter(void *device, unsigned link, int counter, unsigned long long *value) {
    if (!valid(device) || link >= H100_NVLINKS || counter < 0 || counter > 4) {
        return NVML_ERROR_INVALID_ARGUMENT;
    }
    const char *errors = fault(device, "nvlink-errors");
    *value = link == 0 && errors != NULL ? strtoull(errors, NULL, 0) : 0;
    return NVML_SUCCESS;
}

/* throttle=MASK: the nvmlClocksEventReason bits (0x40 HwThermalSlowdown, 0x8 HwSlowdown, …); default GpuIdle (0x1) */
int nvmlDeviceGetCurrentClocksEventReasons(void *device, unsigned long long *reasons) {
    if (!valid(device)) {
        return NVML_ERROR_INVALID_ARGUMENT;
    }
    const char *mask = fault(device, "throttle");
    *reasons = mask != NULL ? strtoull(mask, NULL, 0) : 0x1ull;
    return NVML_SUCCESS;
}

/* type: GRAPHICS 0, SM 1, MEM 2; a throttled GPU runs its SM clock at half */
static int clock_of(void *device, int type, unsigned *clock, int max) {
    if (!valid(device) || type < 0 || type > 2) {
        return NVML_ERROR_INVALID_ARGUMENT;
    }
    *clock = type == 2 ? 2619 : (!max && fault(device, "throttle") != NULL ? 990 : 1980);
    return NVML_SUCCESS;
}

int nvmlDeviceGetClockInfo(void *device, int type, unsigned *clock) {
    return clock_of(device, type, clock, 0);
}

int nvmlDeviceGetMaxClockInfo(void *device, int type, unsigned *clock) {
    return clock_of(device, type, clock, 1);
}

/* nvmlGpuFabricInfo_v3_t; v2 is the same without healthSummary. fabric=not-started|in-progress|unhealthy */
struct fabric_info {
    unsigned version;
    unsigned char clusterUuid[16];
    int status;
    unsigned cliqueId;
    unsigned char state;
    unsigned healthMask;
    unsigned char healthSummary;
};

int nvmlDeviceGetGpuFabricInfoV(void *device, struct fabric_info *info) {
    if (!valid(device) || info == NULL) {
        return NVML_ERROR_INVALID_ARGUMENT;
    }
    unsigned v3 = (unsigned)sizeof(struct fabric_info) | 3u << 24, v2 = 36u | 2u << 24;
    if (info->version != v3 && info->version != v2) {
        return NVML_ERROR_ARGUMENT_VERSION_MISMATCH;
    }
    const char *f = fault(device, "fabric");
    info->status = 0;
    info->cliqueId = 1;
    info->state = f != NULL && strcmp(f, "not-started") == 0 ? 1 : f != NULL && strcmp(f, "in-progress") == 0 ? 2 : 3;
    info->healthMask = 0;
    if (info->version == v3) {
        info->healthSummary = f != NULL && strcmp(f, "unhealthy") == 0 ? 2 : 1;
    }
    return NVML_SUCCESS;
}

/* pcie-replays=N */
int nvmlDeviceGetPcieReplayCounter(void *device, unsigned *value) {
    if (!valid(device)) {
        return NVML_ERROR_INVALID_ARGUMENT;
    }
    const char *n = fault(device, "pcie-replays");
    *value = n != NULL ? (unsigned)strtoul(n, NULL, 0) : 0;
    return NVML_SUCCESS;
}

int standin_nvml_live_inits(void) {
    return atomic_load(&inits);
}

__attribute__((destructor)) static void at_exit(void) {
    standin_trace("nvml exit inits-open=%d", atomic_load(&inits));
}
