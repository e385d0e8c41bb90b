/*
 * The libnccl stand-in's cost model and algorithm choice (cost.c): which algorithm and protocol a collective runs
 * with (NCCL's own choice from its cost table, NCCL_ALGO and NCCL_PROTO in NCCL's syntax, a tuner configuration in
 * the format of NCCL's example tuner plugin), the TUNING lines NCCL logs for it, and how long it takes.
 * Test double only; README.md beside this file lists the variables.
 */
#ifndef STANDIN_COST_H
#define STANDIN_COST_H

#include <stddef.h>
#include <stdint.h>

/* ncclFunc_t's order (nccl_common.h), which the example tuner's collType uses */
enum { STANDIN_BROADCAST, STANDIN_REDUCE, STANDIN_ALLGATHER, STANDIN_REDUCESCATTER, STANDIN_ALLREDUCE };

/* What one collective call was given: NCCL_ALGO_* and NCCL_PROTO_* numbers, and its modelled time. */
struct standin_cost {
    int algo, proto;
    int64_t called_ns; /* CLOCK_MONOTONIC at the call: when the GPU could have started it at the earliest */
    int64_t model_ns;  /* 0 when STANDIN_NCCL_COST is unset: the collective takes what the copies take */
};

/* A communicator came up: NCCL's INIT line with its node count, and (once per process) the environment and tuner lines. */
void standin_cost_comm(const void *comm, int rank, int nranks, int dev);

/* Chooses for one call and logs the TUNING line on rank 0; 0, or ncclInvalidUsage/ncclInternalError as NCCL returns. */
int standin_cost_choose(struct standin_cost *out, int func, size_t count, size_t elt, int type, int nranks, int rank, int dev);

/* On the stream: waits until the modelled end of this call (calls queued on one stream end one model time apart). */
void standin_cost_wait(const struct standin_cost *c);

#endif
