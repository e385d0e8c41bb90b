/*
 * Host-memory stand-in for libnccl.so.2: the symbols, argument types and result codes of nccl.h (src/nccl.h.in of
 * NVIDIA/nccl v2.13.4 to v2.30.7) that nccl-doctor calls, moving real bytes between ranks.
 *
 * Ranks of one communicator meet in POSIX shared memory named after the unique id, so the ranks may be threads of
 * one process (ncclCommInitAll, -g N) or separate processes joined through ncclGetUniqueId's bytes (NCCL_COMM_ID
 * gives every process the same id, as in NCCL). Each collective runs on the caller's CUDA stream (the libcuda
 * stand-in's worker thread) and reads the send buffer when it runs, not when it is called, as a GPU kernel does.
 *
 * Semantics kept from NCCL: blocking and non-blocking communicators (ncclCommInitRankConfig, ncclConfig_t read by
 * its size, magic and version as src/init.cc parseCommConfig does; ncclInProgress until ncclCommGetAsyncError says
 * otherwise; ncclGroupEnd returns ncclInProgress for non-blocking communicators and launches in the background);
 * group semantics (operations and blocking initialisation wait for the outermost ncclGroupEnd; ncclCommAbort
 * raises the abort flag at once but reclaims the communicator only at the outermost ncclGroupEnd, as
 * ncclCommAbort's ncclGroupStartInternal/ncclGroupEndInternal pair does); p2p operations (ncclSend/ncclRecv,
 * ncclAlltoAll) matched in order per peer, with transfers from lower to higher ranks landing first: a legal
 * order under which an in-place alltoall or sendrecv reads data a peer already overwrote, the race for which
 * nccl-tests switches error reporting off in place (alltoall.cu, sendrecv.cu: reportErrors = in_place ? 0 : 1).
 *
 * Compile-time variants: STANDIN_VERSION (NCCL_VERSION_CODE reported), HAVE_CONFIG (ncclCommInitRankConfig, 2.14+),
 * HAVE_ALLTOALL (ncclAlltoAll, 2.28+). Switches: README.md.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>

#include "cost.h"
#include "standin.h"

#ifndef STANDIN_VERSION
#define STANDIN_VERSION 22803
#endif

typedef enum {
    ncclSuccess = 0,
    ncclUnhandledCudaError = 1,
    ncclSystemError = 2,
    ncclInternalError = 3,
    ncclInvalidArgument = 4,
    ncclInvalidUsage = 5,
    ncclRemoteError = 6,
    ncclInProgress = 7
} ncclResult_t;

typedef struct {
    char internal[128];
} ncclUniqueId;

enum { T_I8, T_U8, T_I32, T_U32, T_I64, T_U64, T_F16, T_F32, T_F64, T_BF16, T_F8E4M3, T_F8E5M2, T_COUNT };
enum { OP_SUM, OP_PROD, OP_MAX, OP_MIN, OP_AVG, OP_COUNT };
enum { K_ALLREDUCE, K_ALLGATHER, K_REDUCESCATTER, K_BROADCAST, K_REDUCE, K_P2P };

#define CTL_MAGIC 0x53494e31u
#define MAX_P2P 1024
#define NCCL_API_MAGIC 0xcafebeefu /* nccl.h.in: NCCL_API_MAGIC, and the literal before 2.19 */

struct entry {
    int32_t peer;
    int32_t pad;
    uint64_t bytes;
};

/* The communicator's shared control block; per-rank arrays follow it (see ctl_bytes). */
struct shared {
    uint32_t magic;
    uint32_t nranks;
    int32_t owner;
    uint32_t pad0;
    uint64_t window;
    _Atomic uint32_t arrived;
    _Atomic uint32_t attached;
    _Atomic uint32_t bar_count;
    _Atomic uint32_t bar_gen;
    _Atomic int32_t aborted_by;
    uint32_t pad1;
};

struct ncclComm {
    int rank, nranks, dev, blocking;
    uint64_t token;
    char name[64];
    size_t ctl_size;
    struct shared *sh;
    uint64_t *totals;    /* [2][nranks]: bytes each rank sends in each p2p phase */
    uint32_t *counts;    /* [nranks]: p2p sends listed by each rank */
    int32_t *pids;       /* [nranks]: the process of each rank, part of its data segment's name */
    struct entry *table; /* [nranks][MAX_P2P] */
    size_t window;
    uint8_t *mine;
    uint8_t **peers;
    _Atomic int state;
    _Atomic int aborted;
    _Atomic int queued;
    pthread_t init_thread;
    int init_started;
    int ops;
    int hang_init, hang_at;
    int async_code, async_at;
};
typedef struct ncclComm *ncclComm_t;

struct p2p {
    int send;
    int peer;
    uint8_t *buf;
    size_t bytes;
};

struct task {
    struct ncclComm *c;
    int kind;
    const void *send;
    void *recv;
    size_t count;
    int type, op, root;
    void *stream;
    int np, cap;
    struct p2p *ps;
    struct standin_cost cost; /* cost.c: the algorithm, protocol and modelled time of a collective */
};

static atomic_int live_comms, open_groups;
static __thread int depth;
static __thread struct task **tasks;
static __thread int ntasks, captasks;
static __thread struct ncclComm **inits;
static __thread int ninits, capinits;
static __thread struct ncclComm **reclaims;
static __thread int *reclaim_abort;
static __thread int nreclaims, capreclaims;

static int version(void) {
    const char *v = getenv("STANDIN_NCCL_VERSION");
    return v != NULL ? atoi(v) : STANDIN_VERSION;
}

static int fail_point(const char *function, int rank) {
    int code, from;
    long which;
    if (!standin_fail_spec("STANDIN_NCCL_FAIL", function, &code, &which, &from)) {
        return 0;
    }
    if (which >= 0 && which != rank) {
        return 0;
    }
    standin_trace("nccl fail %s rank=%d returns %d", function, rank, code);
    return code;
}

#define FAIL(fn, rank)                          \
    do {                                        \
        int rc_ = fail_point(fn, rank);         \
        if (rc_ != 0) {                         \
            return (ncclResult_t)rc_;           \
        }                                       \
    } while (0)

/* NCCL_DEBUG set: the version banner to NCCL_DEBUG_FILE (%h host, %p pid) or stdout, as NCCL writes it. */
static void debug_banner(struct ncclComm *c) {
    if (getenv("NCCL_DEBUG") == NULL) {
        return;
    }
    char host[64] = "host";
    gethostname(host, sizeof host - 1);
    char *dot = strchr(host, '.');
    if (dot != NULL) {
        *dot = '\0';
    }
    int v = version();
    char line[256];
    snprintf(line, sizeof line, "%s:%d:%d [%d] NCCL INFO NCCL version %d.%d.%d+cuda13.0 (host-memory stand-in)\n", host,
             (int)getpid(), (int)syscall(SYS_gettid), c->dev, v / 10000, v % 10000 / 100, v % 100);
    const char *file = getenv("NCCL_DEBUG_FILE");
    if (file == NULL) {
        fputs(line, stdout);
        fflush(stdout);
        return;
    }
    char path[1024];
    size_t n = 0;
    for (const char *p = file; *p != '\0' && n < sizeof path - 32; p++) {
        if (p[0] == '%' && p[1] == 'h') {
            n += (size_t)snprintf(path + n, sizeof path - n, "%s", host);
            p++;
        } else if (p[0] == '%' && p[1] == 'p') {
            n += (size_t)snprintf(path + n, sizeof path - n, "%d", (int)getpid());
            p++;
        } else {
            path[n++] = *p;
        }
    }
    path[n] = '\0';
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0) {
        ssize_t ignored = write(fd, line, strlen(line));
        (void)ignored;
        close(fd);
    }
}

/*
 * NCCL_DEBUG set: the ring's channel line for this rank, with the transport NCCL would pick on one node: P2P/IPC, or
 * SHM/direct/direct with NCCL_P2P_DISABLE=1, or the network with NCCL_SHM_DISABLE=1 too (NET/IB, GDRDMA unless
 * STANDIN_IBV_DMABUF=0; NET/Socket with NCCL_NET=Socket), which logs a [send] and a [receive] line as NCCL does.
 */
static void debug_channels(struct ncclComm *c) {
    const char *file = getenv("NCCL_DEBUG_FILE");
    if (getenv("NCCL_DEBUG") == NULL || c->nranks < 2) {
        return;
    }
    const char *p2p = getenv("NCCL_P2P_DISABLE"), *shm = getenv("NCCL_SHM_DISABLE"), *net = getenv("NCCL_NET");
    const char *dmabuf = getenv("STANDIN_IBV_DMABUF"), *hcas = getenv("STANDIN_IBV_DEVICES");
    int nets = hcas == NULL || atoi(hcas) < 1 ? 2 : atoi(hcas), next = (c->rank + 1) % c->nranks;
    int prev = (c->rank + c->nranks - 1) % c->nranks;
    char host[64] = "host", lines[512], via[64];
    gethostname(host, sizeof host - 1);
    host[strcspn(host, ".")] = '\0';
    if (p2p == NULL || strcmp(p2p, "1") != 0 || shm == NULL || strcmp(shm, "1") != 0) {
        snprintf(lines, sizeof lines, "%s:%d:%d [%d] NCCL INFO Channel 00/0 : %d[%d] -> %d[%d] via %s\n", host, (int)getpid(),
                 (int)syscall(SYS_gettid), c->dev, c->rank, c->dev, next, next,
                 p2p == NULL || strcmp(p2p, "1") != 0 ? "P2P/IPC" : "SHM/direct/direct");
    } else {
        if (net != NULL && strcmp(net, "Socket") == 0) {
            snprintf(via, sizeof via, "NET/Socket/0");
        } else {
            snprintf(via, sizeof via, "NET/IB/%d%s", c->dev % nets, dmabuf != NULL && strcmp(dmabuf, "0") == 0 ? "" : "/GDRDMA");
        }
        snprintf(lines, sizeof lines, "%s:%d:%d [%d] NCCL INFO Channel 00/0 : %d[%d] -> %d[%d] [receive] via %s\n"
                 "%s:%d:%d [%d] NCCL INFO Channel 00/0 : %d[%d] -> %d[%d] [send] via %s\n", host, (int)getpid(),
                 (int)syscall(SYS_gettid), c->dev, prev, prev, c->rank, c->dev, via, host, (int)getpid(),
                 (int)syscall(SYS_gettid), c->dev, c->rank, c->dev, next, next, via);
    }
    char path[1024];
    size_t n = 0;
    for (const char *q = file; q != NULL && *q != '\0' && n < sizeof path - 32; q++) {
        if (q[0] == '%' && (q[1] == 'h' || q[1] == 'p')) {
            n += q[1] == 'h' ? (size_t)snprintf(path + n, sizeof path - n, "%s", host)
                             : (size_t)snprintf(path + n, sizeof path - n, "%d", (int)getpid());
            q++;
        } else {
            path[n++] = *q;
        }
    }
    path[n] = '\0';
    int fd = file == NULL ? 1 : open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0) {
        ssize_t ignored = write(fd, lines, strlen(lines));
        (void)ignored;
        if (fd != 1) {
            close(fd);
        }
    }
}

/* ---- waiting: futexes in the shared block, woken on change, re-checked every 10 ms for an abort ---- */

static void futex_wait(_Atomic uint32_t *addr, uint32_t seen) {
    struct timespec ts = {0, 10 * 1000 * 1000};
    syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAIT, seen, &ts, NULL, 0);
}

static void futex_wake(_Atomic uint32_t *addr) {
    syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

static int aborted(struct ncclComm *c) {
    return atomic_load(&c->aborted) || (c->sh != NULL && atomic_load(&c->sh->aborted_by) != 0);
}

static int wait_at_least(struct ncclComm *c, _Atomic uint32_t *addr, uint32_t need) {
    uint32_t seen;
    while ((seen = atomic_load(addr)) < need) {
        if (aborted(c)) {
            return -1;
        }
        futex_wait(addr, seen);
    }
    return 0;
}

static int barrier(struct ncclComm *c) {
    struct shared *s = c->sh;
    uint32_t gen = atomic_load(&s->bar_gen);
    if (atomic_fetch_add(&s->bar_count, 1) == s->nranks - 1) {
        atomic_store(&s->bar_count, 0);
        atomic_fetch_add(&s->bar_gen, 1);
        futex_wake(&s->bar_gen);
        return 0;
    }
    while (atomic_load(&s->bar_gen) == gen) {
        if (aborted(c)) {
            return -1;
        }
        futex_wait(&s->bar_gen, gen);
    }
    return 0;
}

/* ---- initialisation ---- */

static size_t ctl_bytes(int nranks) {
    return sizeof(struct shared) + 16 * (size_t)nranks + 8 * (((size_t)nranks + 1) / 2) +
           sizeof(struct entry) * MAX_P2P * (size_t)nranks + 8 * (((size_t)nranks + 1) / 2);
}

/* "/ncclsi-TOKEN-RANK-PID": the creator's pid in the name, so a process that died can be cleaned up after */
static void data_name(struct ncclComm *c, int rank, char *out, size_t len) {
    snprintf(out, len, "%s-%d-%d", c->name, rank, (int)c->pids[rank]);
}

static int owner_alive(int pid) {
    return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}

/*
 * Names left in /dev/shm by processes that were killed before their initialisation completed (a hung job killed
 * at its deadline): a data segment whose creator's pid is gone, a control block whose owner is gone.
 */
static void collect_stale(void) {
    DIR *d = opendir("/dev/shm");
    if (d == NULL) {
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, "ncclsi-", 7) != 0 || strlen(e->d_name) > 80) {
            continue;
        }
        char name[96];
        snprintf(name, sizeof name, "/%s", e->d_name);
        const char *last = strrchr(e->d_name, '-');
        if (last != e->d_name + 6) { /* a data segment: ...-RANK-PID */
            if (!owner_alive(atoi(last + 1))) {
                shm_unlink(name);
            }
            continue;
        }
        int fd = shm_open(name, O_RDONLY, 0);
        struct stat st;
        if (fd < 0) {
            continue;
        }
        if (fstat(fd, &st) == 0 && (size_t)st.st_size >= sizeof(struct shared)) {
            struct shared *h = mmap(NULL, sizeof *h, PROT_READ, MAP_SHARED, fd, 0);
            if (h != MAP_FAILED) {
                if (__atomic_load_n(&h->magic, __ATOMIC_ACQUIRE) == CTL_MAGIC && !owner_alive(h->owner)) {
                    shm_unlink(name);
                }
                munmap(h, sizeof *h);
            }
        }
        close(fd);
    }
    closedir(d);
}

static pthread_once_t collected = PTHREAD_ONCE_INIT;

/*
 * One mapping per shared segment per process, however many local ranks use it: 256 ranks in one process would
 * otherwise map 256 × 256 segments, past the kernel's vm.max_map_count (65530 by default).
 */
struct mapping {
    char name[96];
    void *addr;
    size_t bytes;
    int refs;
    struct mapping *next;
};

static pthread_mutex_t maps_lock = PTHREAD_MUTEX_INITIALIZER;
static struct mapping *maps;

static void *map_shared(const char *name, size_t bytes) {
    pthread_mutex_lock(&maps_lock);
    for (struct mapping *m = maps; m != NULL; m = m->next) {
        if (strcmp(m->name, name) == 0 && m->bytes == bytes) {
            m->refs++;
            pthread_mutex_unlock(&maps_lock);
            return m->addr;
        }
    }
    void *addr = NULL;
    int fd = shm_open(name, O_RDWR, 0);
    if (fd >= 0) {
        addr = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        close(fd);
        if (addr == MAP_FAILED) {
            addr = NULL;
        }
    }
    if (addr != NULL) {
        struct mapping *m = calloc(1, sizeof *m);
        snprintf(m->name, sizeof m->name, "%s", name);
        m->addr = addr;
        m->bytes = bytes;
        m->refs = 1;
        m->next = maps;
        maps = m;
    }
    pthread_mutex_unlock(&maps_lock);
    return addr;
}

static void unmap_shared(void *addr) {
    pthread_mutex_lock(&maps_lock);
    for (struct mapping **p = &maps; *p != NULL; p = &(*p)->next) {
        struct mapping *m = *p;
        if (m->addr == addr) {
            if (--m->refs == 0) {
                munmap(m->addr, m->bytes);
                *p = m->next;
                free(m);
            }
            break;
        }
    }
    pthread_mutex_unlock(&maps_lock);
}

static ncclResult_t open_control(struct ncclComm *c) {
    size_t bytes = ctl_bytes(c->nranks);
    for (;;) {
        if (aborted(c)) {
            return ncclSystemError;
        }
        if (c->rank == 0) {
            int fd = shm_open(c->name, O_RDWR | O_CREAT | O_EXCL, 0600);
            if (fd < 0 && errno == EEXIST) { /* left by a job that died in its initialisation */
                shm_unlink(c->name);
                continue;
            }
            int sized = fd >= 0 && ftruncate(fd, (off_t)bytes) == 0;
            if (fd >= 0) {
                close(fd);
            }
            if (!sized || (c->sh = map_shared(c->name, bytes)) == NULL) {
                return ncclSystemError;
            }
            c->sh->nranks = (uint32_t)c->nranks;
            c->sh->owner = (int32_t)getpid();
            c->sh->window = c->window;
            __atomic_store_n(&c->sh->magic, CTL_MAGIC, __ATOMIC_RELEASE);
            break;
        }
        int fd = shm_open(c->name, O_RDWR, 0);
        struct stat st;
        int ready = fd >= 0 && fstat(fd, &st) == 0 && (size_t)st.st_size >= bytes;
        if (fd >= 0) {
            close(fd);
        }
        if (!ready || (c->sh = map_shared(c->name, bytes)) == NULL) {
            usleep(1000);
            continue;
        }
        int tries = 0;
        while (__atomic_load_n(&c->sh->magic, __ATOMIC_ACQUIRE) != CTL_MAGIC && tries++ < 1000 && !aborted(c)) {
            usleep(1000);
        }
        if (c->sh->magic == CTL_MAGIC && owner_alive(c->sh->owner)) {
            if (c->sh->nranks != (uint32_t)c->nranks) {
                return ncclInvalidUsage;
            }
            c->window = c->sh->window;
            break;
        }
        unmap_shared(c->sh); /* a stale block whose owner is gone: wait for the new one */
        c->sh = NULL;
        usleep(1000);
    }
    c->ctl_size = bytes;
    c->totals = (uint64_t *)(c->sh + 1);
    c->counts = (uint32_t *)(c->totals + 2 * (size_t)c->nranks);
    c->table = (struct entry *)((uint8_t *)c->counts + 8 * (((size_t)c->nranks + 1) / 2));
    c->pids = (int32_t *)(c->table + MAX_P2P * (size_t)c->nranks);
    return ncclSuccess;
}

static ncclResult_t init_run(struct ncclComm *c) {
    ncclResult_t rc = open_control(c);
    if (rc != ncclSuccess) {
        return rc;
    }
    char name[96];
    c->pids[c->rank] = (int32_t)getpid(); /* published to the peers by the arrival count below */
    data_name(c, c->rank, name, sizeof name);
    int fd = shm_open(name, O_RDWR | O_CREAT | O_TRUNC, 0600);
    int sized = fd >= 0 && ftruncate(fd, (off_t)c->window) == 0;
    if (fd >= 0) {
        close(fd);
    }
    if (!sized || (c->mine = map_shared(name, c->window)) == NULL) {
        return ncclSystemError;
    }
    atomic_fetch_add(&c->sh->arrived, 1);
    futex_wake(&c->sh->arrived);
    /* STANDIN_NCCL_HANG=init: one more rank is awaited, who never comes (a rank missing from the job) */
    if (wait_at_least(c, &c->sh->arrived, (uint32_t)(c->nranks + c->hang_init)) != 0) {
        return ncclSystemError;
    }
    c->peers = calloc((size_t)c->nranks, sizeof *c->peers);
    for (int p = 0; p < c->nranks; p++) {
        if (p == c->rank) {
            c->peers[p] = c->mine;
            continue;
        }
        data_name(c, p, name, sizeof name);
        if ((c->peers[p] = map_shared(name, c->window)) == NULL) {
            return ncclSystemError;
        }
    }
    atomic_fetch_add(&c->sh->attached, 1);
    futex_wake(&c->sh->attached);
    if (wait_at_least(c, &c->sh->attached, (uint32_t)c->nranks) != 0) {
        return ncclSystemError;
    }
    /* everyone has everything mapped: no name needs to outlive the job, even one that is killed later */
    data_name(c, c->rank, name, sizeof name);
    shm_unlink(name);
    if (c->rank == 0) {
        shm_unlink(c->name);
    }
    return ncclSuccess;
}

static void *init_thread(void *arg) {
    struct ncclComm *c = arg;
    ncclResult_t rc = init_run(c);
    atomic_store(&c->state, rc);
    standin_trace("nccl init-done rank=%d rc=%d", c->rank, rc);
    return NULL;
}

static void start_init(struct ncclComm *c) {
    pthread_create(&c->init_thread, NULL, init_thread, c);
    c->init_started = 1;
}

static void join_init(struct ncclComm *c) {
    if (c->init_started) {
        pthread_join(c->init_thread, NULL);
        c->init_started = 0;
    }
}

static uint64_t fnv1a(const char *s) {
    uint64_t h = 1469598103934665603ull;
    for (; *s != '\0'; s++) {
        h = (h ^ (uint8_t)*s) * 1099511628211ull;
    }
    return h;
}

static ncclResult_t comm_new(struct ncclComm **out, int nranks, const ncclUniqueId *id, int rank, int dev, int blocking) {
    if (nranks < 1 || rank < 0 || rank >= nranks || memcmp(id->internal, "SIN1", 4) != 0) {
        return ncclInvalidArgument;
    }
    struct ncclComm *c = calloc(1, sizeof *c);
    c->nranks = nranks;
    c->rank = rank;
    c->dev = dev;
    c->blocking = blocking;
    memcpy(&c->token, id->internal + 8, sizeof c->token);
    snprintf(c->name, sizeof c->name, "/ncclsi-%016llx", (unsigned long long)c->token);
    const char *w = getenv("STANDIN_NCCL_WINDOW");
    c->window = (w != NULL && atol(w) >= 16 ? (size_t)atol(w) : (size_t)1 << 20) & ~(size_t)15;
    const char *hang = getenv("STANDIN_NCCL_HANG");
    if (hang != NULL && strcmp(hang, "init") == 0) {
        c->hang_init = 1;
    } else if (hang != NULL && strncmp(hang, "collective", 10) == 0) {
        c->hang_at = hang[10] == ':' ? atoi(hang + 11) : 1;
    }
    const char *async = getenv("STANDIN_NCCL_ASYNC_ERROR");
    if (async != NULL) {
        c->async_code = atoi(async);
        const char *at = strchr(async, ':');
        c->async_at = at != NULL ? atoi(at + 1) : 1;
    }
    atomic_store(&c->state, ncclInProgress);
    pthread_once(&collected, collect_stale);
    atomic_fetch_add(&live_comms, 1);
    standin_trace("nccl init rank=%d nranks=%d dev=%d blocking=%d", rank, nranks, dev, blocking);
    debug_banner(c);
    debug_channels(c);
    standin_cost_comm(c, rank, nranks, dev);
    *out = c;
    return ncclSuccess;
}

static void push(void ***list, int *n, int *cap, void *item) {
    if (*n == *cap) {
        *cap = *cap == 0 ? 16 : *cap * 2;
        *list = realloc(*list, (size_t)*cap * sizeof(void *));
    }
    (*list)[(*n)++] = item;
}

/* ---- public entry points ---- */

ncclResult_t ncclGetVersion(int *v) {
    *v = version();
    return ncclSuccess;
}

const char *ncclGetErrorString(ncclResult_t code) { /* NCCL's own strings (src/init.cc) */
    switch (code) {
    case ncclSuccess: return "no error";
    case ncclUnhandledCudaError: return "unhandled cuda error (run with NCCL_DEBUG=INFO for details)";
    case ncclSystemError: return "unhandled system error (run with NCCL_DEBUG=INFO for details)";
    case ncclInternalError: return "internal error - please report this issue to the NCCL developers";
    case ncclInvalidArgument: return "invalid argument (run with NCCL_DEBUG=WARN for details)";
    case ncclInvalidUsage: return "invalid usage (run with NCCL_DEBUG=WARN for details)";
    case ncclRemoteError: return "remote process exited or there was a network error";
    case ncclInProgress: return "NCCL operation in progress";
    default: return "unknown result code";
    }
}

const char *ncclGetLastError(ncclComm_t comm) {
    (void)comm;
    return "";
}

ncclResult_t ncclGetUniqueId(ncclUniqueId *id) {
    FAIL("ncclGetUniqueId", -1);
    memset(id, 0, sizeof *id);
    memcpy(id->internal, "SIN1", 4);
    uint64_t token;
    const char *commId = getenv("NCCL_COMM_ID");
    if (commId != NULL) { /* every process that sets the same NCCL_COMM_ID gets the same id, as in NCCL */
        token = fnv1a(commId);
    } else if (getrandom(&token, sizeof token, 0) != sizeof token) {
        return ncclSystemError;
    }
    memcpy(id->internal + 8, &token, sizeof token);
    return ncclSuccess;
}

ncclResult_t ncclCommInitRank(ncclComm_t *comm, int nranks, ncclUniqueId id, int rank) {
    FAIL("ncclCommInitRank", rank);
    struct ncclComm *c;
    ncclResult_t rc = comm_new(&c, nranks, &id, rank, standin_current_device(), 1);
    if (rc != ncclSuccess) {
        return rc;
    }
    *comm = c;
    if (depth > 0) {
        push((void ***)&inits, &ninits, &capinits, c);
        return ncclSuccess;
    }
    start_init(c);
    join_init(c);
    return atomic_load(&c->state);
}

#ifdef HAVE_CONFIG
/* ncclConfig_t as src/init.cc parseCommConfig reads it: size first, magic, version; blocking since 2.14. */
struct config_head {
    size_t size;
    unsigned int magic;
    unsigned int version;
    int blocking;
};

ncclResult_t ncclCommInitRankConfig(ncclComm_t *comm, int nranks, ncclUniqueId id, int rank, void *config) {
    FAIL("ncclCommInitRankConfig", rank);
    int blocking = 1;
    if (config != NULL) {
        struct config_head h = {sizeof h, 0, 0, INT_MIN};
        size_t size;
        memcpy(&size, config, sizeof size);
        memcpy(&h, config, size < sizeof h ? size : sizeof h);
        if (h.magic != NCCL_API_MAGIC) {
            return ncclInvalidArgument;
        }
        if (h.version >= 21400 && h.blocking != INT_MIN) {
            if (h.blocking != 0 && h.blocking != 1) {
                return ncclInvalidArgument;
            }
            blocking = h.blocking;
        }
    }
    struct ncclComm *c;
    ncclResult_t rc = comm_new(&c, nranks, &id, rank, standin_current_device(), blocking);
    if (rc != ncclSuccess) {
        return rc;
    }
    *comm = c;
    if (depth > 0) {
        push((void ***)&inits, &ninits, &capinits, c);
        return ncclSuccess;
    }
    start_init(c);
    if (!blocking) {
        return ncclInProgress;
    }
    join_init(c);
    return atomic_load(&c->state);
}
#endif

static void reclaim(struct ncclComm *c, int abort);

ncclResult_t ncclCommInitAll(ncclComm_t *comms, int ndev, const int *devlist) {
    FAIL("ncclCommInitAll", -1);
    if (ndev < 1) {
        return ncclInvalidArgument;
    }
    ncclUniqueId id;
    ncclResult_t rc = ncclGetUniqueId(&id);
    if (rc != ncclSuccess) {
        return rc;
    }
    struct ncclComm **made = calloc((size_t)ndev, sizeof *made);
    for (int i = 0; i < ndev && rc == ncclSuccess; i++) {
        rc = comm_new(&made[i], ndev, &id, i, devlist != NULL ? devlist[i] : i, 1);
    }
    for (int i = 0; i < ndev && made[i] != NULL; i++) {
        start_init(made[i]);
    }
    for (int i = 0; i < ndev && made[i] != NULL; i++) {
        join_init(made[i]);
        if (rc == ncclSuccess) {
            rc = atomic_load(&made[i]->state);
        }
    }
    for (int i = 0; i < ndev && made[i] != NULL; i++) {
        if (rc == ncclSuccess) {
            comms[i] = made[i];
        } else {
            atomic_store(&made[i]->aborted, 1);
            reclaim(made[i], 1);
        }
    }
    free(made);
    return rc;
}

ncclResult_t ncclCommCount(const ncclComm_t comm, int *count) {
    *count = comm->nranks;
    return ncclSuccess;
}

ncclResult_t ncclCommCuDevice(const ncclComm_t comm, int *dev) {
    *dev = comm->dev;
    return ncclSuccess;
}

ncclResult_t ncclCommUserRank(const ncclComm_t comm, int *rank) {
    *rank = comm->rank;
    return ncclSuccess;
}

ncclResult_t ncclCommGetAsyncError(ncclComm_t comm, ncclResult_t *error) {
    if (comm == NULL) {
        return ncclInvalidArgument;
    }
    *error = (ncclResult_t)atomic_load(&comm->state);
    return ncclSuccess;
}

static void reclaim(struct ncclComm *c, int abort) {
    join_init(c); /* an abort makes a hung initialisation give up; a destroy waits for it, as NCCL's does */
    while (atomic_load(&c->queued) > 0) {
        usleep(500);
    }
    char name[96];
    if (c->peers != NULL) {
        for (int p = 0; p < c->nranks; p++) {
            if (c->peers[p] != NULL && p != c->rank) {
                unmap_shared(c->peers[p]);
            }
        }
        free(c->peers);
    }
    if (c->mine != NULL) {
        unmap_shared(c->mine);
    }
    if (c->sh != NULL && c->pids[c->rank] != 0) {
        data_name(c, c->rank, name, sizeof name);
        shm_unlink(name); /* in case the initialisation stopped before it could */
    }
    if (c->sh != NULL) {
        unmap_shared(c->sh);
    }
    if (c->rank == 0) {
        shm_unlink(c->name);
    }
    standin_trace("nccl reclaim rank=%d by=%s", c->rank, abort ? "abort" : "destroy");
    atomic_fetch_sub(&live_comms, 1);
    free(c);
}

static void later(struct ncclComm *c, int abort) {
    push((void ***)&reclaims, &nreclaims, &capreclaims, c);
    reclaim_abort = realloc(reclaim_abort, (size_t)capreclaims * sizeof(int));
    reclaim_abort[nreclaims - 1] = abort;
}

ncclResult_t ncclCommDestroy(ncclComm_t comm) {
    if (comm == NULL) {
        return ncclSuccess;
    }
    if (depth > 0) {
        later(comm, 0);
        return ncclSuccess;
    }
    reclaim(comm, 0);
    return ncclSuccess;
}

ncclResult_t ncclCommAbort(ncclComm_t comm) {
    if (comm == NULL) {
        return ncclSuccess;
    }
    atomic_store(&comm->aborted, 1);
    if (comm->sh != NULL) {
        atomic_store(&comm->sh->aborted_by, comm->rank + 1);
        futex_wake(&comm->sh->bar_gen);
        futex_wake(&comm->sh->arrived);
        futex_wake(&comm->sh->attached);
    }
    if (depth > 0) { /* the flag is up, the reclaim waits for the outermost ncclGroupEnd */
        standin_trace("nccl abort rank=%d deferred (group depth %d)", comm->rank, depth);
        later(comm, 1);
        return ncclSuccess;
    }
    standin_trace("nccl abort rank=%d", comm->rank);
    reclaim(comm, 1);
    return ncclSuccess;
}

ncclResult_t ncclGroupStart(void) {
    if (depth++ == 0) {
        atomic_fetch_add(&open_groups, 1);
    }
    return ncclSuccess;
}

/* ---- element arithmetic in the type's own precision, as NCCL's reductions round at every step ---- */

static size_t elt_size(int t) {
    static const size_t sizes[T_COUNT] = {1, 1, 4, 4, 8, 8, 2, 4, 8, 2, 1, 1};
    return sizes[t];
}

static float h2f(uint16_t h) {
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    float f = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m != 0 ? NAN : INFINITY) : ldexpf((float)(m | 0x400), e - 25);
    return (h & 0x8000) != 0 ? -f : f;
}

static uint16_t f2h(float f) {
    uint32_t x;
    memcpy(&x, &f, 4);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
    int e = (int)((x >> 23) & 0xff) - 127 + 15;
    uint32_t m = x & 0x7fffff;
    if (((x >> 23) & 0xff) == 0xff) {
        return sign | 0x7c00 | (m != 0 ? 0x200 : 0);
    }
    if (e >= 31) {
        return sign | 0x7c00;
    }
    if (e <= 0) {
        if (e < -10) {
            return sign;
        }
        m |= 0x800000;
        int shift = 14 - e;
        uint32_t hm = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (hm & 1) != 0)) {
            hm++;
        }
        return (uint16_t)(sign | hm);
    }
    uint16_t out = (uint16_t)(sign | (e << 10) | (m >> 13));
    uint32_t rem = m & 0x1fff;
    if (rem > 0x1000 || (rem == 0x1000 && (out & 1) != 0)) {
        out++;
    }
    return out;
}

static float bf2f(uint16_t b) {
    uint32_t x = (uint32_t)b << 16;
    float f;
    memcpy(&f, &x, 4);
    return f;
}

static uint16_t f2bf(float f) {
    uint32_t x;
    memcpy(&x, &f, 4);
    return (uint16_t)((x + 0x7fff + ((x >> 16) & 1)) >> 16);
}

/* e4m3: bias 7, no infinity, 0x7f NaN; e5m2: bias 15, IEEE-like (the OCP FP8 formats NCCL's types name) */
static float f8tof(uint8_t b, int e5m2) {
    int s = b >> 7, e, m;
    float f;
    if (e5m2) {
        e = (b >> 2) & 0x1f;
        m = b & 3;
        f = e == 0 ? ldexpf((float)m, -16) : e == 31 ? (m != 0 ? NAN : INFINITY) : ldexpf((float)(4 + m), e - 17);
    } else {
        e = (b >> 3) & 0xf;
        m = b & 7;
        f = e == 0 ? ldexpf((float)m, -9) : (e == 15 && m == 7) ? NAN : ldexpf((float)(8 + m), e - 10);
    }
    return s ? -f : f;
}

static uint8_t ftof8(float f, int e5m2) { /* nearest finite code, ties to even: a table walk, small sizes only */
    uint8_t best = 0;
    float bestd = INFINITY;
    for (int b = 0; b < 256; b++) {
        float v = f8tof((uint8_t)b, e5m2);
        if (isnan(v) || isinf(v)) {
            continue;
        }
        float d = fabsf(v - f);
        if (d < bestd || (d == bestd && (b & 1) == 0)) {
            best = (uint8_t)b;
            bestd = d;
        }
    }
    return best;
}

#define REDUCE_LOOP(T)                                                           \
    do {                                                                         \
        T *a = acc;                                                              \
        const T *b = v;                                                          \
        for (size_t i = 0; i < n; i++) {                                         \
            T x = a[i], y = b[i];                                                \
            a[i] = op == OP_PROD ? (T)(x * y) : op == OP_MAX ? (x > y ? x : y)  \
                 : op == OP_MIN ? (x < y ? x : y) : (T)(x + y);                 \
        }                                                                        \
    } while (0)

static float apply(int op, float x, float y) {
    return op == OP_PROD ? x * y : op == OP_MAX ? fmaxf(x, y) : op == OP_MIN ? fminf(x, y) : x + y;
}

static void reduce_into(int t, int op, void *acc, const void *v, size_t n) {
    switch (t) {
    case T_I8: REDUCE_LOOP(int8_t); break;
    case T_U8: REDUCE_LOOP(uint8_t); break;
    case T_I32: REDUCE_LOOP(int32_t); break;
    case T_U32: REDUCE_LOOP(uint32_t); break;
    case T_I64: REDUCE_LOOP(int64_t); break;
    case T_U64: REDUCE_LOOP(uint64_t); break;
    case T_F32: REDUCE_LOOP(float); break;
    case T_F64: REDUCE_LOOP(double); break;
    case T_F16:
        for (size_t i = 0; i < n; i++) {
            ((uint16_t *)acc)[i] = f2h(apply(op, h2f(((uint16_t *)acc)[i]), h2f(((const uint16_t *)v)[i])));
        }
        break;
    case T_BF16:
        for (size_t i = 0; i < n; i++) {
            ((uint16_t *)acc)[i] = f2bf(apply(op, bf2f(((uint16_t *)acc)[i]), bf2f(((const uint16_t *)v)[i])));
        }
        break;
    default:
        for (size_t i = 0; i < n; i++) {
            int e5 = t == T_F8E5M2;
            ((uint8_t *)acc)[i] = ftof8(apply(op, f8tof(((uint8_t *)acc)[i], e5), f8tof(((const uint8_t *)v)[i], e5)), e5);
        }
    }
}

static void average(int t, void *acc, size_t n, int nranks) { /* ncclAvg: the sum divided by the rank count */
    for (size_t i = 0; i < n; i++) {
        switch (t) {
        case T_I8: ((int8_t *)acc)[i] /= nranks; break;
        case T_U8: ((uint8_t *)acc)[i] /= nranks; break;
        case T_I32: ((int32_t *)acc)[i] /= nranks; break;
        case T_U32: ((uint32_t *)acc)[i] /= (uint32_t)nranks; break;
        case T_I64: ((int64_t *)acc)[i] /= nranks; break;
        case T_U64: ((uint64_t *)acc)[i] /= (uint64_t)nranks; break;
        case T_F32: ((float *)acc)[i] /= (float)nranks; break;
        case T_F64: ((double *)acc)[i] /= nranks; break;
        case T_F16: ((uint16_t *)acc)[i] = f2h(h2f(((uint16_t *)acc)[i]) / (float)nranks); break;
        case T_BF16: ((uint16_t *)acc)[i] = f2bf(bf2f(((uint16_t *)acc)[i]) / (float)nranks); break;
        default: ((uint8_t *)acc)[i] = ftof8(f8tof(((uint8_t *)acc)[i], t == T_F8E5M2) / (float)nranks, t == T_F8E5M2);
        }
    }
}

/* out[0..bytes) = the reduction over all ranks of what they published at `offset` of their window */
static void reduce_published(struct ncclComm *c, struct task *t, uint8_t *out, size_t offset, size_t bytes) {
    memcpy(out, c->peers[0] + offset, bytes);
    for (int p = 1; p < c->nranks; p++) {
        reduce_into(t->type, t->op, out, c->peers[p] + offset, bytes / elt_size(t->type));
    }
    if (t->op == OP_AVG) {
        average(t->type, out, bytes / elt_size(t->type), c->nranks);
    }
}

/* ---- execution on the stream: publish a window of the send data, meet, take what is ours, meet ---- */

static int run_collective(struct ncclComm *c, struct task *t) {
    size_t e = elt_size(t->type), chunk = t->count * e;
    size_t total = t->kind == K_REDUCESCATTER ? chunk * (size_t)c->nranks : chunk;
    size_t w = c->window;
    for (size_t at = 0; at < total; at += w) {
        size_t n = total - at < w ? total - at : w;
        if (t->kind != K_BROADCAST || c->rank == t->root) {
            memcpy(c->mine, (const uint8_t *)t->send + at, n);
        }
        if (barrier(c) != 0) {
            return -1;
        }
        uint8_t *recv = t->recv;
        switch (t->kind) {
        case K_ALLREDUCE:
            reduce_published(c, t, recv + at, 0, n);
            break;
        case K_REDUCE:
            if (c->rank == t->root) {
                reduce_published(c, t, recv + at, 0, n);
            }
            break;
        case K_BROADCAST:
            memcpy(recv + at, c->peers[t->root], n);
            break;
        case K_ALLGATHER:
            for (int p = 0; p < c->nranks; p++) {
                memcpy(recv + (size_t)p * chunk + at, c->peers[p], n);
            }
            break;
        case K_REDUCESCATTER: {
            size_t lo = chunk * (size_t)c->rank, hi = lo + chunk;
            size_t from = at > lo ? at : lo, to = at + n < hi ? at + n : hi;
            if (from < to) {
                reduce_published(c, t, recv + (from - lo), from - at, to - from);
            }
            break;
        }
        }
        if (barrier(c) != 0) {
            return -1;
        }
    }
    return 0;
}

static int phase_of(int sender, int receiver) {
    return receiver > sender ? 0 : 1; /* lower to higher ranks first */
}

struct incoming {
    struct p2p *to;
    int peer, phase;
    uint64_t offset; /* in the sender's stream of that phase */
};

static int run_p2p(struct ncclComm *c, struct task *t) {
    int me = c->rank, n = c->nranks;
    struct entry *mine = c->table + (size_t)me * MAX_P2P;
    uint32_t sends = 0;
    for (int i = 0; i < t->np; i++) {
        if (t->ps[i].send) {
            mine[sends].peer = t->ps[i].peer;
            mine[sends++].bytes = t->ps[i].bytes;
        }
    }
    c->counts[me] = sends;
    if (barrier(c) != 0) {
        return -1;
    }
    struct incoming *in = calloc((size_t)t->np + 1, sizeof *in);
    int nin = 0;
    int *seen = calloc((size_t)n, sizeof *seen);
    for (int i = 0; i < t->np; i++) {
        if (t->ps[i].send) {
            continue;
        }
        int p = t->ps[i].peer, want = seen[p]++, phase = phase_of(p, me);
        struct entry *theirs = c->table + (size_t)p * MAX_P2P;
        uint64_t offset = 0;
        int found = 0;
        for (uint32_t j = 0; j < c->counts[p] && !found; j++) {
            if (theirs[j].peer == me && want-- == 0) {
                found = 1;
            } else if (phase_of(p, theirs[j].peer) == phase) {
                offset += theirs[j].bytes;
            }
        }
        if (found) {
            in[nin++] = (struct incoming){&t->ps[i], p, phase, offset};
        }
    }
    free(seen);
    int rc = 0;
    for (int phase = 0; phase < 2 && rc == 0; phase++) {
        uint64_t total = 0;
        for (int i = 0; i < t->np; i++) {
            if (t->ps[i].send && phase_of(me, t->ps[i].peer) == phase) {
                total += t->ps[i].bytes;
            }
        }
        c->totals[phase * n + me] = total;
        if (barrier(c) != 0) {
            rc = -1;
            break;
        }
        uint64_t most = 0;
        for (int p = 0; p < n; p++) {
            most = c->totals[phase * n + p] > most ? c->totals[phase * n + p] : most;
        }
        for (uint64_t at = 0; at < most && rc == 0; at += c->window) {
            uint64_t end = at + c->window, pos = 0; /* publish [at, end) of this phase's stream, read now */
            for (int i = 0; i < t->np; i++) {
                struct p2p *s = &t->ps[i];
                if (!s->send || phase_of(me, s->peer) != phase) {
                    continue;
                }
                uint64_t lo = pos > at ? pos : at, hi = pos + s->bytes < end ? pos + s->bytes : end;
                if (lo < hi) {
                    memcpy(c->mine + (lo - at), s->buf + (lo - pos), hi - lo);
                }
                pos += s->bytes;
            }
            if (barrier(c) != 0) {
                rc = -1;
                break;
            }
            for (int i = 0; i < nin; i++) {
                if (in[i].phase != phase) {
                    continue;
                }
                uint64_t from = in[i].offset, lo = from > at ? from : at;
                uint64_t hi = from + in[i].to->bytes < end ? from + in[i].to->bytes : end;
                if (lo < hi) {
                    memcpy(in[i].to->buf + (lo - from), c->peers[in[i].peer] + (lo - at), hi - lo);
                }
            }
            if (barrier(c) != 0) {
                rc = -1;
            }
        }
    }
    free(in);
    return rc;
}

static void run_task(void *arg) {
    struct task *t = arg;
    struct ncclComm *c = t->c;
    c->ops++;
    if (c->async_code != 0 && c->ops >= c->async_at) { /* STANDIN_NCCL_ASYNC_ERROR: what a dead peer looks like */
        atomic_store(&c->state, c->async_code);
    } else if (c->hang_at > 0 && c->ops == c->hang_at) {
        standin_trace("nccl hang rank=%d op=%d", c->rank, c->ops);
        while (!aborted(c)) {
            usleep(2000);
        }
    } else if (!aborted(c)) {
        int rc = t->kind == K_P2P ? run_p2p(c, t) : run_collective(c, t);
        if (t->kind != K_P2P) {
            standin_cost_wait(&t->cost);
        }
        int state = atomic_load(&c->state);
        if (rc != 0 && (state == ncclSuccess || state == ncclInProgress)) {
            atomic_store(&c->state, ncclRemoteError);
        }
    }
    free(t->ps);
    free(t);
    atomic_fetch_sub(&c->queued, 1);
}

/* queued counts a task from its acceptance at ncclGroupEnd to its end, so a reclaim waits for a late launch too */
static void enqueue(struct task *t) {
    standin_stream_enqueue(t->stream, run_task, t);
}

struct launch {
    struct task **tasks;
    int n;
};

static void *launch_later(void *arg) { /* non-blocking communicators: the launch finishes after ncclGroupEnd returns */
    struct launch *l = arg;
    usleep(200);
    for (int i = 0; i < l->n; i++) {
        struct ncclComm *c = l->tasks[i]->c;
        enqueue(l->tasks[i]);
        int expected = ncclInProgress;
        atomic_compare_exchange_strong(&c->state, &expected, ncclSuccess);
    }
    free(l->tasks);
    free(l);
    return NULL;
}

ncclResult_t ncclGroupEnd(void) {
    if (depth == 0) {
        return ncclInvalidUsage;
    }
    if (--depth > 0) {
        return ncclSuccess;
    }
    atomic_fetch_sub(&open_groups, 1);
    struct ncclComm **myinits = inits;
    int ni = ninits;
    struct task **mytasks = tasks;
    int nt = ntasks;
    struct ncclComm **myreclaims = reclaims;
    int *myabort = reclaim_abort;
    int nr = nreclaims;
    inits = NULL;
    tasks = NULL;
    reclaims = NULL;
    reclaim_abort = NULL;
    ninits = capinits = ntasks = captasks = nreclaims = capreclaims = 0;
    ncclResult_t rc = ncclSuccess;
    int background = 0;
    for (int i = 0; i < ni; i++) {
        start_init(myinits[i]);
        background |= !myinits[i]->blocking;
    }
    for (int i = 0; i < ni && !background; i++) {
        join_init(myinits[i]);
        if (rc == ncclSuccess) {
            rc = atomic_load(&myinits[i]->state);
        }
    }
    if (background) {
        rc = ncclInProgress;
    }
    int nonblocking = 0;
    for (int i = 0; i < nt && rc != ncclInProgress; i++) {
        int state = atomic_load(&mytasks[i]->c->state);
        if (state != ncclSuccess) { /* a communicator still initialising, or failed */
            rc = state == ncclInProgress ? ncclInvalidUsage : (ncclResult_t)state;
        }
        nonblocking |= !mytasks[i]->c->blocking;
    }
    for (int i = 0; i < nt && rc == ncclSuccess; i++) {
        atomic_fetch_add(&mytasks[i]->c->queued, 1);
    }
    if (rc == ncclSuccess && nonblocking) {
        for (int i = 0; i < nt; i++) {
            atomic_store(&mytasks[i]->c->state, ncclInProgress);
        }
        struct launch *l = calloc(1, sizeof *l);
        l->tasks = mytasks;
        l->n = nt;
        mytasks = NULL;
        pthread_t th;
        pthread_create(&th, NULL, launch_later, l);
        pthread_detach(th);
        rc = ncclInProgress;
    } else if (rc == ncclSuccess) {
        for (int i = 0; i < nt; i++) {
            enqueue(mytasks[i]);
        }
    } else {
        for (int i = 0; i < nt && mytasks != NULL; i++) {
            free(mytasks[i]->ps);
            free(mytasks[i]);
        }
    }
    for (int i = 0; i < nr; i++) {
        standin_trace("nccl reclaim-at-group-end rank=%d", myreclaims[i]->rank);
        reclaim(myreclaims[i], myabort[i]);
    }
    free(myinits);
    free(mytasks);
    free(myreclaims);
    free(myabort);
    return rc;
}

static ncclResult_t check(ncclComm_t comm, int type, int op, int root) {
    if (comm == NULL) {
        return ncclInvalidArgument;
    }
    if (type < 0 || type >= T_COUNT || (type >= T_F8E4M3 && version() < 22400)) { /* FP8 types: nccl.h 2.24 */
        return ncclInvalidArgument;
    }
    if (op < 0 || op >= OP_COUNT || (root != -1 && (root < 0 || root >= comm->nranks))) {
        return ncclInvalidArgument;
    }
    int state = atomic_load(&comm->state);
    return state == ncclSuccess || state == ncclInProgress ? ncclSuccess : (ncclResult_t)state;
}

static ncclResult_t submit(struct task *t) {
    push((void ***)&tasks, &ntasks, &captasks, t);
    if (depth > 0) {
        return ncclSuccess;
    }
    ncclGroupStart(); /* a call outside a group is a group of one */
    return ncclGroupEnd();
}

/* cost.c chooses the algorithm and protocol as NCCL would, and models the time (K_* to ncclFunc_t order) */
static ncclResult_t cost_choose(struct task *t) {
    static const int funcs[] = {STANDIN_ALLREDUCE, STANDIN_ALLGATHER, STANDIN_REDUCESCATTER, STANDIN_BROADCAST, STANDIN_REDUCE};
    return (ncclResult_t)standin_cost_choose(&t->cost, funcs[t->kind], t->count, elt_size(t->type), t->type, t->c->nranks, t->c->rank,
                                             t->c->dev);
}

static ncclResult_t collective(int kind, const void *send, void *recv, size_t count, int type, int op, int root,
                               ncclComm_t comm, void *stream) {
    ncclResult_t rc = check(comm, type, op, kind == K_BROADCAST || kind == K_REDUCE ? root : -1);
    if (rc != ncclSuccess) {
        return rc;
    }
    struct task *t = calloc(1, sizeof *t);
    *t = (struct task){comm, kind, send, recv, count, type, op, root, stream, 0, 0, NULL, {0}};
    rc = cost_choose(t);
    if (rc != ncclSuccess) {
        free(t);
        return rc;
    }
    return submit(t);
}

ncclResult_t ncclAllReduce(const void *send, void *recv, size_t count, int type, int op, ncclComm_t comm, void *stream) {
    FAIL("ncclAllReduce", comm == NULL ? -1 : comm->rank);
    return collective(K_ALLREDUCE, send, recv, count, type, op, 0, comm, stream);
}

ncclResult_t ncclAllGather(const void *send, void *recv, size_t count, int type, ncclComm_t comm, void *stream) {
    FAIL("ncclAllGather", comm == NULL ? -1 : comm->rank);
    return collective(K_ALLGATHER, send, recv, count, type, OP_SUM, 0, comm, stream);
}

ncclResult_t ncclReduceScatter(const void *send, void *recv, size_t count, int type, int op, ncclComm_t comm, void *stream) {
    FAIL("ncclReduceScatter", comm == NULL ? -1 : comm->rank);
    return collective(K_REDUCESCATTER, send, recv, count, type, op, 0, comm, stream);
}

ncclResult_t ncclBroadcast(const void *send, void *recv, size_t count, int type, int root, ncclComm_t comm, void *stream) {
    FAIL("ncclBroadcast", comm == NULL ? -1 : comm->rank);
    return collective(K_BROADCAST, send, recv, count, type, OP_SUM, root, comm, stream);
}

ncclResult_t ncclReduce(const void *send, void *recv, size_t count, int type, int op, int root, ncclComm_t comm,
                        void *stream) {
    FAIL("ncclReduce", comm == NULL ? -1 : comm->rank);
    return collective(K_REDUCE, send, recv, count, type, op, root, comm, stream);
}

/* Consecutive sends and receives of one communicator in one group run as one step, matched per peer in order. */
static ncclResult_t p2p(int send, const void *buf, size_t count, int type, int peer, ncclComm_t comm, void *stream) {
    ncclResult_t rc = check(comm, type, OP_SUM, -1);
    if (rc != ncclSuccess) {
        return rc;
    }
    if (peer < 0 || peer >= comm->nranks) {
        return ncclInvalidArgument;
    }
    struct task *t = ntasks > 0 ? tasks[ntasks - 1] : NULL;
    if (depth == 0 || t == NULL || t->kind != K_P2P || t->c != comm || t->stream != stream) {
        t = calloc(1, sizeof *t);
        *t = (struct task){comm, K_P2P, NULL, NULL, 0, type, OP_SUM, 0, stream, 0, 0, NULL, {0}};
        push((void ***)&tasks, &ntasks, &captasks, t);
    }
    if (t->np >= MAX_P2P) {
        return ncclInvalidUsage;
    }
    if (t->np == t->cap) {
        t->cap = t->cap == 0 ? 8 : t->cap * 2;
        t->ps = realloc(t->ps, (size_t)t->cap * sizeof *t->ps);
    }
    t->ps[t->np++] = (struct p2p){send, peer, (uint8_t *)buf, count * elt_size(type)};
    if (depth > 0) {
        return ncclSuccess;
    }
    ncclGroupStart();
    return ncclGroupEnd();
}

ncclResult_t ncclSend(const void *buf, size_t count, int type, int peer, ncclComm_t comm, void *stream) {
    FAIL("ncclSend", comm == NULL ? -1 : comm->rank);
    return p2p(1, buf, count, type, peer, comm, stream);
}

ncclResult_t ncclRecv(void *buf, size_t count, int type, int peer, ncclComm_t comm, void *stream) {
    FAIL("ncclRecv", comm == NULL ? -1 : comm->rank);
    return p2p(0, buf, count, type, peer, comm, stream);
}

#ifdef HAVE_ALLTOALL
/* NCCL 2.28's ncclAlltoAll runs as grouped p2p, so its in-place form races as the grouped calls do. */
ncclResult_t ncclAlltoAll(const void *send, void *recv, size_t count, int type, ncclComm_t comm, void *stream) {
    FAIL("ncclAlltoAll", comm == NULL ? -1 : comm->rank);
    ncclResult_t rc = check(comm, type, OP_SUM, -1);
    if (rc != ncclSuccess) {
        return rc;
    }
    size_t chunk = count * elt_size(type);
    ncclGroupStart();
    for (int p = 0; p < comm->nranks; p++) {
        p2p(1, (const uint8_t *)send + (size_t)p * chunk, count, type, p, comm, stream);
        p2p(0, (uint8_t *)recv + (size_t)p * chunk, count, type, p, comm, stream);
    }
    return ncclGroupEnd();
}
#endif

/* For tests in the same process: communicators not yet reclaimed, and groups left open. */
int standin_nccl_live_comms(void) {
    return atomic_load(&live_comms);
}

int standin_nccl_open_groups(void) {
    return atomic_load(&open_groups);
}

__attribute__((destructor)) static void at_exit(void) {
    standin_trace("nccl exit live-comms=%d open-groups=%d", atomic_load(&live_comms), atomic_load(&open_groups));
}
