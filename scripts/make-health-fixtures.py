#!/usr/bin/env python3
"""Builds the GPU health capture fixtures of gdr-probe from the specifications below.

Each fixture is a capture folder (docs/capture.md) holding what the GPU health probe reads: the NVIDIA driver's
/proc file, the NVML library links the loader search finds, NVML's answer for every GPU (native.json, the JSON of
GpuHealth.Gpu) and the kernel log command with its output (commands.json). The values follow NVML's semantics as
nvml.h documents them (NVML 13.3.29; each field and its call in docs/health.md); the faults are the ones each README
lists. Kernel log lines have the shape of the real lines in gdr-probe/src/test/resources/fixtures/xid, with this
node's bus ids. Rerun after editing:  python3 scripts/make-health-fixtures.py
"""
import json
import os
import shutil

OUT = os.path.join(os.path.dirname(__file__), "..", "gdr-probe", "src", "test", "resources", "fixtures", "health")
LIB = "/usr/lib/x86_64-linux-gnu/"
NVML_FILE = "libnvidia-ml.so.580.95.05"
DRIVER = ("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.95.05  Release Build  "
          "(dvs-builder@U22-I3-B17-02-5)  Tue Sep 30 12:00:00 UTC 2025\n")
JOURNAL = ["journalctl", "-k", "--since=-120min", "-o", "short-iso", "--no-pager"]
# the bus ids of pcie-inspect's dgx-class fixture (four PCIe switches, two GPUs each) and of a DGX-1's V100s
DGX_H100 = ["0000:18:00.0", "0000:19:00.0", "0000:29:00.0", "0000:2a:00.0", "0000:9a:00.0", "0000:9b:00.0",
            "0000:ab:00.0", "0000:ac:00.0"]
DGX1_V100 = ["0000:06:00.0", "0000:07:00.0", "0000:0a:00.0", "0000:0b:00.0", "0000:85:00.0", "0000:86:00.0",
             "0000:89:00.0", "0000:8a:00.0"]


def v(x):
    return {"value": x}


def unsupported(call):
    return {"absent": "not supported on this GPU (%s: NVML_ERROR_NOT_SUPPORTED (3))" % call}


def link(n, active=True, replay=0, recovery=0, crc_flit=0, crc_data=0, ecc_data=0):
    return {"link": n, "active": active, "replay": v(replay), "recovery": v(recovery), "crcFlit": v(crc_flit),
            "crcData": v(crc_data), "eccData": v(ecc_data)}


def h100(i, bus, **f):
    """An H100 SXM5 on an NVSwitch baseboard: 18 NVLinks, HBM3 with row remapping, Fabric Manager registration."""
    links = [link(n) for n in range(18)]
    for n, kw in f.get("links", {}).items():
        links[n] = link(n, **kw)
    remap = f.get("remap", (0, 0, False, False))
    return {
        "index": i, "busId": v(bus), "name": v("NVIDIA H100 80GB HBM3"),
        "persistenceMode": v(f.get("persistence", True)),
        "mig": v({"enabled": False, "pendingEnabled": f.get("migPending", False)}),
        "ecc": v({"enabled": True, "pendingEnabled": True, "volatileCorrected": v(0),
                  "volatileUncorrected": v(f.get("dbe", 0)), "aggregateCorrected": v(0),
                  "aggregateUncorrected": v(f.get("dbe", 0))}),
        # Ampere and newer remap rows instead of retiring pages (NVIDIA, "A100 GPU memory error management")
        "retiredPages": unsupported("nvmlDeviceGetRetiredPagesPendingStatus"),
        "rowRemap": v({"correctable": remap[0], "uncorrectable": remap[1], "pending": remap[2], "failed": remap[3]}),
        "nvlinks": v(links),
        "clocksEventReasons": v(f.get("reasons", 1)),
        "clocks": v({"smMHz": v(f.get("sm", 1980)), "smMaxMHz": v(1980), "memMHz": v(2619), "memMaxMHz": v(2619)}),
        "fabric": v(f.get("fabric", {"state": "COMPLETED", "status": v("SUCCESS"), "healthMask": v(0),
                                      "healthSummary": v("HEALTHY")})),
        "pcieReplays": v(f.get("replays", 0)),
    }


def v100(i, bus, **f):
    """A Tesla V100-SXM2-32GB of a DGX-1: six NVLinks in the hybrid cube mesh, page retirement, no MIG, no fabric."""
    pages = f.get("pages", (0, 0, False))
    return {
        "index": i, "busId": v(bus), "name": v("Tesla V100-SXM2-32GB"),
        "persistenceMode": v(True),
        "mig": unsupported("nvmlDeviceGetMigMode"),
        "ecc": v({"enabled": True, "pendingEnabled": True, "volatileCorrected": v(0),
                  "volatileUncorrected": v(f.get("dbe", 0)), "aggregateCorrected": v(0),
                  "aggregateUncorrected": v(f.get("dbe", 0))}),
        "retiredPages": v({"singleBitEcc": v(pages[0]), "doubleBitEcc": v(pages[1]), "pending": v(pages[2])}),
        "rowRemap": unsupported("nvmlDeviceGetRemappedRows"),
        "nvlinks": v([link(n) for n in range(6)]),
        "clocksEventReasons": v(1),
        "clocks": v({"smMHz": v(1530), "smMaxMHz": v(1530), "memMHz": v(877), "memMaxMHz": v(877)}),
        "fabric": unsupported("nvmlDeviceGetGpuFabricInfoV"),
        "pcieReplays": v(0),
    }


def journal(host, lines):
    out = "".join("2026-11-30T%s+0000 %s kernel: NVRM: Xid (PCI:%s): %d, %s\n" % (t, host, bus[:-2], x, detail)
                  for t, bus, x, detail in lines) or "-- No entries --\n"
    return {"outcome": "exited", "argv": JOURNAL, "exitCode": 0, "stdout": out, "stderr": "", "durationMs": 41}


def write(folder, name, text):
    path = os.path.join(folder, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def build(name, gpus, commands):
    folder = os.path.join(OUT, name)
    for sub in ("root", "manifest.json", "commands.json", "native.json"):
        p = os.path.join(folder, sub)
        if os.path.isdir(p):
            shutil.rmtree(p)
        elif os.path.exists(p):
            os.remove(p)
    write(folder, "root/proc/driver/nvidia/version", DRIVER)
    write(folder, "root" + LIB + NVML_FILE, "")
    os.symlink(NVML_FILE, os.path.join(folder, "root" + LIB + "libnvidia-ml.so.1"))
    natives = {"gpuHealth:" + LIB + NVML_FILE: v({"gpus": gpus})}
    manifest = {"formatVersion": 1, "toolVersion": "fixture (scripts/make-health-fixtures.py)",
                "createdAt": "2026-11-30T10:00:00Z", "hostName": name, "argv": ["capture"], "env": {},
                "probes": ["gpuHealth"], "files": 0, "commands": len(commands), "nativeQueries": len(natives)}
    write(folder, "manifest.json", json.dumps(manifest, indent=2) + "\n")
    write(folder, "commands.json", json.dumps(commands, indent=2) + "\n")
    write(folder, "native.json", json.dumps(natives, indent=2) + "\n")


def main():
    build("dgx-h100-healthy", [h100(i, b) for i, b in enumerate(DGX_H100)], [journal("dgx-h100-healthy", [])])
    faulty = [
        h100(0, DGX_H100[0], remap=(0, 1, True, False), dbe=1),
        h100(1, DGX_H100[1], remap=(0, 3, False, True)),
        h100(2, DGX_H100[2], reasons=0x48, sm=1050),
        h100(3, DGX_H100[3], replays=512),
        h100(4, DGX_H100[4], fabric={"state": "IN_PROGRESS",
                                     "status": {"absent": "the registration has not completed (IN_PROGRESS)"},
                                     "healthMask": v(0), "healthSummary": v("HEALTHY")}),
        h100(5, DGX_H100[5], links={7: dict(active=False, replay=46, recovery=3, crc_flit=1204)}),
        h100(6, DGX_H100[6], persistence=False),
        h100(7, DGX_H100[7], migPending=True),
    ]
    xids = [("08:41:07", DGX_H100[0], 94, "pid=7194, Contained: CE User Channel (0x9). RST: No, D-RST: No"),
            ("08:41:07", DGX_H100[0], 63, "pid=7194, Row Remapper: New row marked for remapping, reset gpu to activate."),
            ("09:02:55", DGX_H100[1], 64, "pid='N/A', Row Remapper: Failed to remap row"),
            ("09:30:12", DGX_H100[3], 45, "pid=1818990, name=python3, Ch 00000001")]
    build("dgx-h100-faulty", faulty, [journal("dgx-h100-faulty", xids)])
    v100s = [v100(i, b, **({"pages": (0, 1, True), "dbe": 1} if i == 2 else {})) for i, b in enumerate(DGX1_V100)]
    build("dgx1-v100-faulty", v100s, [journal("dgx1-v100-faulty", [])])


if __name__ == "__main__":
    main()
