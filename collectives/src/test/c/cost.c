/*
 * The libnccl stand-in's algorithm choice and cost model (a test double; see cost.h and README.md).
 *
 * Choice, as NCCL 2.28's ncclGetAlgoInfo makes it (src/enqueue.cc): a cost table per algorithm and protocol holds
 * NCCL's predicted time, -1 (NCCL_ALGO_PROTO_IGNORE) where the combination is unavailable or NCCL_ALGO/NCCL_PROTO
 * disable it (parseList of src/graph/tuning.cc: one comma list before 2.24, "func:elem,elem;..." from 2.24, '^'
 * inverts); a tuner plugin may then lower entries; the smallest entry wins. NCCL_TUNER_PLUGIN (any value but "none")
 * stands for NCCL's example tuner, whose CSV reader is copied rule for rule from NVIDIA/nccl
 * plugins/tuner/example/plugin.c at 5067397c (the reader is the same since ext-tuner/example of v2.27.5-1):
 * NCCL_TUNER_CONFIG_FILE or ./nccl_tuner.conf, fgets into 256 bytes, '#' or '\n' in the first column skipped, strtok
 * on ',' (empty fields vanish), blanks and tabs trimmed, 8 to 10 fields, an unknown collective read as allreduce, an
 * unknown algorithm as ring, an unknown protocol as simple; the first row that matches and is not IGNORE gets cost 0;
 * *nChannels is 1 unless the row gives channels.
 *
 * Cost: the "hardware" has Ring for every collective and Tree for allreduce, LL, LL128 and Simple for both. A call
 * takes T0 x factor, T0 = (1500 + 250 log2(ranks)) us + the bytes each rank moves (nccl-tests' bus factor: 2(n-1)/n
 * for allreduce, (n-1)/n for allgather and reducescatter, 1 otherwise) at 1 GB/s. Ring/Simple has factor 1; LL 0.8 up
 * to 16 KiB and 1.4 above; LL128 1.35; Tree 1.15 (Simple), 0.9 then 1.5 (LL), 1.45 (LL128). NCCL's own table predicts
 * exactly that, except in the planted range (STANDIN_NCCL_COST_WIN, default allreduce Ring/LL128 from 512 KiB to 2
 * MiB at 0.6), where the truth is better than NCCL believes: NCCL picks Ring/Simple there, a tuner row for
 * ring/ll128 wins about x1.67, and a global NCCL_PROTO=LL128 loses about 26 % everywhere else. The times are whole
 * milliseconds so that they dominate the host's launch (a non-blocking group ends after 200 us or more) and poll
 * (20 to 50 us) overheads; and the stream's events read the modelled clock (cuda.c), so measured time follows the model
 * on a loaded host too.
 */
#define _GNU_SOURCE
#include "cost.h"
#include "standin.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef STANDIN_VERSION
#define STANDIN_VERSION 22803
#endif

/* NCCL's numbering (nccl_common.h / tuner.h) and names: NCCL_ALGO and NCCL_PROTO tokens, TUNING-line names */
#define NALGO 7
#define NPROTO 3
#define NFUNC 5
enum { ALGO_TREE, ALGO_RING, ALGO_COLLNET_DIRECT, ALGO_COLLNET_CHAIN, ALGO_NVLS, ALGO_NVLS_TREE, ALGO_PAT };
enum { PROTO_LL, PROTO_LL128, PROTO_SIMPLE };
static const char *algo_tokens[NALGO] = {"Tree", "Ring", "CollNetDirect", "CollNetChain", "NVLS", "NVLSTree", "PAT"};
static const char *algo_logged[NALGO] = {"TREE", "RING", "COLLNET_DIRECT", "COLLNET_CHAIN", "NVLS", "NVLS_TREE", "PAT"};
static const char *proto_tokens[NPROTO] = {"LL", "LL128", "Simple"};
static const char *proto_logged[NPROTO] = {"LL", "LL128", "SIMPLE"};
static const char *func_tokens[NFUNC] = {"Broadcast", "Reduce", "AllGather", "ReduceScatter", "AllReduce"};
static const char *tuner_colls[NFUNC] = {"broadcast", "reduce", "allgather", "reducescatter", "allreduce"};
static const char *tuner_algos[NALGO] = {"tree", "ring", "collnet_direct", "collnet_chain", "nvls", "nvls_tree", "pat"};
static const char *tuner_protos[NPROTO] = {"ll", "ll128", "simple"};
static const char *type_names[] = {"ncclInt8", "ncclUint8", "ncclInt32", "ncclUint32", "ncclInt64", "ncclUint64", "ncclFloat16",
                                   "ncclFloat32", "ncclFloat64", "ncclBfloat16", "ncclFloat8e4m3", "ncclFloat8e5m2"};

#define IGNORE (-1.0f) /* NCCL_ALGO_PROTO_IGNORE */
#define SUBSYS_INIT 0x1ULL
#define SUBSYS_ENV 0x80ULL
#define SUBSYS_TUNING 0x40ULL
#define SUBSYS_BOOTSTRAP 0x800ULL

static int version(void) {
    const char *v = getenv("STANDIN_NCCL_VERSION");
    return v != NULL ? atoi(v) : STANDIN_VERSION;
}

/* ---- NCCL's log: NCCL_DEBUG level and NCCL_DEBUG_SUBSYS mask as src/debug.cc reads them, lines as it prefixes them ---- */

static int log_level;      /* 0 none, 1 VERSION, 2 WARN, 3 INFO, 4 ABORT, 5 TRACE */
static uint64_t log_mask;
static pthread_once_t log_once = PTHREAD_ONCE_INIT;

static void log_init(void) {
    const char *d = getenv("NCCL_DEBUG");
    static const char *levels[] = {"VERSION", "WARN", "INFO", "ABORT", "TRACE"};
    for (int i = 0; d != NULL && i < 5; i++) {
        if (strcasecmp(d, levels[i]) == 0) {
            log_level = i + 1;
        }
    }
    log_mask = SUBSYS_INIT | SUBSYS_BOOTSTRAP | SUBSYS_ENV;
    const char *s = getenv("NCCL_DEBUG_SUBSYS");
    if (s == NULL) {
        return;
    }
    static const char *names[] = {"INIT", "COLL", "P2P", "SHM", "NET", "GRAPH", "TUNING", "ENV", "ALLOC", "CALL", "PROXY", "NVLS",
                                  "BOOTSTRAP", "REG", "PROFILE", "RAS"};
    int invert = s[0] == '^';
    char *copy = strdup(s + invert), *save = NULL;
    log_mask = invert ? ~0ULL : 0ULL;
    for (char *t = strtok_r(copy, ",", &save); t != NULL; t = strtok_r(NULL, ",", &save)) {
        uint64_t bit = strcasecmp(t, "ALL") == 0 ? ~0ULL : 0;
        for (int i = 0; i < 16 && bit == 0; i++) {
            bit = strcasecmp(t, names[i]) == 0 ? 1ULL << i : 0;
        }
        log_mask = invert ? log_mask & ~bit : log_mask | bit;
    }
    free(copy);
}

/* "host:pid:tid [dev] NCCL INFO msg" to NCCL_DEBUG_FILE (%h host, %p pid) or stdout, as the banner of nccl.c */
static void nccl_log(int level, uint64_t subsys, int dev, const char *fmt, ...) {
    pthread_once(&log_once, log_init);
    if (log_level < level || (level == 3 && (subsys & log_mask) == 0)) {
        return;
    }
    char host[64] = "host";
    gethostname(host, sizeof host - 1);
    char *dot = strchr(host, '.');
    if (dot != NULL) {
        *dot = '\0';
    }
    char line[1024];
    int n = snprintf(line, sizeof line, "%s:%d:%d [%d] NCCL %s ", host, (int)getpid(), (int)syscall(SYS_gettid), dev,
                     level == 2 ? "WARN" : "INFO");
    va_list ap;
    va_start(ap, fmt);
    n += vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
    va_end(ap);
    if (n > (int)sizeof line - 2) {
        n = (int)sizeof line - 2;
    }
    line[n++] = '\n';
    const char *file = getenv("NCCL_DEBUG_FILE");
    if (file == NULL) {
        fwrite(line, 1, (size_t)n, stdout);
        fflush(stdout);
        return;
    }
    char path[1024];
    size_t k = 0;
    for (const char *p = file; *p != '\0' && k < sizeof path - 32; p++) {
        if (p[0] == '%' && (p[1] == 'h' || p[1] == 'p')) {
            k += p[1] == 'h' ? (size_t)snprintf(path + k, sizeof path - k, "%s", host)
                             : (size_t)snprintf(path + k, sizeof path - k, "%d", (int)getpid());
            p++;
        } else {
            path[k++] = *p;
        }
    }
    path[k] = '\0';
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0) {
        ssize_t ignored = write(fd, line, (size_t)n);
        (void)ignored;
        close(fd);
    }
}

/* ---- NCCL_ALGO / NCCL_PROTO: parseList of src/graph/tuning.cc (v2.23.4-1 and v2.28.3-1) ---- */

/* list[f * nelems + e] = 1 where enabled; 0 on success, 1 with a WARN (from 2.24 NCCL rejects the value) */
static int parse_list(const char *str, const char **elems, int nelems, int *list, int dev) {
    for (int i = 0; i < NFUNC * nelems; i++) {
        list[i] = 1;
    }
    if (version() < 22400) { /* one comma list, '^' inverts, unknown tokens silently ignored */
        int invert = str[0] == '^';
        char *copy = strdup(str + invert), *save = NULL;
        int one[NALGO];
        for (int e = 0; e < nelems; e++) {
            one[e] = invert;
        }
        for (char *t = strtok_r(copy, ",", &save); t != NULL; t = strtok_r(NULL, ",", &save)) {
            for (int e = 0; e < nelems; e++) {
                if (strcasecmp(t, elems[e]) == 0) {
                    one[e] = !invert;
                }
            }
        }
        free(copy);
        for (int i = 0; i < NFUNC * nelems; i++) {
            list[i] = one[i % nelems];
        }
        return 0;
    }
    char *full = strdup(str), *save = NULL;
    int rc = 0;
    for (char *entry = strtok_r(full, ";", &save); entry != NULL && rc == 0; entry = strtok_r(NULL, ";", &save)) {
        char *colon = strchr(entry, ':');
        char *prefix = NULL, *elemList = entry;
        if (colon != NULL) {
            *colon = '\0';
            prefix = entry;
            elemList = colon + 1;
        } else if (entry != full) {
            nccl_log(2, 0, dev, "All entries except the first must have a prefix: \"%s\"", str);
            rc = 1;
            break;
        }
        int set = 1;
        if (elemList[0] == '^') {
            set = 0;
            elemList++;
        }
        int found = 0;
        for (int f = 0; f < NFUNC && rc == 0; f++) {
            if (prefix != NULL && strcasecmp(prefix, func_tokens[f]) != 0) {
                continue;
            }
            found = 1;
            for (int e = 0; e < nelems; e++) {
                list[f * nelems + e] = !set;
            }
            char *elems_copy = strdup(elemList), *save2 = NULL;
            for (char *t = strtok_r(elems_copy, ",", &save2); t != NULL; t = strtok_r(NULL, ",", &save2)) {
                int e = 0;
                while (e < nelems && strcasecmp(t, elems[e]) != 0) {
                    e++;
                }
                if (e == nelems) {
                    nccl_log(2, 0, dev, "Unrecognized element token \"%s\" when parsing \"%s\"", t, str);
                    rc = 1;
                    break;
                }
                list[f * nelems + e] = set;
            }
            free(elems_copy);
        }
        if (!found && rc == 0) {
            nccl_log(2, 0, dev, "Unrecognized prefix token \"%s\" when parsing \"%s\"", prefix, str);
            rc = 1;
        }
    }
    free(full);
    return rc;
}

/* ---- the example tuner's configuration (plugins/tuner/example/plugin.c loadConfig) ---- */

#define MAX_LINE_LENGTH 256
#define MAX_CONFIGS 4096

struct tuning_config {
    int coll;
    size_t min_bytes, max_bytes;
    int algo, proto, channels, nodes, ranks, pipe_ops, reg_buff;
};

static struct tuning_config configs[MAX_CONFIGS];
static int nconfigs;
static int tuner_loaded; /* NCCL_TUNER_PLUGIN names a plugin: the example tuner stands in for it */
static const char *config_file;

static int index_of(const char *s, const char **names, int n, int fallback) {
    for (int i = 0; i < n; i++) {
        if (strcmp(s, names[i]) == 0) {
            return i;
        }
    }
    return fallback;
}

static void load_config(int dev) {
    config_file = getenv("NCCL_TUNER_CONFIG_FILE") != NULL ? getenv("NCCL_TUNER_CONFIG_FILE") : "nccl_tuner.conf";
    FILE *f = fopen(config_file, "r");
    if (f == NULL) {
        nccl_log(3, SUBSYS_TUNING, dev, "TUNER/ExamplePlugin: Config file %s not found, using defaults", config_file);
        return;
    }
    char line[MAX_LINE_LENGTH];
    while (fgets(line, sizeof line, f) != NULL && nconfigs < MAX_CONFIGS) {
        if (line[0] == '#' || line[0] == '\n') {
            continue;
        }
        line[strcspn(line, "\n")] = 0;
        char *tokens[10], *save = NULL;
        int n = 0;
        for (char *t = strtok_r(line, ",", &save); t != NULL && n < 10; t = strtok_r(NULL, ",", &save)) {
            while (*t == ' ' || *t == '\t') {
                t++;
            }
            char *end = t + strlen(t) - 1;
            while (end > t && (*end == ' ' || *end == '\t')) {
                *end-- = '\0';
            }
            tokens[n++] = t;
        }
        if (n < 8) {
            continue;
        }
        struct tuning_config *c = &configs[nconfigs++];
        c->coll = index_of(tokens[0], tuner_colls, NFUNC, STANDIN_ALLREDUCE);
        c->min_bytes = (size_t)strtoull(tokens[1], NULL, 10);
        c->max_bytes = (size_t)strtoull(tokens[2], NULL, 10);
        c->algo = index_of(tokens[3], tuner_algos, NALGO, ALGO_RING);
        c->proto = index_of(tokens[4], tuner_protos, NPROTO, PROTO_SIMPLE);
        c->channels = atoi(tokens[5]);
        c->nodes = atoi(tokens[6]);
        c->ranks = atoi(tokens[7]);
        c->pipe_ops = n >= 9 ? atoi(tokens[8]) : -1;
        c->reg_buff = n >= 10 ? atoi(tokens[9]) : -1;
        nccl_log(3, SUBSYS_TUNING, dev, "TUNER/ExamplePlugin: Loaded config: %s [%zu-%zu] %s/%s channels=%d nodes=%d ranks=%d",
                 tokens[0], c->min_bytes, c->max_bytes, tokens[3], tokens[4], c->channels, c->nodes, c->ranks);
    }
    fclose(f);
    if (nconfigs == 0) {
        nccl_log(3, SUBSYS_TUNING, dev, "TUNER/ExamplePlugin: No valid configurations found in %s", config_file);
    } else {
        nccl_log(3, SUBSYS_TUNING, dev, "TUNER/ExamplePlugin: Loaded %d tuning configurations from %s", nconfigs, config_file);
    }
}

/* pluginGetCollInfo: the first matching row whose combination is not IGNORE gets cost 0; channels 1 unless it says */
static void tuner_apply(float table[NALGO][NPROTO], int func, size_t bytes, int nranks, int *channels, int dev) {
    *channels = 1;
    for (int i = 0; i < nconfigs; i++) {
        struct tuning_config *c = &configs[i];
        if (c->coll != func || bytes < c->min_bytes || bytes > c->max_bytes || (c->nodes != -1 && c->nodes != 1) ||
            (c->ranks != -1 && c->ranks != nranks) || (c->pipe_ops != -1 && c->pipe_ops != 1) || (c->reg_buff != -1 && c->reg_buff != 0)) {
            continue;
        }
        if (table[c->algo][c->proto] == IGNORE) {
            nccl_log(3, SUBSYS_TUNING, dev, "TUNER/ExamplePlugin: Algorithm/protocol combination [%s][%s] is marked as IGNORE",
                     tuner_algos[c->algo], tuner_protos[c->proto]);
            continue;
        }
        table[c->algo][c->proto] = 0.0f;
        if (c->channels != -1) {
            *channels = c->channels;
        }
        nccl_log(3, SUBSYS_TUNING, dev, "TUNER/ExamplePlugin: Applied config for collType=%s, bytes=%zu, pipeOps=1, regBuff=0: "
                 "algo=%s, proto=%s, channels=%d (nodes=%d, ranks=%d)", tuner_colls[func], bytes, tuner_algos[c->algo],
                 tuner_protos[c->proto], *channels, c->nodes, c->ranks);
        return;
    }
    nccl_log(3, SUBSYS_TUNING, dev, "TUNER/ExamplePlugin: No matching config found");
}

/*
 * NCCL_TUNER_PLUGIN as src/plugin/tuner.cc words it: from 2.28 "set by environment" and "Successfully loaded" ("none"
 * turns plugins off); 2.24 to 2.27 "TUNER/Plugin: NCCL_TUNER_PLUGIN set to" and "Using tuner plugin" with the plugin's
 * own name. The CSV example exports ncclTunerPlugin_v4 and later, which NCCL looks for from 2.24.
 */
static void tuner_plugin(const char *tuner, int dev) {
    int v = version();
    if (v >= 22800) {
        nccl_log(3, SUBSYS_ENV | SUBSYS_TUNING, dev, "NCCL_TUNER_PLUGIN set by environment to %s", tuner);
        if (strcasecmp(tuner, "none") == 0) {
            return;
        }
        nccl_log(3, SUBSYS_INIT | SUBSYS_TUNING, dev, "Successfully loaded external tuner plugin %s", tuner);
    } else {
        nccl_log(3, SUBSYS_ENV | SUBSYS_TUNING, dev, "TUNER/Plugin: NCCL_TUNER_PLUGIN set to %s", tuner);
        if (v < 22400) {
            nccl_log(3, SUBSYS_ENV | SUBSYS_TUNING, dev, "TUNER/Plugin: Failed to find ncclTunerPlugin_v2 symbol, using internal tuner instead.");
            return;
        }
        nccl_log(3, SUBSYS_ENV | SUBSYS_TUNING, dev, "TUNER/Plugin: Using tuner plugin Example");
    }
    tuner_loaded = 1;
    load_config(dev);
}

/* ---- the process's NCCL settings, read once, as NCCL reads them once per process ---- */

static pthread_mutex_t settings_lock = PTHREAD_MUTEX_INITIALIZER;
static int settings_read, settings_bad;
static int algo_enable[NFUNC * NALGO], proto_enable[NFUNC * NPROTO];

static void read_settings(int dev) {
    pthread_mutex_lock(&settings_lock);
    if (!settings_read) {
        settings_read = 1;
        const char *proto = getenv("NCCL_PROTO"), *algo = getenv("NCCL_ALGO"), *tuner = getenv("NCCL_TUNER_PLUGIN");
        for (int i = 0; i < NFUNC * NALGO; i++) {
            algo_enable[i] = 1;
        }
        for (int i = 0; i < NFUNC * NPROTO; i++) {
            proto_enable[i] = 1;
        }
        if (proto != NULL) {
            nccl_log(3, SUBSYS_ENV, dev, "NCCL_PROTO set by environment to %s", proto);
            settings_bad |= parse_list(proto, proto_tokens, NPROTO, proto_enable, dev);
        }
        if (algo != NULL) {
            nccl_log(3, SUBSYS_ENV, dev, "NCCL_ALGO set by environment to %s", algo);
            settings_bad |= parse_list(algo, algo_tokens, NALGO, algo_enable, dev);
        }
        if (tuner != NULL) {
            tuner_plugin(tuner, dev);
        }
    }
    pthread_mutex_unlock(&settings_lock);
}

void standin_cost_comm(const void *comm, int rank, int nranks, int dev) {
    read_settings(dev);
    nccl_log(3, SUBSYS_INIT, dev, "comm %p rank %d nRanks %d nNodes 1 localRanks %d localRank %d MNNVL 0", comm, rank, nranks, nranks,
             rank);
    if (tuner_loaded) {
        nccl_log(3, SUBSYS_TUNING, dev, "TUNER/ExamplePlugin: Initializing tuner for 1 nodes, %d ranks, 0 NVL domains", nranks);
    }
}

/* ---- the model ---- */

struct planted {
    int func, algo, proto;
    size_t lo, hi;
    double factor;
};

/* STANDIN_NCCL_COST_WIN=allreduce:ring/ll128:524288-2097152:0.6, or "none" */
static int planted(struct planted *p) {
    const char *w = getenv("STANDIN_NCCL_COST_WIN");
    if (w == NULL) {
        *p = (struct planted){STANDIN_ALLREDUCE, ALGO_RING, PROTO_LL128, 524288, 2097152, 0.6};
        return 1;
    }
    char coll[32], algo[32], proto[32];
    unsigned long long lo, hi;
    double f;
    if (strcmp(w, "none") == 0 || sscanf(w, "%31[a-z]:%31[a-z_]/%31[a-z0-9]:%llu-%llu:%lf", coll, algo, proto, &lo, &hi, &f) != 6) {
        return 0;
    }
    *p = (struct planted){index_of(coll, tuner_colls, NFUNC, -1), index_of(algo, tuner_algos, NALGO, -1),
                          index_of(proto, tuner_protos, NPROTO, -1), (size_t)lo, (size_t)hi, f};
    return p->func >= 0 && p->algo >= 0 && p->proto >= 0;
}

static int available(int func, int algo) {
    return algo == ALGO_RING || (algo == ALGO_TREE && func == STANDIN_ALLREDUCE);
}

/* Time relative to Ring/Simple; truth differs from NCCL's belief only in the planted range. */
static double factor(int func, int algo, int proto, size_t bytes, int truth) {
    struct planted p;
    if (truth && planted(&p) && p.func == func && p.algo == algo && p.proto == proto && bytes >= p.lo && bytes <= p.hi) {
        return p.factor;
    }
    int small = bytes <= 16384;
    if (algo == ALGO_RING) {
        return proto == PROTO_SIMPLE ? 1.0 : proto == PROTO_LL ? (small ? 0.8 : 1.4) : 1.35;
    }
    return proto == PROTO_SIMPLE ? 1.15 : proto == PROTO_LL ? (small ? 0.9 : 1.5) : 1.45;
}

static double base_us(int func, size_t bytes, int nranks) {
    double moved = func == STANDIN_ALLREDUCE ? 2.0 * (nranks - 1) / nranks
                   : func == STANDIN_ALLGATHER || func == STANDIN_REDUCESCATTER ? (double)(nranks - 1) / nranks
                                                                               : 1.0;
    return 1500.0 + 250.0 * log2((double)(nranks > 1 ? nranks : 1)) + moved * (double)bytes / 1000.0;
}

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/*
 * Rank 0's TUNING line per collective, as each version of enqueue.cc words it: from 2.24 the function, the call's count
 * times the type's size (one rank's share for allgather and reducescatter), names and channels; 2.23 the function,
 * nBytes (the whole collective) and the enums' numbers; 2.20 to 2.22 nBytes and numbers only; 2.19 nothing.
 */
static void tuning_line(int func, size_t callBytes, size_t nBytes, int algo, int proto, int channels, float time, int dev) {
    int v = version();
    if (v >= 22400) {
        nccl_log(3, SUBSYS_TUNING, dev, "%s: %zu Bytes -> Algo %s proto %s channel{Lo..Hi}={0..%d}", func_tokens[func], callBytes,
                 algo_logged[algo], proto_logged[proto], channels - 1);
    } else if (v >= 22300) {
        nccl_log(3, SUBSYS_TUNING, dev, "%s: %zu Bytes -> Algo %d proto %d time %f", func_tokens[func], nBytes, algo, proto, time);
    } else if (v >= 22000) {
        nccl_log(3, SUBSYS_TUNING, dev, "%zu Bytes -> Algo %d proto %d time %f", nBytes, algo, proto, time);
    }
}

/*
 * A factor within 1 +- 1 % per call, from a per-process xorshift seeded by the process id: the spread a real GPU's
 * timings have, bounded, so that repeated runs differ (statistics over runs need a spread) while no run leaves the
 * model by more than 1 %, on a loaded host too (events read the modelled clock).
 */
static double jitter(void) {
    static _Thread_local uint64_t x;
    if (x == 0) {
        x = 0x9E3779B97F4A7C15ULL ^ ((uint64_t)getpid() << 17) ^ (uint64_t)syscall(SYS_gettid);
    }
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return 0.99 + 0.02 * (double)(x >> 11) / 9007199254740992.0;
}

int standin_cost_choose(struct standin_cost *out, int func, size_t count, size_t elt, int type, int nranks, int rank, int dev) {
    read_settings(dev);
    out->called_ns = now_ns();
    out->model_ns = 0;
    if (settings_bad) {
        return 5; /* ncclInvalidUsage: NCCL fails the communicator's initialisation; here, each collective */
    }
    /* the tuner's nBytes: ncclFuncMaxSendRecvCount (src/include/enqueue.h), the nccl-tests size */
    size_t bytes = count * elt * (func == STANDIN_ALLGATHER || func == STANDIN_REDUCESCATTER ? (size_t)nranks : 1);
    float table[NALGO][NPROTO];
    for (int a = 0; a < NALGO; a++) {
        for (int p = 0; p < NPROTO; p++) {
            int on = available(func, a) && algo_enable[func * NALGO + a] && proto_enable[func * NPROTO + p];
            table[a][p] = on ? (float)(base_us(func, bytes, nranks) * factor(func, a, p, bytes, 0)) : IGNORE;
        }
    }
    int channels = 2;
    if (tuner_loaded) {
        tuner_apply(table, func, bytes, nranks, &channels, dev);
    }
    int algo = -1, proto = -1;
    float best = 3.6e9f;
    for (int a = 0; a < NALGO; a++) {
        for (int p = 0; p < NPROTO; p++) {
            if (table[a][p] >= 0 && table[a][p] < best) {
                best = table[a][p];
                algo = a;
                proto = p;
            }
        }
    }
    if (algo < 0 && version() < 22400) { /* before 2.24 a function with nothing left got Ring back (tuning.cc check_avail) */
        for (int p = 0; p < NPROTO; p++) {
            float t = (float)(base_us(func, bytes, nranks) * factor(func, ALGO_RING, p, bytes, 0));
            if (t < best) {
                best = t;
                algo = ALGO_RING;
                proto = p;
            }
        }
    }
    if (algo < 0) {
        const char *a = getenv("NCCL_ALGO"), *p = getenv("NCCL_PROTO");
        nccl_log(2, 0, dev, "Error : no algorithm/protocol available for function %s with datatype %s.%s%s%s%s%s%s", func_tokens[func],
                 type >= 0 && type < 12 ? type_names[type] : "Unknown", a ? " NCCL_ALGO was set to " : "", a ? a : "", a ? "." : "",
                 p ? " NCCL_PROTO was set to " : "", p ? p : "", p ? "." : "");
        return a != NULL || p != NULL ? 5 : 3;
    }
    out->algo = algo;
    out->proto = proto;
    if (rank == 0) {
        tuning_line(func, count * elt, bytes, algo, proto, channels, best, dev);
    }
    const char *on = getenv("STANDIN_NCCL_COST"), *scale = getenv("STANDIN_NCCL_COST_SCALE");
    if (on != NULL && strcmp(on, "1") == 0) {
        double us = base_us(func, bytes, nranks) * factor(func, algo, proto, bytes, 1) * (scale != NULL ? atof(scale) : 1.0);
        out->model_ns = (int64_t)(us * 1000.0 * jitter());
    }
    return 0;
}

/*
 * Per stream (its worker thread): a call starts when it was called or when the previous call on this stream was
 * modelled to end, whichever is later, and ends one model time after; a late wake-up is made up by the next call.
 */
static __thread int64_t stream_end;
static __thread int slack_set;

void standin_cost_wait(const struct standin_cost *c) {
    if (c->model_ns <= 0) {
        return;
    }
    if (!slack_set) { /* the default 50 us timer slack would add to every wait */
        prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
        slack_set = 1;
    }
    int64_t start = c->called_ns > stream_end ? c->called_ns : stream_end;
    stream_end = start + c->model_ns;
    struct timespec until = {(time_t)(stream_end / 1000000000LL), (long)(stream_end % 1000000000LL)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR) {
    }
    standin_stream_model(c->model_ns);
}
