#!/usr/bin/env python3
"""Writes configs/examples/field-report-cluster: EXAMPLE DATA shaped after the field report's cluster (three nodes,
dual-rail 100G RoCE, one Arrow Lake node), so that `nccl-doctor report configs/examples/field-report-cluster -o
example.html` shows every chart and every pattern. Nothing here is a measurement. Deterministic: rerunning gives the
same files. The node capture is copied from pcie-inspect's arrowlake-ws fixture (see its README)."""
import json, math, os, shutil, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "configs", "examples", "field-report-cluster")
HOSTS = ["node1", "node2", "arrowlake-ws"]
GPUS = ["NVIDIA RTX PRO 6000 Blackwell Workstation Edition"] * 3
BUSIDS = ["0000:01:00", "0000:01:00", "0000:01:00"]
MIB = 1 << 20

BINARIES = {"allreduce": "all_reduce_perf", "allgather": "all_gather_perf", "alltoall": "alltoall_perf",
            "broadcast": "broadcast_perf"}
# nccl-tests: busbw = algbw x factor (n ranks)
FACTOR = {"allreduce": lambda n: 2 * (n - 1) / n, "allgather": lambda n: (n - 1) / n, "alltoall": lambda n: (n - 1) / n,
          "broadcast": lambda n: 1.0}


def healthy(size, plateau, half=4 * MIB):
    """A sweep that rises with size and levels off at plateau (GB/s)."""
    return plateau * size / (size + half)


def table(collective, ranks, hosts, sizes, busbw, inplace=None, wrong=None, redop="sum"):
    n = ranks
    lines = ["# nccl-tests version 2.17.1 nccl-headers=22705 nccl-library=22705",
             "# Collective test starting: " + BINARIES[collective],
             "# nThread 1 nGpus 1 minBytes %d maxBytes %d step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0"
             % (sizes[0], sizes[-1]),
             "#", "# Using devices"]
    for r in range(n):
        lines.append("#  Rank %2d Group  0 Pid %6d on %12s device  0 [%s] %s" % (r, 41000 + r, hosts[r], BUSIDS[r % 3], GPUS[r % 3]))
    lines += ["#",
              "#                                                              out-of-place                       in-place          ",
              "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong ",
              "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)         "]
    f = FACTOR[collective](n)
    total = 0.0
    for i, s in enumerate(sizes):
        out_bus = busbw(s)
        in_bus = inplace(s) if inplace else out_bus
        cols = []
        for bus, w in ((out_bus, (wrong or {}).get(s, 0)), (in_bus, 0)):
            alg = bus / f if f > 0 else bus
            t = s / (alg * 1e3) if alg > 0 else 1.0
            cols.append("%8.2f %7.2f %7.2f %7d" % (t, alg, bus, w))
        count = s // 4 if collective in ("allreduce", "broadcast") else s // 4 // n
        lines.append("%12d  %12d     float  %6s  %6d %s %s" % (s, count, redop if collective == "allreduce" else "none",
                                                              0 if collective == "broadcast" else -1, cols[0], cols[1]))
        total += out_bus
    bad = sum((wrong or {}).values())
    lines += ["# Out of bounds values : %d %s" % (bad, "FAILED" if bad else "OK"),
              "# Avg bus bandwidth    : %.4f " % (total / len(sizes)), "#",
              "# Collective test concluded: " + BINARIES[collective], "#"]
    return "\n".join(lines) + "\n"


def sizes(lo, hi):
    s, out = lo, []
    while s <= hi:
        out.append(s)
        s *= 2
    return out


def write(name, text):
    with open(os.path.join(OUT, name), "w") as f:
        f.write(text)


def placement(size, bus, n, wrong=0):
    alg = bus / ((n - 1) / n)
    return {"timeUs": round(size / (alg * 1e3), 2), "algBwGBps": round(alg, 2), "busBwGBps": round(bus, 2),
            "wrong": {"value": wrong}, "maxError": {"absent": "the #wrong layout counts wrong elements instead"}}


def harness():
    """`nccl-doctor run --json --conditioning none` of a 3-rank alltoall sized like hand-made tensors. Sizes that are a
    multiple of 48 bytes (3 ranks x 16) split into 16-byte-aligned per-peer chunks, as nccl-tests would size them;
    sizes 8 bytes short of a power of two do not (the field report's 178,956,968-byte chunks)."""
    n, rows = 3, []
    for s in sizes(MIB, 1 << 30):
        for size, aligned in ((s - s % 48, True), (s - 8, False)) if s >= 16 * MIB else ((s - s % 48, True),):
            count = size // 4 // n  # per peer, as the run's count column says for alltoall
            chunk = count * 4
            bus = healthy(size, 5.2) if aligned else healthy(size, 5.2) * 0.23
            inbus = bus * (0.62 if size >= 64 * MIB else 1.0)
            rows.append({"row": {"sizeBytes": size, "count": count, "type": "float", "redop": {"value": "none"}, "root": {"value": -1},
                                 "outOfPlace": placement(size, bus, n), "inPlace": {"value": placement(size, inbus, n)}},
                         "chunkBytes": chunk, "chunksAligned": aligned and chunk % 16 == 0})
    return {"launch": {"rank": 0, "worldSize": 3, "localRank": 0, "source": "torchrun (RANK, WORLD_SIZE, LOCAL_RANK)"},
            "result": {"ncclVersion": "2.27.5", "worldSize": n,
                       "plan": {"collective": "alltoall", "type": "FLOAT32", "op": "sum", "root": 0, "minBytes": MIB,
                                "maxBytes": 1 << 30, "stepFactor": 2, "warmup": 5, "iters": 20, "check": True,
                                "conditioning": "NONE", "offsetBytes": 0, "aggregate": "AVG", "timeoutSeconds": 300},
                       "sizes": rows, "failure": {"absent": "the sweep completed"}}}


def perftest(gbps):
    head = """---------------------------------------------------------------------------------------
                    RDMA_Read BW Test
 Dual-port       : OFF		Device         : mlx5_0
 Number of qps   : 1		Transport type : IB
 Connection type : RC		Using SRQ      : OFF
 TX depth        : 128
 CQ Moderation   : 100
 Mtu             : 4096[B]
 Link type       : Ethernet
 GID index       : 3
 Outstand reads  : 16
 rdma_cm QPs	 : OFF
 Data ex. method : Ethernet
---------------------------------------------------------------------------------------
 local address: LID 0000 QPN 0x0107 PSN 0x5a1c2e OUT 0x10 RKey 0x1fff00 VAddr 0x007f4ea0000000
 GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:00:00:05
 remote address: LID 0000 QPN 0x00e9 PSN 0x91f3ab OUT 0x10 RKey 0x1ff3f2 VAddr 0x007f8c10000000
 GID: 00:00:00:00:00:00:00:00:00:00:255:255:10:00:00:07
---------------------------------------------------------------------------------------
 #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]
"""
    return head + " %-10d %-14d %-18.2f %-20.2f %.6f\n" % (1048576, 1000, gbps + 0.05, gbps, gbps * 1e9 / 8 / 1048576 / 1e6) + \
        "---------------------------------------------------------------------------------------\n"


def main():
    os.makedirs(OUT, exist_ok=True)  # report.yaml and README.md there are written by hand and kept
    if os.path.isdir(os.path.join(OUT, "arrowlake-ws")):
        shutil.rmtree(os.path.join(OUT, "arrowlake-ws"))
    shutil.copytree(os.path.join(ROOT, "pcie-inspect/src/test/resources/fixtures/captures/arrowlake-ws"), os.path.join(OUT, "arrowlake-ws"), symlinks=True)
    sweep = sizes(8, 8 << 30)
    plateau = 6.9  # GB/s: just under the Arrow Lake node's Gen3 x8 NIC slot, 7.2 GB/s
    write("allreduce.txt", table("allreduce", 3, HOSTS, sweep, lambda s: healthy(s, plateau)))
    flooded = 5203 * MIB / 1e9  # the field report's 5,203 MiB/s, the same for every size from 1 KiB up
    write("allreduce-arrowlake-p2p.txt", table("allreduce", 3, HOSTS, sizes(8, 8 * MIB),
                                               lambda s: min(healthy(s, 40, 4096), flooded)))
    ag = plateau * 18.5 / 90  # 3-node allgather at 18.5 Gbit/s where allreduce did 90
    write("allgather.txt", table("allgather", 3, HOSTS, sweep, lambda s: healthy(s, ag)))
    write("allgather-ll128.txt", table("allgather", 3, HOSTS, sweep, lambda s: healthy(s, ag * 65.6 / 18.5)))
    write("allreduce-ll128.txt", table("allreduce", 3, HOSTS, sweep, lambda s: healthy(s, plateau * 0.75),
                                       wrong={256 * MIB: 3}))
    for run, p in enumerate((6.5, 4.1, 5.6)):
        write("broadcast-run%d.txt" % (run + 1), table("broadcast", 3, HOSTS, sizes(MIB, 1 << 30), lambda s, p=p: healthy(s, p)))
    write("allreduce-1gpu.txt", table("allreduce", 1, ["arrowlake-ws"], sizes(MIB, 1 << 30), lambda s: 0.0))
    with open(os.path.join(OUT, "alltoall-harness.json"), "w") as f:
        json.dump(harness(), f, indent=1)
        f.write("\n")
    write("perftest-nic-writes-gpu0-mlx5_0.txt", perftest(43.6))
    write("perftest-nic-writes-gpu0-mlx5_1.txt", perftest(43.6))
    ab_sweep()
    nccl_logs()


def nccl_logs():
    """NCCL_DEBUG=INFO logs of one 3-rank allreduce, one file per process (NCCL_DEBUG_FILE=nccl-logs/nccl.%h.%p.log), in
    NCCL 2.28.3's wording. node1 and node2 reach their NICs through a PCIe switch and use GPU Direct RDMA; on the Arrow
    Lake node the GPU-NIC path crosses the CPU (PHB), beyond NCCL's default PXB, so its channels stage through host
    memory: the field report's GDR-off-by-distance, seen from the job."""
    folder = os.path.join(OUT, "nccl-logs")
    if os.path.isdir(folder):
        shutil.rmtree(folder)
    os.makedirs(folder)
    for rank, (host, pid) in enumerate((("node1", 2101), ("node2", 2202), ("arrowlake-ws", 2303))):
        main, init = "%s:%d:%d [0] NCCL INFO " % (host, pid, pid), "%s:%d:%d [0] NCCL INFO " % (host, pid, pid + 49)
        gdr = host != "arrowlake-ws"
        lines = [main + "NCCL version 2.28.3+cuda13.0",
                 init + "NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE [RO]; OOB enp1s0f0np0:10.0.0.%d<0>" % (rank + 1),
                 init + "Using network IB",
                 init + "NET/IB : GPU Direct RDMA Enabled for HCA 0 'mlx5_0'",
                 init + "NET/IB : GPU Direct RDMA Enabled for HCA 1 'mlx5_1'",
                 init + "comm 0x5a1e%02d rank %d nranks 3 cudaDev 0 nvmlDev 0 busId 1000 commId 0x7e57 - Init START" % (rank, rank)]
        for hca in (0, 1):
            lines.append(init + ("GPU Direct RDMA Enabled for GPU %d / HCA %d (distance 5 <= 5), read 1 mode Default" % (rank, hca)
                                 if gdr else "GPU Direct RDMA Disabled for GPU %d / HCA %d (distance 8 > 5)" % (rank, hca)))
        for channel in range(4):
            hca = channel % 2
            via = "NET/IB/%d%s" % (hca, "/GDRDMA" if gdr else "")
            lines.append(init + "Channel %02d/0 : %d[0] -> %d[0] [send] via %s" % (channel, rank, (rank + 1) % 3, via))
            lines.append(init + "Channel %02d/0 : %d[0] -> %d[0] [receive] via %s" % (channel, (rank + 2) % 3, rank, via))
        lines.append(init + "comm 0x5a1e%02d rank %d nranks 3 cudaDev 0 nvmlDev 0 busId 1000 commId 0x7e57 - Init COMPLETE"
                     % (rank, rank))
        with open(os.path.join(folder, "nccl.%s.%d.log" % (host, pid)), "w") as f:
            f.write("\n".join(lines) + "\n")


def ab_sweep():
    """`nccl-doctor sweep` results of an A/B plan: NCCL 2.28.3 (a) against 2.30.7 (b), interleaved, three repetitions.
    The field report: 2.30.7 took 3-node allgather from 18.5 to 91 Gbit/s; allreduce stayed where it was."""
    plateau = 6.9
    lines = []
    noise = [1.0, 1.013, 0.988, 1.006, 0.994, 1.009]
    k = 0
    for rep in range(3):
        for arm, version in (("a", "2.28.3"), ("b", "2.30.7")):
            child = "%s/default/rep%d" % (arm, rep + 1)
            for collective, level in (("allreduce", plateau), ("allgather", plateau * (18.5 if arm == "a" else 91) / 90)):
                rows = []
                for s in sizes(MIB, 1 << 30):
                    bus = healthy(s, level) * noise[k % len(noise)]
                    k += 1
                    p = placement(s, bus, 3)
                    rows.append({"sizeBytes": s, "count": s // 4 if collective == "allreduce" else s // 12, "type": "float",
                                 "redop": {"value": "sum" if collective == "allreduce" else "none"}, "root": {"value": -1},
                                 "outOfPlace": p, "inPlace": {"value": p}})
                lines.append({"type": "point", "plan": "ab-nccl", "child": child, "arm": arm,
                              "library": "/opt/nccl-%s/lib" % version, "env": {}, "envLabel": "default", "repeat": rep,
                              "collective": collective, "ncclVersion": version,
                              "ncclLibrary": "/opt/nccl-%s/lib/libnccl.so.2" % version, "worldSize": 3, "rows": rows,
                              "failure": None, "detail": None, "outputTail": None, "ncclLogTail": None, "durationMs": 41000 + k})
    with open(os.path.join(OUT, "ab-nccl-2.28.3-vs-2.30.7.jsonl"), "w") as f:
        for l in lines:
            f.write(json.dumps(l, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
