/*
 * Host-memory stand-in for libibverbs.so.1: what `gdr --active` calls (verbs.h of rdma-core: ibv_get_device_list,
 * ibv_free_device_list, ibv_get_device_name, ibv_open_device, ibv_close_device, ibv_alloc_pd, ibv_dealloc_pd,
 * ibv_reg_mr, ibv_reg_dmabuf_mr, ibv_dereg_mr), with errno as rdma-core sets it.
 *
 * STANDIN_IBV_DEVICES=n HCAs named mlx5_0 ... (default 2; 0 gives an empty, still allocated list).
 * ibv_reg_mr of memory the libcuda stand-in allocated works only with STANDIN_IBV_PEERMEM=1 (nvidia_peermem
 * loaded), else EFAULT as without it. ibv_reg_dmabuf_mr with fd -1 fails with EBADF (NCCL's probe: DMA-BUF memory
 * regions are supported), with a memfd it registers, and with STANDIN_IBV_DMABUF=0 it fails with EOPNOTSUPP.
 * ibv_query_port (the IBVERBS_1.1 symbol with the compat port attributes) reports one ACTIVE InfiniBand port per
 * HCA at 4X NDR (400 Gb/s), or at STANDIN_IBV_WIDTH and STANDIN_IBV_SPEED (verbs.h codes: width 1X 1, 4X 2, 8X 4,
 * 12X 8, 2X 16; speed SDR 1, DDR 2, QDR 4, FDR10 8, FDR 16, EDR 32, HDR 64, NDR 128).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>

#include "standin.h"

struct ibv_device {
    char name[64];
};

struct ibv_context {
    struct ibv_device *device;
};

struct ibv_pd {
    struct ibv_context *context;
};

struct ibv_mr {
    struct ibv_pd *pd;
    void *addr;
    size_t length;
};

static struct ibv_device devices[64];
static atomic_int lists, contexts, pds, mrs;

static int device_count(void) {
    const char *n = getenv("STANDIN_IBV_DEVICES");
    int count = n == NULL ? 2 : atoi(n);
    return count < 0 ? 0 : count > 64 ? 64 : count;
}

struct ibv_device **ibv_get_device_list(int *num) {
    const char *sys = getenv("STANDIN_IBV_ENOSYS");
    if (sys != NULL && strcmp(sys, "1") == 0) { /* rdma-core on a kernel without uverbs: ibv_get_device_list(3) */
        standin_trace("ibv get-device-list enosys");
        errno = ENOSYS;
        return NULL;
    }
    int n = device_count();
    struct ibv_device **list = calloc((size_t)n + 1, sizeof *list);
    for (int i = 0; i < n; i++) {
        snprintf(devices[i].name, sizeof devices[i].name, "mlx5_%d", i);
        list[i] = &devices[i];
    }
    if (num != NULL) {
        *num = n;
    }
    atomic_fetch_add(&lists, 1);
    standin_trace("ibv get-device-list n=%d", n);
    return list;
}

void ibv_free_device_list(struct ibv_device **list) {
    atomic_fetch_sub(&lists, 1);
    standin_trace("ibv free-device-list");
    free(list);
}

const char *ibv_get_device_name(struct ibv_device *device) {
    return device->name;
}

struct ibv_context *ibv_open_device(struct ibv_device *device) {
    struct ibv_context *c = calloc(1, sizeof *c);
    c->device = device;
    atomic_fetch_add(&contexts, 1);
    return c;
}

int ibv_close_device(struct ibv_context *context) {
    atomic_fetch_sub(&contexts, 1);
    free(context);
    return 0;
}

struct ibv_pd *ibv_alloc_pd(struct ibv_context *context) {
    struct ibv_pd *pd = calloc(1, sizeof *pd);
    pd->context = context;
    atomic_fetch_add(&pds, 1);
    return pd;
}

int ibv_dealloc_pd(struct ibv_pd *pd) {
    atomic_fetch_sub(&pds, 1);
    free(pd);
    return 0;
}

static struct ibv_mr *mr(struct ibv_pd *pd, void *addr, size_t length) {
    struct ibv_mr *m = calloc(1, sizeof *m);
    m->pd = pd;
    m->addr = addr;
    m->length = length;
    atomic_fetch_add(&mrs, 1);
    return m;
}

struct ibv_mr *ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length, int access) {
    (void)access;
    const char *peermem = getenv("STANDIN_IBV_PEERMEM");
    if (peermem == NULL || strcmp(peermem, "1") != 0) {
        errno = EFAULT;
        return NULL;
    }
    return mr(pd, addr, length);
}

struct ibv_mr *ibv_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset, size_t length, uint64_t iova, int fd, int access) {
    (void)offset;
    (void)access;
    const char *dmabuf = getenv("STANDIN_IBV_DMABUF");
    if (dmabuf != NULL && strcmp(dmabuf, "0") == 0) {
        errno = EOPNOTSUPP;
        return NULL;
    }
    if (fd < 0 || fcntl(fd, F_GETFD) < 0) {
        errno = EBADF;
        return NULL;
    }
    return mr(pd, (void *)(uintptr_t)iova, length);
}

/* struct _compat_ibv_port_attr of rdma-core libibverbs/verbs.c: what the IBVERBS_1.1 ibv_query_port fills */
struct compat_port_attr {
    int state, max_mtu, active_mtu, gid_tbl_len;
    uint32_t port_cap_flags, max_msg_sz, bad_pkey_cntr, qkey_viol_cntr;
    uint16_t pkey_tbl_len, lid, sm_lid;
    uint8_t lmc, max_vl_num, sm_sl, subnet_timeout, init_type_reply, active_width, active_speed, phys_state,
        link_layer, flags;
};

static uint8_t port_code(const char *var, int fallback) {
    const char *v = getenv(var);
    return (uint8_t)(v == NULL ? fallback : atoi(v));
}

int ibv_query_port(struct ibv_context *context, uint8_t port, struct compat_port_attr *attr) {
    if (context == NULL || attr == NULL || port != 1) {
        return EINVAL;
    }
    memset(attr, 0, sizeof *attr);
    attr->state = 4;      /* IBV_PORT_ACTIVE */
    attr->max_mtu = 5;    /* IBV_MTU_4096 */
    attr->active_mtu = 5;
    attr->lid = 1;
    attr->sm_lid = 1;
    attr->active_width = port_code("STANDIN_IBV_WIDTH", 2);
    attr->active_speed = port_code("STANDIN_IBV_SPEED", 128);
    attr->phys_state = 5; /* LinkUp */
    attr->link_layer = 1; /* IBV_LINK_LAYER_INFINIBAND */
    return 0;
}

int ibv_dereg_mr(struct ibv_mr *m) {
    atomic_fetch_sub(&mrs, 1);
    free(m);
    return 0;
}

__attribute__((destructor)) static void at_exit(void) {
    standin_trace("ibv exit lists=%d contexts=%d pds=%d mrs=%d", atomic_load(&lists), atomic_load(&contexts),
                  atomic_load(&pds), atomic_load(&mrs));
}
