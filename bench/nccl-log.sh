#!/usr/bin/env bash
# Streams a generated NCCL debug log of SIZE_MB (default 1024) through `parse nccl-log` and compares the rate with
# `grep -c 'NCCL INFO'` on the same file (target: at least half of grep's speed, memory flat).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
size_mb="${1:-1024}"
log="${TMPDIR:-/tmp}/nccl-doctor-bench.log"
"$root/nccl-doctor" --version >/dev/null
python3 - "$log" "$size_mb" <<'PY'
import sys
path, mb = sys.argv[1], int(sys.argv[2])
# A log shaped like a real NCCL_DEBUG=INFO run with the COLL subsystem on: an initialisation block (version,
# network, channels, GDR decisions, communicator) per communicator, then many per-operation lines and some
# application output between them.
init = "".join([
    "node01:12345:12345 [0] NCCL INFO NCCL version 2.27.5+cuda12.9\n",
    "node01:12345:12400 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE ; OOB eth0:10.0.0.1<0>\n",
    "node01:12345:12400 [0] NCCL INFO GPU Direct RDMA Disabled for GPU 1 / HCA 0 (distance 8 > 5)\n",
] + ["node01:12345:12400 [0] NCCL INFO Channel %02d/0 : 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA\n" % c for c in range(32)] + [
    "node01:12345:12400 [0] NCCL INFO comm 0x5566 rank 0 nranks 16 cudaDev 0 nvmlDev 0 busId 18000 commId 0x1 - Init COMPLETE\n"])
ops = "".join(["node01:12345:12400 [0] NCCL INFO AllReduce: opCount %x sendbuff 0x7f12a0000000 recvbuff 0x7f12a0000000 "
               "count 262144 datatype 7 op 0 root 0 comm 0x5566 [nranks=16] stream 0x55aa\n" % i for i in range(900)]
              + ["[rank0]: step 1234 loss 2.345 lr 0.0001 tokens/s 123456\n"] * 100)
block = init + ops
with open(path, "w") as f:
    written = 0
    while written < mb * 1024 * 1024:
        f.write(block)
        written += len(block)
PY
bytes=$(stat -c %s "$log")
# (not to /dev/null: GNU grep then stops at the first match)
t0=$(date +%s%N); grep -c 'NCCL INFO' "$log" > "$log.count"; t1=$(date +%s%N)
NCCL_DOCTOR_JAVA_OPTS=-Xmx256m /usr/bin/time -f "%M" -o "$log.rss" "$root/nccl-doctor" parse nccl-log "$log" >/dev/null
t2=$(date +%s%N)
grep_mbs=$(( bytes * 1000 / (t1 - t0) ))
ours_mbs=$(( bytes * 1000 / (t2 - t1) ))
echo "log $((bytes / 1048576)) MiB: grep -c ${grep_mbs} MB/s, ./nccl-doctor parse nccl-log ${ours_mbs} MB/s" \
  "= $(( ours_mbs * 100 / grep_mbs )) % of grep (target: at least 50 %), JVM start included" \
  "(heap capped at 256 MiB, peak RSS $(cat "$log.rss") KiB)"
rm -f "$log" "$log.rss" "$log.count"
