/*
 * Host-memory stand-in for libcuda.so.1: the driver API calls nccl-doctor makes, with the names and argument
 * types of cuda.h 13.0 (STANDIN_CUDA_MAJOR=13: only the _v2 names the header maps to, cuEventElapsedTime_v2
 * included) or of an older driver (STANDIN_CUDA_MAJOR=12: plain cuEventElapsedTime). The legacy unversioned
 * entry points that cuda.h renames (cuDevicePrimaryCtxRelease, cuMemAlloc, ...) are not exported, so a
 * lookup by an old name fails here as a test failure instead of reaching a legacy entry point of a real driver.
 *
 * "Device memory" is host memory; every stream runs its work in order on a worker thread of its own, as a GPU
 * runs it asynchronously. The legacy default stream models the freedom the CUDA documentation leaves: a
 * cuMemcpyHtoD_v2 from pageable memory "may return before the DMA to final destination has completed"
 * (CUDA Driver API, API synchronization behavior); here the copy lands only when the legacy stream is next
 * synchronised (cuMemcpyDtoH_v2, cuStreamSynchronize(0), cuCtxSynchronize, work on a blocking stream). Work on a
 * CU_STREAM_NON_BLOCKING stream does not wait for it, as on a GPU.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/mman.h>
#include <time.h>

#include "standin.h"

#ifndef STANDIN_CUDA_MAJOR
#define STANDIN_CUDA_MAJOR 13
#endif

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;

#define CUDA_SUCCESS 0
#define CUDA_ERROR_INVALID_VALUE 1
#define CUDA_ERROR_OUT_OF_MEMORY 2
#define CUDA_ERROR_NOT_INITIALIZED 3
#define CUDA_ERROR_INVALID_DEVICE 101
#define CUDA_ERROR_INVALID_CONTEXT 201
#define CUDA_ERROR_INVALID_HANDLE 400
#define CUDA_ERROR_NOT_READY 600
#define MAX_DEVICES 1024

struct op {
    void (*fn)(void *);
    void *arg;
    struct op *next;
};

struct stream {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct op *head, *tail;
    int stop;
    int nonblocking;
    int dev;
};

struct pending_dma {
    void *dst;
    void *staged;
    size_t bytes;
    struct pending_dma *next;
};

struct context {
    int dev;
    int refs;
    struct pending_dma *pending; /* the legacy default stream: host-to-device copies not landed yet */
};

struct event {
    atomic_int done;
    struct timespec at;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct context contexts[MAX_DEVICES];
static __thread struct context *current;
static atomic_int initialised;
static atomic_int live_retains, live_streams, live_events;
static atomic_long live_allocs;
static atomic_long calls[32];

/* STANDIN_CUDA_FAIL=function:code[:n or n+]: the n-th call (or every call from the n-th) of function fails. */
static int fail_point(const char *function, int slot) {
    int code, from;
    long which;
    if (!standin_fail_spec("STANDIN_CUDA_FAIL", function, &code, &which, &from)) {
        return 0;
    }
    long n = atomic_fetch_add(&calls[slot], 1) + 1;
    if (which < 0 || n == which || (from && n >= which)) {
        standin_trace("cuda fail %s call %ld returns %d", function, n, code);
        return code;
    }
    return 0;
}

#define FAIL(fn, slot)                      \
    do {                                    \
        int rc_ = fail_point(fn, slot);     \
        if (rc_ != 0) {                     \
            return rc_;                     \
        }                                   \
    } while (0)

static int device_count(void) {
    const char *n = getenv("STANDIN_CUDA_DEVICES");
    int count = n == NULL ? 8 : atoi(n);
    return count < 0 ? 0 : count > MAX_DEVICES ? MAX_DEVICES : count;
}

static void land(struct context *c) {
    pthread_mutex_lock(&lock);
    struct pending_dma *p = c->pending;
    c->pending = NULL;
    pthread_mutex_unlock(&lock);
    /* the list is newest first: land oldest first, as the stream would */
    struct pending_dma *rev = NULL;
    while (p != NULL) {
        struct pending_dma *next = p->next;
        p->next = rev;
        rev = p;
        p = next;
    }
    while (rev != NULL) {
        memcpy(rev->dst, rev->staged, rev->bytes);
        struct pending_dma *next = rev->next;
        free(rev->staged);
        free(rev);
        rev = next;
    }
}

CUresult cuInit(unsigned int flags) {
    (void)flags;
    FAIL("cuInit", 0);
    atomic_store(&initialised, 1);
    standin_trace("cuda init");
    return CUDA_SUCCESS;
}

#define NEED_INIT()                                \
    do {                                           \
        if (!atomic_load(&initialised)) {          \
            return CUDA_ERROR_NOT_INITIALIZED;     \
        }                                          \
    } while (0)

CUresult cuDriverGetVersion(int *version) {
    const char *v = getenv("STANDIN_CUDA_VERSION");
    *version = v != NULL ? atoi(v) : STANDIN_CUDA_MAJOR == 13 ? 13000 : 12080;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count) {
    NEED_INIT();
    *count = device_count();
    return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *dev, int ordinal) {
    NEED_INIT();
    if (ordinal < 0 || ordinal >= device_count()) {
        return CUDA_ERROR_INVALID_DEVICE;
    }
    *dev = ordinal;
    return CUDA_SUCCESS;
}

/* Bus 0x18 + ordinal, spilling into the domain past 0xff: 00000000:18:00.0 for device 0. */
CUresult cuDeviceGetPCIBusId(char *busId, int len, CUdevice dev) {
    NEED_INIT();
    if (dev < 0 || dev >= device_count()) {
        return CUDA_ERROR_INVALID_DEVICE;
    }
    snprintf(busId, (size_t)len, "%08X:%02X:00.0", (0x18 + dev) >> 8, (0x18 + dev) & 0xff);
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetByPCIBusId(CUdevice *dev, const char *busId) {
    NEED_INIT();
    unsigned domain, bus, device, function;
    if (sscanf(busId, "%x:%x:%x.%x", &domain, &bus, &device, &function) != 4) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    int ordinal = (int)((domain << 8) | bus) - 0x18;
    if (ordinal < 0 || ordinal >= device_count() || device != 0 || function != 0) {
        return CUDA_ERROR_INVALID_DEVICE;
    }
    *dev = ordinal;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev) {
    NEED_INIT();
    snprintf(name, (size_t)len, "Stand-in GPU %d (host memory)", dev);
    return CUDA_SUCCESS;
}

/* Compute capability 9.0 (75, 76), GPUDirect RDMA (116) and DMA-BUF (124) supported; everything else 0. */
CUresult cuDeviceGetAttribute(int *value, int attribute, CUdevice dev) {
    NEED_INIT();
    if (dev < 0 || dev >= device_count()) {
        return CUDA_ERROR_INVALID_DEVICE;
    }
    *value = attribute == 75 ? 9 : attribute == 116 || attribute == 124 ? 1 : 0;
    return CUDA_SUCCESS;
}

CUresult cuDeviceCanAccessPeer(int *can, CUdevice dev, CUdevice peer) {
    NEED_INIT();
    *can = dev != peer;
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(void **ctx, CUdevice dev) {
    NEED_INIT();
    FAIL("cuDevicePrimaryCtxRetain", 1);
    if (dev < 0 || dev >= device_count()) {
        return CUDA_ERROR_INVALID_DEVICE;
    }
    pthread_mutex_lock(&lock);
    contexts[dev].dev = dev;
    contexts[dev].refs++;
    pthread_mutex_unlock(&lock);
    atomic_fetch_add(&live_retains, 1);
    standin_trace("cuda retain dev=%d", dev);
    *ctx = &contexts[dev];
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev) {
    NEED_INIT();
    if (dev < 0 || dev >= device_count()) {
        return CUDA_ERROR_INVALID_DEVICE;
    }
    pthread_mutex_lock(&lock);
    int refs = contexts[dev].refs;
    if (refs > 0) {
        contexts[dev].refs--;
    }
    pthread_mutex_unlock(&lock);
    if (refs == 0) {
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    atomic_fetch_sub(&live_retains, 1);
    standin_trace("cuda release dev=%d", dev);
    return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(void *ctx) {
    NEED_INIT();
    current = ctx;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetCurrent(void **ctx) {
    *ctx = current;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetDevice(CUdevice *dev) {
    if (current == NULL) {
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    *dev = current->dev;
    return CUDA_SUCCESS;
}

int standin_current_device(void) {
    return current == NULL ? -1 : current->dev;
}

static void *worker(void *arg) {
    struct stream *s = arg;
    pthread_mutex_lock(&s->mu);
    for (;;) {
        while (s->head == NULL && !s->stop) {
            pthread_cond_wait(&s->cv, &s->mu);
        }
        if (s->head == NULL) {
            break;
        }
        struct op *o = s->head;
        pthread_mutex_unlock(&s->mu);
        o->fn(o->arg);
        pthread_mutex_lock(&s->mu);
        s->head = o->next;
        if (s->head == NULL) {
            s->tail = NULL;
        }
        free(o);
        pthread_cond_broadcast(&s->cv);
    }
    pthread_mutex_unlock(&s->mu);
    /* cuStreamDestroy returns at once; the stream's resources go when its work is done, as on a GPU */
    pthread_mutex_destroy(&s->mu);
    pthread_cond_destroy(&s->cv);
    free(s);
    return NULL;
}

CUresult cuStreamCreate(void **out, unsigned int flags) {
    NEED_INIT();
    FAIL("cuStreamCreate", 2);
    if (current == NULL) {
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    struct stream *s = calloc(1, sizeof *s);
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cv, NULL);
    s->nonblocking = (flags & 1) != 0; /* CU_STREAM_NON_BLOCKING */
    s->dev = current->dev;
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 256 << 10);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int rc = pthread_create(&t, &attr, worker, s);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        free(s);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    atomic_fetch_add(&live_streams, 1);
    standin_trace("cuda stream-create dev=%d", s->dev);
    *out = s;
    return CUDA_SUCCESS;
}

CUresult cuStreamDestroy_v2(void *stream) {
    NEED_INIT();
    struct stream *s = stream;
    if (s == NULL) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    atomic_fetch_sub(&live_streams, 1);
    standin_trace("cuda stream-destroy dev=%d", s->dev);
    pthread_mutex_lock(&s->mu);
    s->stop = 1;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    return CUDA_SUCCESS;
}

int standin_stream_enqueue(void *stream, void (*fn)(void *), void *arg) {
    struct stream *s = stream;
    if (s == NULL) { /* the legacy stream: in order with its pending copies, on the calling thread */
        if (current != NULL) {
            land(current);
        }
        fn(arg);
        return CUDA_SUCCESS;
    }
    if (!s->nonblocking) { /* a blocking stream waits for the legacy stream's earlier work */
        land(&contexts[s->dev]);
    }
    struct op *o = calloc(1, sizeof *o);
    o->fn = fn;
    o->arg = arg;
    pthread_mutex_lock(&s->mu);
    if (s->tail == NULL) {
        s->head = s->tail = o;
    } else {
        s->tail->next = o;
        s->tail = o;
    }
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    return CUDA_SUCCESS;
}

CUresult cuStreamQuery(void *stream) {
    NEED_INIT();
    FAIL("cuStreamQuery", 3);
    struct stream *s = stream;
    if (s == NULL) {
        if (current != NULL) {
            land(current);
        }
        return CUDA_SUCCESS;
    }
    pthread_mutex_lock(&s->mu);
    int busy = s->head != NULL;
    pthread_mutex_unlock(&s->mu);
    return busy ? CUDA_ERROR_NOT_READY : CUDA_SUCCESS;
}

CUresult cuStreamSynchronize(void *stream) {
    NEED_INIT();
    struct stream *s = stream;
    if (s == NULL) {
        if (current != NULL) {
            land(current);
        }
        return CUDA_SUCCESS;
    }
    pthread_mutex_lock(&s->mu);
    while (s->head != NULL) {
        pthread_cond_wait(&s->cv, &s->mu);
    }
    pthread_mutex_unlock(&s->mu);
    return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize(void) {
    NEED_INIT();
    if (current != NULL) {
        land(current);
    }
    return CUDA_SUCCESS;
}

/* Fresh device memory is not zero on a GPU either: 0xA5 makes a read of bytes nobody wrote visible. */
CUresult cuMemAlloc_v2(CUdeviceptr *ptr, size_t bytes) {
    NEED_INIT();
    FAIL("cuMemAlloc_v2", 4);
    void *p = NULL;
    if (posix_memalign(&p, 256, bytes == 0 ? 1 : bytes) != 0) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    memset(p, 0xA5, bytes);
    atomic_fetch_add(&live_allocs, 1);
    *ptr = (CUdeviceptr)(uintptr_t)p;
    return CUDA_SUCCESS;
}

CUresult cuMemFree_v2(CUdeviceptr ptr) {
    NEED_INIT();
    if (ptr == 0) {
        return CUDA_SUCCESS;
    }
    atomic_fetch_sub(&live_allocs, 1);
    free((void *)(uintptr_t)ptr);
    return CUDA_SUCCESS;
}

/* From pageable memory: staged now, landed when the legacy stream is next synchronised (see the top). */
CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t bytes) {
    NEED_INIT();
    if (current == NULL) {
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    land(current); /* "a stream sync is performed before the copy is initiated" */
    struct pending_dma *p = calloc(1, sizeof *p);
    p->dst = (void *)(uintptr_t)dst;
    p->staged = malloc(bytes == 0 ? 1 : bytes);
    memcpy(p->staged, src, bytes);
    p->bytes = bytes;
    pthread_mutex_lock(&lock);
    p->next = current->pending;
    current->pending = p;
    pthread_mutex_unlock(&lock);
    return CUDA_SUCCESS;
}

/* To pageable memory the call returns when the copy is complete, after the legacy stream's earlier work. */
CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes) {
    NEED_INIT();
    if (current == NULL) {
        return CUDA_ERROR_INVALID_CONTEXT;
    }
    land(current);
    memcpy(dst, (void *)(uintptr_t)src, bytes);
    return CUDA_SUCCESS;
}

struct copy {
    void *dst;
    void *src;
    size_t bytes;
    int owned;
};

static void run_copy(void *arg) {
    struct copy *c = arg;
    memcpy(c->dst, c->src, c->bytes);
    if (c->owned) {
        free(c->src);
    }
    free(c);
}

/* From pageable memory the bytes are staged before the call returns; the copy itself runs in stream order. */
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t bytes, void *stream) {
    NEED_INIT();
    FAIL("cuMemcpyHtoDAsync_v2", 5);
    struct copy *c = calloc(1, sizeof *c);
    c->dst = (void *)(uintptr_t)dst;
    c->src = malloc(bytes == 0 ? 1 : bytes);
    memcpy(c->src, src, bytes);
    c->bytes = bytes;
    c->owned = 1;
    return standin_stream_enqueue(stream, run_copy, c);
}

CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t bytes, void *stream) {
    NEED_INIT();
    struct copy *c = calloc(1, sizeof *c);
    c->dst = dst;
    c->src = (void *)(uintptr_t)src;
    c->bytes = bytes;
    return standin_stream_enqueue(stream, run_copy, c);
}

CUresult cuMemAllocHost_v2(void **ptr, size_t bytes) {
    NEED_INIT();
    *ptr = malloc(bytes == 0 ? 1 : bytes);
    return *ptr == NULL ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_SUCCESS;
}

CUresult cuMemFreeHost(void *ptr) {
    free(ptr);
    return CUDA_SUCCESS;
}

/* A DMA-BUF file descriptor for the range (a memfd here); the caller closes it. */
CUresult cuMemGetHandleForAddressRange(void *handle, CUdeviceptr ptr, size_t size, int type, unsigned long long flags) {
    NEED_INIT();
    FAIL("cuMemGetHandleForAddressRange", 6);
    (void)flags;
    if (type != 1 || ptr == 0 || size == 0) { /* CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD */
        return CUDA_ERROR_INVALID_VALUE;
    }
    int fd = memfd_create("standin-dmabuf", MFD_CLOEXEC);
    if (fd < 0) {
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *(int *)handle = fd;
    return CUDA_SUCCESS;
}

/*
 * A stream worker's modelled clock (libnccl's cost model, STANDIN_NCCL_COST=1): once a collective on this stream has
 * had a modelled duration, the events recorded here read this clock, so the time between two events is the sum of the
 * durations modelled between them, however late a loaded host wakes the threads. Until then, and without the cost
 * model, events read CLOCK_MONOTONIC, and each such reading is where the modelled clock would start.
 */
static __thread int64_t model_clock;
static __thread int modelled;

void standin_stream_model(int64_t ns) {
    if (!modelled && model_clock == 0) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        model_clock = (int64_t)now.tv_sec * 1000000000LL + now.tv_nsec;
    }
    modelled = 1;
    model_clock += ns;
}

static void record(void *arg) {
    struct event *e = arg;
    if (modelled) {
        e->at.tv_sec = (time_t)(model_clock / 1000000000LL);
        e->at.tv_nsec = (long)(model_clock % 1000000000LL);
    } else {
        clock_gettime(CLOCK_MONOTONIC, &e->at);
        model_clock = (int64_t)e->at.tv_sec * 1000000000LL + e->at.tv_nsec;
    }
    atomic_store(&e->done, 1);
}

CUresult cuEventCreate(void **out, unsigned int flags) {
    NEED_INIT();
    (void)flags;
    struct event *e = calloc(1, sizeof *e);
    atomic_fetch_add(&live_events, 1);
    *out = e;
    return CUDA_SUCCESS;
}

CUresult cuEventRecord(void *event, void *stream) {
    NEED_INIT();
    struct event *e = event;
    atomic_store(&e->done, 0);
    return standin_stream_enqueue(stream, record, e);
}

CUresult cuEventSynchronize(void *event) {
    struct event *e = event;
    while (!atomic_load(&e->done)) {
        usleep(50);
    }
    return CUDA_SUCCESS;
}

static CUresult elapsed(float *ms, void *start, void *end) {
    NEED_INIT();
    struct event *a = start, *b = end;
    if (a == NULL || b == NULL) {
        return CUDA_ERROR_INVALID_HANDLE;
    }
    if (!atomic_load(&a->done) || !atomic_load(&b->done)) {
        return CUDA_ERROR_NOT_READY;
    }
    *ms = (float)((b->at.tv_sec - a->at.tv_sec) * 1e3 + (b->at.tv_nsec - a->at.tv_nsec) / 1e6);
    return CUDA_SUCCESS;
}

#if STANDIN_CUDA_MAJOR >= 13
CUresult cuEventElapsedTime_v2(float *ms, void *start, void *end) {
    return elapsed(ms, start, end);
}
#else
CUresult cuEventElapsedTime(float *ms, void *start, void *end) {
    return elapsed(ms, start, end);
}
#endif

CUresult cuEventDestroy_v2(void *event) {
    NEED_INIT();
    atomic_fetch_sub(&live_events, 1);
    free(event);
    return CUDA_SUCCESS;
}

/* Names and texts of the codes a run can meet (cuda.h 13.0, enum cudaError_enum). */
static const struct {
    int code;
    const char *name;
    const char *text;
} errors[] = {
    {0, "CUDA_SUCCESS", "no error"},
    {1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {34, "CUDA_ERROR_STUB_LIBRARY", "CUDA driver is a stub library"},
    {46, "CUDA_ERROR_DEVICE_UNAVAILABLE", "CUDA-capable device(s) is/are busy or unavailable"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {201, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {400, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {600, "CUDA_ERROR_NOT_READY", "device not ready"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered"},
    {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", "system has unsupported display driver / cuda driver combination"},
    {804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE", "forward compatibility was attempted on non supported HW"},
    {999, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

CUresult cuGetErrorName(CUresult error, const char **name) {
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
        if (errors[i].code == error) {
            *name = errors[i].name;
            return CUDA_SUCCESS;
        }
    }
    *name = NULL;
    return CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGetErrorString(CUresult error, const char **text) {
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
        if (errors[i].code == error) {
            *text = errors[i].text;
            return CUDA_SUCCESS;
        }
    }
    *text = NULL;
    return CUDA_ERROR_INVALID_VALUE;
}

/* For tests in the same process: what is still held. */
int standin_cuda_live_retains(void) {
    return atomic_load(&live_retains);
}

int standin_cuda_live_streams(void) {
    return atomic_load(&live_streams);
}

long standin_cuda_live_allocs(void) {
    return atomic_load(&live_allocs);
}

__attribute__((destructor)) static void at_exit(void) {
    if (atomic_load(&initialised)) {
        standin_trace("cuda exit retained=%d streams=%d allocations=%ld events=%d", atomic_load(&live_retains),
                      atomic_load(&live_streams), atomic_load(&live_allocs), atomic_load(&live_events));
    }
}
