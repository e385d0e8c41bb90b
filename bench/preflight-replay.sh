#!/usr/bin/env bash
# Median wall time of `nccl-doctor preflight --from CAPTURE` over a generated 200-device capture (8 root complexes,
# each a Gen5 switch with 12 endpoints: GPUs and NICs), JVM start included. Target: under 1 s.
# Usage: bench/preflight-replay.sh [RUNS]   (default 5)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-5}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 - "$root/scripts/make-sysfs-fixtures.py" "$work" <<'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("fixtures", sys.argv[1])
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
m.OUT = sys.argv[2]
devices, gpu, nic = [], 0, 0
for s in range(8):
    bus = 0x10 + s * 0x10
    rc = "pci0000:%02x" % bus
    rp = "%s/0000:%02x:01.0" % (rc, bus)
    up = "%s/0000:%02x:00.0" % (rp, bus + 1)
    numa = s // 4
    devices.append(m.dev(rp, "8086", "352a", "060400", "root port", "32.0", 16, numa, mps=256, mpsCap=512, acs=["SrcValid"], driver="pcieport"))
    devices.append(m.dev(up, "1000", "c030", "060400", "upstream port", "32.0", 16, numa, mps=256, mpsCap=1024, driver="pcieport"))
    for port in range(12):
        down = "%s/0000:%02x:%02x.0" % (up, bus + 2, port)
        devices.append(m.dev(down, "1000", "c030", "060400", "downstream port", "32.0", 16, numa, mps=256, mpsCap=1024,
                             acs=["SrcValid", "TransBlk"], driver="pcieport"))
        ep = "%s/0000:%02x:00.0" % (down, bus + 3 + port)
        if port % 3 != 2:
            devices.append(m.dev(ep, "10de", "2330", "030200", "endpoint", "32.0", 16, numa, mps=256, mpsCap=256, driver="nvidia"))
            gpu += 1
        else:
            devices.append(m.dev(ep, "15b3", "1021", "020700", "endpoint", "32.0", 16, numa, mps=256, mpsCap=512,
                                 driver="mlx5_core", rdma=["mlx5_%d" % nic]))
            nic += 1
gpus = [(d["path"].split("/")[-1], "NVIDIA H100 80GB HBM3", "TESLA", 9, 0, True, True)
        for d in devices if d["vendor"] == "10de"]
m.build("big", {"hostname": "big-node", "kernel": "6.8.0-49-generic", "os": "Ubuntu 24.04.1 LTS",
                "rdmaPort": {"rate": "400 Gb/sec (4X NDR)", "layer": "InfiniBand"},
                "gdr": {"rdmaCore": 50, "peermem": False, "survey": m.survey(gpus)},
                "cpu": {"vendor": "GenuineIntel", "family": 6, "model": 143, "name": "Intel(R) Xeon(R) Platinum 8480C",
                        "sockets": 2, "logical": 8},
                "numa": {"0": "0-3", "1": "4-7"}, "devices": devices})
print("generated %d PCI devices (%d GPUs, %d NICs)" % (len(devices), gpu, nic), file=sys.stderr)
PY
"$root/bench/preflight.sh" "$runs" --from "$work/big"
[ -n "${KEEP:-}" ] && cp -r "$work/big" "$KEEP"
