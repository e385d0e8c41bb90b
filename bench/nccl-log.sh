#!/usr/bin/env bash
# Streams two generated NCCL debug logs of SIZE_MB each (default 1024) through `parse nccl-log` and compares each rate
# with `grep -c 'NCCL INFO'` on the same file (target: at least half of grep's speed, heap capped at 256 MiB):
#   ops:  an initialisation per communicator, then many per-operation lines (NCCL_DEBUG_SUBSYS=COLL) and application
#         output between them;
#   init: initialisation lines only, as NCCL_DEBUG_SUBSYS=ALL prints them, for a job of 512 nodes x 8 GPUs (4,096
#         processes, their lines interleaved in bursts) initialising one communicator after another: every message
#         kind of 2.27's init in its real proportions (network and plugin lines, the topology dump, rings, trees,
#         channel connections with their proxy and allocation lines, GDR decisions, Init START/COMPLETE).
# Both files are synthetic (generated below, for scale), each run is timed RUNS times (default 3), and every figure is
# printed, so that a slow or noisy machine shows as such. Usage: bench/nccl-log.sh [SIZE_MB] [RUNS] [SHAPES...]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
size_mb="${1:-1024}"
runs="${2:-3}"
shift $(( $# > 2 ? 2 : $# ))
shapes=(ops init)
[ $# -gt 0 ] && shapes=("$@")
dir="${TMPDIR:-/tmp}"
"$root/nccl-doctor" --version >/dev/null

generate() { # shape path size_mb
  python3 - "$@" <<'PY'
import random, sys
shape, path, mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
limit = mb * 1024 * 1024

def ops():
    # An initialisation block (version, network, channels, GDR decisions, communicator) per communicator, then many
    # per-operation lines and some application output between them.
    init = "".join([
        "node01:12345:12345 [0] NCCL INFO NCCL version 2.27.5+cuda12.9\n",
        "node01:12345:12400 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE ; OOB eth0:10.0.0.1<0>\n",
        "node01:12345:12400 [0] NCCL INFO GPU Direct RDMA Disabled for GPU 1 / HCA 0 (distance 8 > 5)\n",
    ] + ["node01:12345:12400 [0] NCCL INFO Channel %02d/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA\n" % c for c in range(32)] + [
        "node01:12345:12400 [0] NCCL INFO comm 0x5566 rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 18000 commId 0x1 - Init COMPLETE\n"])
    block = init + "".join(["node01:12345:12400 [0] NCCL INFO AllReduce: opCount %x sendbuff 0x7f12a0000000 recvbuff 0x7f12a0000000 "
                            "count 262144 datatype 7 op 0 root 0 comm 0x5566 [nranks=16] stream 0x55aa\n" % i for i in range(900)]
                           + ["[rank0]: step 1234 loss 2.345 lr 0.0001 tokens/s 123456\n"] * 100)
    with open(path, "w") as f:
        written = 0
        while written < limit:
            f.write(block)
            written += len(block)

NODES, GPUS = 512, 8
NRANKS = NODES * GPUS
BUS = ["18000", "2a000", "3a000", "5d000", "9a000", "ab000", "ba000", "db000"]
NIC = ["mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_11"]

def topology(node):
    # ncclTopoPrint (graph/topo.cc): two CPUs, a PCIe switch per GPU and NIC pair, NVSwitch, then each GPU's and NET's paths.
    out = ["=== System : maxBw 48.0 totalBw 370.8 ===", "CPU/0-0 (1/2/-1)", "+ SYS[16.0] - CPU/0-1"]
    for g in range(GPUS):
        if g == 4:
            out += ["CPU/0-1 (1/2/-1)", "+ SYS[16.0] - CPU/0-0"]
        b = int(BUS[g], 16)
        out += ["+ PCI[48.0] - PCI/0-%x (1000c0101000a000)" % (b - 0x1000),
                "              + PCI[48.0] - GPU/0-%x (%d)" % (b, node * GPUS + g),
                "                            + NVL[370.8] - NVS/0-0",
                "              + PCI[48.0] - NIC/0-%x" % (b + 0x1000),
                "                            + NET[50.0] - NET/0-%d (0/%016x/1/50.000000)" % (g, 0xa87cb10003e1a258 + g)]
    out.append("==========================================")
    for g in range(GPUS):
        out.append("GPU/0-%s :" % BUS[g] + "".join("GPU/0-%s (%d/%s/%s) " % (BUS[h], 0 if h == g else 1, "5000.0" if h == g else "370.8",
                   "LOC" if h == g else "NVL") for h in range(GPUS)) + "".join("NET/0-%d (%d/48.0/%s) " % (n, 2 if n == g else 5,
                   "PXB" if n == g else "SYS") for n in range(GPUS)) + "CPU/0-0 (1/48.0/PHB) CPU/0-1 (2/16.0/SYS) ")
    return out

def proxy(rnd, g, peer):
    # What NCCL_DEBUG_SUBSYS=ALL prints while a network connection is set up through the proxy (as in NVIDIA/nccl#1657).
    op = "0x7f%010x" % rnd.getrandbits(40)
    return ["New proxy send connection %d from local rank %d, transport 2" % (peer, g),
            "proxyProgressAsync opId=%s op.type=1 op.reqBuff=0x7f4ff8000bb0 op.respSize=16 done" % op,
            "ncclPollProxyResponse Received new opId=%s" % op, "resp.opId=%s matches expected opId=%s" % (op, op),
            "Received and initiated operation=Init res=0", "Allocated 4194656 bytes of shared memory in /dev/shm/nccl-%06x" % rnd.getrandbits(24),
            "transport/net.cc:%d Cuda Alloc Size 4194304 pointer 0x7f%010x" % (rnd.choice([627, 1041]), rnd.getrandbits(40))]

def rank_init(rnd, comm, node, g, commid):
    rank = node * GPUS + g
    pid = 40000 + node * 17 + g
    ip = "10.%d.%d.%d" % (node >> 8, node & 255, 10 + g)
    p0 = "node%04d:%d:%d [%d] NCCL INFO " % (node, pid, pid, g)
    p = "node%04d:%d:%d [%d] NCCL INFO " % (node, pid, pid + 93, g)
    L = []
    if comm == 0:
        L += [p0 + "Bootstrap: Using eth0:%s<0>" % ip, p0 + "cudaDriverVersion 12080", p0 + "NCCL version 2.27.5+cuda12.9",
              p0 + "Comm config Blocking set to 1", p + "NET/Plugin: Could not find: libnccl-net.so. Using internal net plugin.",
              p + "NCCL_IB_HCA set by environment to mlx5_0,mlx5_1,mlx5_2,mlx5_3,mlx5_4,mlx5_5,mlx5_6,mlx5_11",
              p + "NET/IB : Using " + " ".join("[%d]%s:1/RoCE" % (i, n) for i, n in enumerate(NIC)) + " [RO]; OOB eth0:%s<0>" % ip,
              p + "Initialized NET plugin IB", p + "Assigned NET plugin IB to comm", p + "Using network IB",
              p + "DMA-BUF is available on GPU device %d" % g]
    c = "0x%x" % (0x55d1c8a00000 + rank * 4096 + comm)
    L += [p + "ncclCommInitRankConfig comm %s rank %d nranks %d cudaDev %d nvmlDev %d busId %s commId %s - Init START" % (c, rank, NRANKS, g, g, BUS[g], commid),
          p + "RAS client listening socket at ::1<28028>",
          p + "Bootstrap timings total 0.812345 (create 0.000031, send 0.000122, recv 0.512345, ring 0.212345, delay 0.000001)",
          p + "NVLS multicast support is available on dev %d (NVLS_NCHANNELS 16)" % g]
    L += [p + "NET/IB : GPU Direct RDMA Enabled for HCA %d '%s'" % (i, n) for i, n in enumerate(NIC)]
    L += [p + t for t in topology(node)]
    L += [p + "Setting affinity for GPU %d to ffffffff,00000000,ffffffff" % g,
          p + "Pattern 4, crossNic 0, nChannels 16, bw 40.000000/40.000000, type NVL/PIX, sameChannels 1"]
    L += [p + "%2d : NET/0-%d GPU/0-%s GPU/0-%s GPU/0-%s NET/0-%d" % (ch, ch % 8, BUS[0], BUS[1], BUS[7], ch % 8) for ch in range(16)]
    L += [p + "comm %s rank %d nRanks %d nNodes %d localRanks %d localRank %d MNNVL 0" % (c, rank, NRANKS, NODES, GPUS, g)]
    L += [p + "GPU Direct RDMA Enabled for GPU %d / HCA %d (distance 5 <= 5), read 1 mode Default" % (rank, n) for n in (g, (g + 1) % 8)]
    L += [p + "Tree %d : %d -> %d -> %d/-1/-1" % (t, rank - 1, rank, rank + 1) for t in range(4)]
    L += [p + "Ring %02d : %d -> %d -> %d" % (ch, (rank - 1) % NRANKS, rank, (rank + 1) % NRANKS) for ch in range(32)]
    L += [p + "Trees [0] %d/-1/-1->%d->%d [1] %d/-1/-1->%d->%d" % (rank + 1, rank, rank - 1, rank + 1, rank, rank - 1),
          p + "P2P Chunksize set to 131072"]
    if rank == 0:
        L += [p + "Channel %02d/32 : " % ch + " ".join("%4d" % r for r in range(NRANKS)) for ch in range(32)]
    for ch in range(32):
        if g in (0, 7):
            way = "[send] via NET/IB/%d/GDRDMA" % (ch % 8) if g == 7 else "[receive] via NET/IB/%d/GDRDMA" % (ch % 8)
            L.append(p + "Channel %02d/0 : %d[%d] -> %d[%d] %s" % (ch, rank, g, (rank + 1) % NRANKS, (g + 1) % 8, way))
            L += [p + x for x in proxy(rnd, g, ch)]
        L.append(p + "Channel %02d/0 : %d[%d] -> %d[%d] via P2P/CUMEM/read" % (ch, rank, g, rank + 1, (g + 1) % 8))
        L.append(p + "transport/p2p.cc:%d Cuda Alloc Size 2097152 pointer 0x7f%010x" % (rnd.choice([163, 275]), rnd.getrandbits(40)))
    L += [p + "Connected all rings, use ring PXN 0 GDR 1"]
    for ch in range(16):
        L.append(p + "Channel %02d/0 : %d[%d] -> %d[%d] via P2P/CUMEM/read" % (ch, rank, g, rank - 1, (g - 1) % 8))
        L.append(p + "transport/p2p.cc:275 Cuda Alloc Size 2097152 pointer 0x7f%010x" % rnd.getrandbits(40))
    L += [p + "Connected all trees",
          p + "NVLS comm %s headRank %d nHeads 8 nvlsRanks 8 buffSize 1048576 nvlsPerRankSize 201326592 nvlsTotalSize 1610612736" % (c, g),
          p + "Connected NVLS", p + "threadThresholds 8/8/64 | 32768/8/64 | 512 | 512",
          p + "32 coll channels, 32 collnet channels, 16 nvls channels, 32 p2p channels, 32 p2p channels per peer",
          p + "CC Off, workFifoBytes 1048576", p + "TUNER/Plugin: Could not find: libnccl-tuner.so. Using internal tuner plugin.",
          p + "ncclCommInitRankConfig comm %s rank %d nranks %d cudaDev %d nvmlDev %d busId %s commId %s - Init COMPLETE" % (c, rank, NRANKS, g, g, BUS[g], commid),
          p + "Init timings - ncclCommInitRankConfig: rank %d nranks %d total 3.21 (kernels 0.15, alloc 0.11, bootstrap 0.82, allgathers 0.04, "
              "topo 0.59, graphs 0.02, connections 1.41, rest 0.07)" % (rank, NRANKS)]
    return L

def init():
    rnd = random.Random(7)
    with open(path, "w") as f:
        written, comm = 0, 0
        while written < limit:
            commid = "0x%016x" % rnd.getrandbits(64)
            for node in range(NODES):
                # the 8 processes of a node write at once: their lines interleave in bursts of 1 to 24
                blocks = [rank_init(rnd, comm, node, g, commid) for g in range(GPUS)]
                pos, live, out = [0] * GPUS, list(range(GPUS)), []
                while live:
                    g = rnd.choice(live)
                    n = rnd.randint(1, 24)
                    out.extend(blocks[g][pos[g]:pos[g] + n])
                    pos[g] += n
                    if pos[g] >= len(blocks[g]):
                        live.remove(g)
                s = "\n".join(out) + "\n"
                f.write(s)
                written += len(s)
                if written >= limit:
                    break
            comm += 1

ops() if shape == "ops" else init()
PY
}

for shape in "${shapes[@]}"; do
  log="$dir/nccl-doctor-bench-$shape.log"
  generate "$shape" "$log" "$size_mb"
  bytes=$(stat -c %s "$log")
  for run in $(seq 1 "$runs"); do
    # (not to /dev/null: GNU grep then stops at the first match)
    t0=$(date +%s%N); grep -c 'NCCL INFO' "$log" > "$log.count"; t1=$(date +%s%N)
    NCCL_DOCTOR_JAVA_OPTS=-Xmx256m /usr/bin/time -f "%M %U %S" -o "$log.rss" "$root/nccl-doctor" parse nccl-log "$log" >/dev/null
    t2=$(date +%s%N)
    read -r rss user sys < "$log.rss"
    grep_mbs=$(( bytes * 1000 / (t1 - t0) ))
    ours_mbs=$(( bytes * 1000 / (t2 - t1) ))
    echo "$shape log $((bytes / 1048576)) MiB, run $run: grep -c ${grep_mbs} MB/s, ./nccl-doctor parse nccl-log ${ours_mbs} MB/s" \
      "= $(( ours_mbs * 100 / grep_mbs )) % of grep (target: at least 50 %), JVM start included" \
      "(${user} s user + ${sys} s system CPU; heap capped at 256 MiB, peak RSS ${rss} KiB)"
  done
  rm -f "$log" "$log.rss" "$log.count"
done
