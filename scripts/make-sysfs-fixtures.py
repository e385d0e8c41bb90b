#!/usr/bin/env python3
"""Builds the sysfs capture fixtures of pcie-inspect from the specifications below.

Each fixture is a capture folder (the format of `nccl-doctor capture`, docs/capture.md): a manifest, and under
root/ the files and links the probes read: /sys/devices/... device folders with their attributes and a 4096-byte
config space (as root sees it), /sys/bus/pci/devices links, /sys/class/infiniband links, NUMA nodes, /proc/cpuinfo.
The topologies are modelled on real machines; each fixture's README states the expected answers from first
principles. Rerun after editing:  python3 scripts/make-sysfs-fixtures.py
"""
import json
import os
import shutil
import struct

OUT = os.path.join(os.path.dirname(__file__), "..", "pcie-inspect", "src", "test", "resources", "fixtures", "captures")
SPEED_CODE = {"2.5": 1, "5.0": 2, "8.0": 3, "16.0": 4, "32.0": 5, "64.0": 6}
PORT_TYPE = {"endpoint": 0, "root port": 4, "upstream port": 5, "downstream port": 6}
ACS_BITS = ["SrcValid", "TransBlk", "ReqRedir", "CmpltRedir", "UpstreamFwd", "EgressCtrl", "DirectTrans"]


def config_space(d):
    """A 4096-byte config space: type 0/1 header, PCIe capability at 0x40, ACS extended capability at 0x100."""
    b = bytearray(4096)
    struct.pack_into("<HH", b, 0, int(d["vendor"], 16), int(d["device"], 16))
    struct.pack_into("<H", b, 0x06, 0x0010)  # status: capabilities list
    cls = int(d["class"], 16)
    b[0x09], b[0x0a], b[0x0b] = cls & 0xff, (cls >> 8) & 0xff, (cls >> 16) & 0xff
    b[0x0e] = 1 if d["class"].startswith("0604") else 0
    b[0x34] = 0x40
    b[0x40], b[0x41] = 0x10, 0x00  # PCI Express capability, last in the list
    struct.pack_into("<H", b, 0x42, 2 | PORT_TYPE[d["type"]] << 4)
    mps_cap = {128: 0, 256: 1, 512: 2, 1024: 3, 2048: 4, 4096: 5}
    struct.pack_into("<I", b, 0x44, mps_cap[d.get("mpsCap", 256)])
    struct.pack_into("<H", b, 0x48, mps_cap[d.get("mps", 256)] << 5 | mps_cap[d.get("mrrs", 512)] << 12)
    max_speed = d.get("maxSpeed", d["speed"])
    max_width = d.get("maxWidth", d["width"])
    struct.pack_into("<I", b, 0x4c, SPEED_CODE[max_speed] | max_width << 4)
    struct.pack_into("<H", b, 0x52, SPEED_CODE[d["speed"]] | d["width"] << 4)
    if "acs" in d:
        struct.pack_into("<I", b, 0x100, 0x000d | 1 << 16)  # ACS, version 1, no next capability
        struct.pack_into("<H", b, 0x104, 0x005f)  # capability: SrcValid TransBlk ReqRedir CmpltRedir UpstreamFwd DirectTrans
        control = sum(1 << ACS_BITS.index(n) for n in d["acs"])
        struct.pack_into("<H", b, 0x106, control)
    return bytes(b)


def write(root, path, content):
    full = os.path.join(root, path.lstrip("/"))
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "wb" if isinstance(content, bytes) else "w") as f:
        f.write(content)


def link(root, path, target):
    full = os.path.join(root, path.lstrip("/"))
    os.makedirs(os.path.dirname(full), exist_ok=True)
    os.symlink(target, full)


def build(name, spec):
    folder = os.path.join(OUT, name)
    readme = None
    if os.path.exists(os.path.join(folder, "README.md")):
        with open(os.path.join(folder, "README.md")) as f:
            readme = f.read()
    shutil.rmtree(folder, ignore_errors=True)
    root = os.path.join(folder, "root")
    cpu = spec["cpu"]
    lines = []
    for i in range(cpu["logical"]):
        lines += [f"processor\t: {i}", f"vendor_id\t: {cpu['vendor']}", f"cpu family\t: {cpu['family']}",
                  f"model\t\t: {cpu['model']}", f"model name\t: {cpu['name']}",
                  f"physical id\t: {i * cpu['sockets'] // cpu['logical']}", ""]
    write(root, "/proc/cpuinfo", "\n".join(lines) + "\n")
    write(root, "/proc/sys/kernel/hostname", spec["hostname"] + "\n")
    write(root, "/proc/sys/kernel/osrelease", spec["kernel"] + "\n")
    write(root, "/etc/os-release", f'NAME="{spec["os"].split()[0]}"\nPRETTY_NAME="{spec["os"]}"\n')
    if any(d["vendor"] == "10de" for d in spec["devices"]):
        write(root, "/proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.95.05  "
              "Release Build  (dvs-builder@U22-I3-B17-02-5)  Tue Sep 30 12:00:00 UTC 2025\n")
    for node, cpus in spec["numa"].items():
        write(root, f"/sys/devices/system/node/node{node}/cpulist", cpus + "\n")
    for d in spec["devices"]:
        bdf = d["path"].split("/")[-1]
        dev = "/sys/devices/" + d["path"]
        write(root, dev + "/vendor", "0x" + d["vendor"] + "\n")
        write(root, dev + "/device", "0x" + d["device"] + "\n")
        write(root, dev + "/class", "0x" + d["class"] + "\n")
        write(root, dev + "/subsystem_vendor", "0x" + d.get("subVendor", d["vendor"]) + "\n")
        write(root, dev + "/subsystem_device", "0x" + d.get("subDevice", "0000") + "\n")
        write(root, dev + "/numa_node", str(d.get("numa", -1)) + "\n")
        write(root, dev + "/local_cpulist", spec["numa"].get(str(d.get("numa", 0)), "0") + "\n")
        write(root, dev + "/current_link_speed", d["speed"] + " GT/s PCIe\n")
        write(root, dev + "/current_link_width", str(d["width"]) + "\n")
        write(root, dev + "/max_link_speed", d.get("maxSpeed", d["speed"]) + " GT/s PCIe\n")
        write(root, dev + "/max_link_width", str(d.get("maxWidth", d["width"])) + "\n")
        write(root, dev + "/config", config_space(d))
        if "aer" in d:
            c, n, f = d["aer"]
            write(root, dev + "/aer_dev_correctable", f"RxErr {c}\nBadTLP 0\nTOTAL_ERR_COR {c}\n")
            write(root, dev + "/aer_dev_nonfatal", f"Undefined 0\nTOTAL_ERR_NONFATAL {n}\n")
            write(root, dev + "/aer_dev_fatal", f"Undefined 0\nTOTAL_ERR_FATAL {f}\n")
        if "driver" in d:
            link(root, dev + "/driver", "../" * (dev.count("/") - 1) + "bus/pci/drivers/" + d["driver"])
        link(root, "/sys/bus/pci/devices/" + bdf, "../../.." + dev[len("/sys"):])
        for ib in d.get("rdma", []):
            port = dev + f"/infiniband/{ib}/ports/1"
            os.makedirs(os.path.join(root, port.lstrip("/")), exist_ok=True)
            link(root, dev + f"/infiniband/{ib}/device", "../../../" + bdf)
            link(root, f"/sys/class/infiniband/{ib}", "../.." + dev[len("/sys"):] + f"/infiniband/{ib}")
            p = spec.get("rdmaPort", {})
            if p:
                n = int(ib.split("_")[-1])
                write(root, dev + f"/infiniband/{ib}/fw_ver", p.get("fw", "28.39.1002") + "\n")
                write(root, dev + f"/infiniband/{ib}/node_guid", f"a088:c203:0052:d4{n:02x}\n")
                write(root, port + "/state", p.get("state", "4: ACTIVE") + "\n")
                write(root, port + "/phys_state", "5: LinkUp\n")
                write(root, port + "/rate", p["rate"] + "\n")
                write(root, port + "/link_layer", p["layer"] + "\n")
                if p["layer"] == "InfiniBand":
                    write(root, port + f"/gids/0", f"fe80:0000:0000:0000:a088:c203:0052:d4{n:02x}\n")
                    write(root, port + "/gids/1", "0000:0000:0000:0000:0000:0000:0000:0000\n")
                else:
                    nd = p["netdevs"][n]
                    ip = p["ips"][n]
                    octets = [int(x) for x in ip.split("/")[0].split(".")]
                    mapped = "0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x" % tuple(octets)
                    for i, (gid, typ) in enumerate([(f"fe80:0000:0000:0000:ba59:9fff:fed4:1e{n:02x}", "IB/RoCE v1"),
                                                    (f"fe80:0000:0000:0000:ba59:9fff:fed4:1e{n:02x}", "RoCE v2"),
                                                    (mapped, "IB/RoCE v1"), (mapped, "RoCE v2")]):
                        if typ == "RoCE v2" and not p.get("v2", True):
                            gid = "0000:0000:0000:0000:0000:0000:0000:0000"
                        write(root, port + f"/gids/{i}", gid + "\n")
                        write(root, port + f"/gid_attrs/types/{i}", typ + "\n")
                        write(root, port + f"/gid_attrs/ndevs/{i}", nd + "\n")
                    write(root, port + "/gids/4", "0000:0000:0000:0000:0000:0000:0000:0000\n")
                    # as in sysfs: the netdev lives below its PCI function, /sys/class/net links to it
                    write(root, dev + f"/net/{nd}/mtu", str(p["mtu"][n]) + "\n")
                    link(root, f"/sys/class/net/{nd}", "../.." + dev[len("/sys"):] + f"/net/{nd}")
                    write(root, f"/proc/sys/net/ipv4/conf/{nd}/arp_ignore", str(p.get("arpIgnore", 0)) + "\n")
                    write(root, f"/proc/sys/net/ipv4/conf/{nd}/arp_announce", str(p.get("arpAnnounce", 0)) + "\n")
    commands, natives = [], {}
    gdr = spec.get("gdr")
    if gdr:
        write(root, "/boot/config-" + spec["kernel"], "CONFIG_DMA_SHARED_BUFFER=" + gdr.get("dmabufConfig", "y") + "\n")
        write(root, "/proc/cmdline", gdr.get("cmdline", "BOOT_IMAGE=/vmlinuz ro quiet") + "\n")
        for g in range(gdr.get("iommuGroups", 0)):
            write(root, f"/sys/kernel/iommu_groups/{g}/type", "DMA-FQ\n")
        if gdr.get("peermem"):
            write(root, "/sys/module/nvidia_peermem/version", "580.95.05\n")
        lib = "/usr/lib/x86_64-linux-gnu/"
        ibv = "libibverbs.so.1.14.%d.0" % gdr["rdmaCore"]
        write(root, lib + ibv, "")
        link(root, lib + "libibverbs.so.1", ibv)
        write(root, lib + "libcuda.so.580.95.05", "")
        link(root, lib + "libcuda.so.1", "libcuda.so.580.95.05")
        write(root, lib + "libnvidia-ml.so.580.95.05", "")
        link(root, lib + "libnvidia-ml.so.1", "libnvidia-ml.so.580.95.05")
        natives["symbol:ibv_reg_dmabuf_mr:" + lib + ibv] = {"value": gdr["rdmaCore"] >= 34}
        natives["cuDriverGetVersion:" + lib + "libcuda.so.580.95.05"] = {"value": 13000}
        natives["gpuSurvey:" + lib + "libcuda.so.580.95.05"] = {"value": gdr["survey"]}
        if "registration" in gdr:
            natives["registration:" + lib + ibv] = {"value": gdr["registration"]}
        if "ips" in spec.get("rdmaPort", {}):
            p = spec["rdmaPort"]
            out = "".join("%d: %s    inet %s brd 10.0.0.255 scope global %s\\       valid_lft forever preferred_lft forever\n"
                          % (6 + i, nd, ip, nd) for i, (nd, ip) in enumerate(zip(p["netdevs"], p["ips"])))
            commands.append({"outcome": "exited", "argv": ["ip", "-o", "-4", "addr", "show"], "exitCode": 0,
                             "stdout": out, "stderr": "", "durationMs": 3})
    manifest = {"formatVersion": 1, "toolVersion": "fixture (scripts/make-sysfs-fixtures.py)",
                "createdAt": "2026-11-30T00:00:00Z", "hostName": spec["hostname"], "argv": ["capture"],
                "env": spec.get("env", {}), "probes": ["platform", "pci", "rdma", "gdrHost", "gpus"], "files": 0,
                "commands": len(commands), "nativeQueries": len(natives)}
    write(folder, "manifest.json", json.dumps(manifest, indent=2) + "\n")
    write(folder, "commands.json", json.dumps(commands, indent=2) + "\n")
    write(folder, "native.json", json.dumps(natives, indent=2) + "\n")
    if readme:
        write(folder, "README.md", readme)


def survey(gpus, read="OK", write="OK"):
    """A recorded GPU survey (GpuSurvey JSON): gpus = [(busId, name, brand, major, minor, gdr, dmabuf)]."""
    out = []
    for i, (bus, name, brand, ma, mi, gdr, dmabuf) in enumerate(gpus):
        out.append({"index": i, "busId": bus, "name": {"value": name}, "brand": {"value": brand},
                    "computeMajor": {"value": ma}, "computeMinor": {"value": mi}, "gdrSupported": {"value": gdr},
                    "dmabufSupported": {"value": dmabuf}})
    pairs = [{"a": a[0], "b": b[0], "read": {"value": read}, "write": {"value": write}, "cudaPeerAccess": {"value": read == "OK"}}
             for a in gpus for b in gpus if a is not b]
    return {"gpus": {"value": out}, "p2p": {"value": pairs}}


def dev(path, vendor, device, cls, typ, speed, width, numa, **kw):
    d = {"path": path, "vendor": vendor, "device": device, "class": cls, "type": typ, "speed": speed,
         "width": width, "numa": numa}
    d.update(kw)
    return d


def dgx_class():
    """2 x Xeon 8480C, 4 PCIe Gen5 switches (2 per socket), each with 2 H100 GPUs and 2 ConnectX-7 NICs."""
    devices = []
    switches = [("15", 0, []), ("26", 0, []), ("97", 1, []), ("a8", 1, ["SrcValid", "ReqRedir", "CmpltRedir", "UpstreamFwd"])]
    gpu, nic = 0, 0
    for bus, numa, acs in switches:
        b = int(bus, 16)
        rc = f"pci0000:{bus}"
        rp = f"{rc}/0000:{bus}:01.0"
        up = f"{rp}/0000:{b + 1:02x}:00.0"
        devices.append(dev(rp, "8086", "352a", "060400", "root port", "32.0", 16, numa, mps=256, mpsCap=512, acs=["SrcValid"], driver="pcieport"))
        devices.append(dev(up, "1000", "c030", "060400", "upstream port", "32.0", 16, numa, mps=256, mpsCap=1024, driver="pcieport"))
        for port in range(4):
            down = f"{up}/0000:{b + 2:02x}:{port:02x}.0"
            devices.append(dev(down, "1000", "c030", "060400", "downstream port", "32.0", 16, numa, mps=256, mpsCap=1024,
                               acs=acs or ["SrcValid", "TransBlk"], driver="pcieport"))
            endpoint = f"{down}/0000:{b + 3 + port:02x}:00.0"
            if port < 2:
                devices.append(dev(endpoint, "10de", "2330", "030200", "endpoint", "32.0", 16, numa, mps=256, mpsCap=256, driver="nvidia"))
                gpu += 1
            else:
                extra = {"aer": (12, 0, 0)} if nic == 5 else {}
                devices.append(dev(endpoint, "15b3", "1021", "020700", "endpoint", "32.0", 16, numa, mps=256, mpsCap=512,
                                   driver="mlx5_core", rdma=[f"mlx5_{nic}"], **extra))
                nic += 1
    devices.append(dev("pci0000:00/0000:00:00.0", "8086", "09a2", "060000", "endpoint", "2.5", 1, 0))
    gpus = [(d["path"].split("/")[-1], "NVIDIA H100 80GB HBM3", "TESLA", 9, 0, True, True)
            for d in devices if d["vendor"] == "10de" and d["class"] == "030200"]
    return {"hostname": "dgx-class", "kernel": "6.8.0-49-generic", "os": "Ubuntu 24.04.1 LTS",
            "rdmaPort": {"rate": "400 Gb/sec (4X NDR)", "layer": "InfiniBand"},
            "gdr": {"rdmaCore": 50, "peermem": False, "survey": survey(gpus)},
            "cpu": {"vendor": "GenuineIntel", "family": 6, "model": 143, "name": "Intel(R) Xeon(R) Platinum 8480C",
                    "sockets": 2, "logical": 8},
            "numa": {"0": "0-3", "1": "4-7"}, "devices": devices}


def arrow_lake():
    """Core Ultra 9 285K (family 6 model 198), GPU and dual-port ConnectX-5 on two CPU root ports (x8/x8 split)."""
    rc = "pci0000:00"
    devices = [
        dev(f"{rc}/0000:00:00.0", "8086", "7d1b", "060000", "endpoint", "2.5", 1, -1),
        dev(f"{rc}/0000:00:01.0", "8086", "7ecc", "060400", "root port", "32.0", 8, -1, mps=128, mpsCap=256,
            acs=["SrcValid", "ReqRedir", "CmpltRedir", "UpstreamFwd"], driver="pcieport"),
        dev(f"{rc}/0000:00:01.0/0000:01:00.0", "10de", "2bb1", "030000", "endpoint", "32.0", 8, -1, maxWidth=16, mps=128,
            mpsCap=256, driver="nvidia"),
        dev(f"{rc}/0000:00:01.1", "8086", "7ecd", "060400", "root port", "8.0", 8, -1, maxSpeed="32.0", mps=256, mpsCap=256,
            acs=["SrcValid", "ReqRedir", "CmpltRedir", "UpstreamFwd"], driver="pcieport"),
        dev(f"{rc}/0000:00:01.1/0000:02:00.0", "15b3", "1017", "020000", "endpoint", "8.0", 8, -1, mps=256, mpsCap=512,
            driver="mlx5_core", rdma=["mlx5_0"]),
        dev(f"{rc}/0000:00:01.1/0000:02:00.1", "15b3", "1017", "020000", "endpoint", "8.0", 8, -1, mps=256, mpsCap=512,
            driver="mlx5_core", rdma=["mlx5_1"]),
        dev(f"{rc}/0000:00:1f.6", "8086", "550a", "020000", "endpoint", "2.5", 1, -1, driver="e1000e"),
    ]
    return {"hostname": "arrowlake-ws", "kernel": "6.11.0-29-generic", "os": "Ubuntu 24.04.2 LTS",
            "env": {"NCCL_NET_GDR_LEVEL": "phb"},
            "rdmaPort": {"rate": "100 Gb/sec (4X EDR)", "layer": "Ethernet", "fw": "16.35.4030",
                         "netdevs": ["enp2s0f0np0", "enp2s0f1np1"], "ips": ["10.0.0.5/24", "10.0.0.6/24"], "mtu": [9000, 1500]},
            "gdr": {"rdmaCore": 50, "peermem": False, "cmdline": "BOOT_IMAGE=/vmlinuz ro quiet intel_iommu=on", "iommuGroups": 24,
                    "survey": survey([("0000:01:00.0", "NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "NVIDIA_RTX", 12, 0, True, True)])},
            "cpu": {"vendor": "GenuineIntel", "family": 6, "model": 198, "name": "Intel(R) Core(TM) Ultra 9 285K",
                    "sockets": 1, "logical": 4},
            "numa": {"0": "0-3"}, "devices": devices}


def threadripper_pro():
    """Threadripper PRO 5975WX (NPS1): GPU0 and a dual-port ConnectX-6 Dx on one root complex, GPU1 on another."""
    devices = [
        dev("pci0000:40/0000:40:01.1", "1022", "1483", "060400", "root port", "16.0", 16, 0, mps=256, mpsCap=512, driver="pcieport"),
        dev("pci0000:40/0000:40:01.1/0000:41:00.0", "10de", "2684", "030000", "endpoint", "16.0", 16, 0, mps=256, mpsCap=256, driver="nvidia"),
        dev("pci0000:40/0000:40:03.1", "1022", "1483", "060400", "root port", "16.0", 16, 0, mps=256, mpsCap=512, driver="pcieport"),
        dev("pci0000:40/0000:40:03.1/0000:42:00.0", "15b3", "101d", "020000", "endpoint", "16.0", 16, 0, mps=256, mpsCap=512,
            driver="mlx5_core", rdma=["mlx5_0"]),
        dev("pci0000:40/0000:40:03.1/0000:42:00.1", "15b3", "101d", "020000", "endpoint", "16.0", 16, 0, mps=256, mpsCap=512,
            driver="mlx5_core", rdma=["mlx5_1"]),
        dev("pci0000:20/0000:20:03.1", "1022", "1483", "060400", "root port", "16.0", 16, 0, mps=256, mpsCap=512, driver="pcieport"),
        dev("pci0000:20/0000:20:03.1/0000:21:00.0", "10de", "2684", "030000", "endpoint", "2.5", 16, 0, maxSpeed="16.0",
            mps=256, mpsCap=256, driver="nvidia"),
    ]
    return {"hostname": "trpro-ws", "kernel": "6.8.0-51-generic", "os": "Ubuntu 24.04.1 LTS",
            "env": {"NCCL_NET_GDR_LEVEL": "PHB"},
            "rdmaPort": {"rate": "100 Gb/sec (4X EDR)", "layer": "Ethernet", "fw": "22.39.1002", "arpIgnore": 1, "arpAnnounce": 2,
                         "netdevs": ["enp66s0f0np0", "enp66s0f1np1"], "ips": ["10.0.1.5/24", "10.0.2.5/24"], "mtu": [9000, 9000],
                         "v2": True},
            "gdr": {"rdmaCore": 50, "peermem": True,
                    "survey": survey([("0000:21:00.0", "NVIDIA GeForce RTX 4090", "GEFORCE", 8, 9, True, False),
                                      ("0000:41:00.0", "NVIDIA GeForce RTX 4090", "GEFORCE", 8, 9, True, False)],
                                     read="GPU_NOT_SUPPORTED", write="GPU_NOT_SUPPORTED")},
            "cpu": {"vendor": "AuthenticAMD", "family": 25, "model": 8, "name": "AMD Ryzen Threadripper PRO 5975WX 32-Cores",
                    "sockets": 1, "logical": 4},
            "numa": {"0": "0-3"}, "devices": devices}


def epyc_two_socket():
    """2 x EPYC 9654: two GPUs on socket 0 (two root complexes), the only ConnectX-7 on socket 1."""
    devices = [
        dev("pci0000:00/0000:00:01.1", "1022", "14ab", "060400", "root port", "16.0", 16, 0, maxSpeed="32.0", mps=512, mpsCap=512, driver="pcieport"),
        dev("pci0000:00/0000:00:01.1/0000:01:00.0", "10de", "26b9", "030200", "endpoint", "16.0", 16, 0, mps=256, mpsCap=256, driver="nvidia"),
        dev("pci0000:20/0000:20:01.1", "1022", "14ab", "060400", "root port", "16.0", 8, 0, maxSpeed="32.0", maxWidth=16, mps=512, mpsCap=512, driver="pcieport"),
        # trained at x8 although card and port are x16: the degraded link of this fixture
        dev("pci0000:20/0000:20:01.1/0000:21:00.0", "10de", "26b9", "030200", "endpoint", "16.0", 8, 0, maxWidth=16, mps=256, mpsCap=256, driver="nvidia"),
        dev("pci0000:80/0000:80:01.1", "1022", "14ab", "060400", "root port", "32.0", 16, 1, mps=512, mpsCap=512, driver="pcieport"),
        dev("pci0000:80/0000:80:01.1/0000:81:00.0", "15b3", "1021", "020000", "endpoint", "32.0", 16, 1, mps=512, mpsCap=512,
            driver="mlx5_core", rdma=["mlx5_0"]),
    ]
    return {"hostname": "epyc-2s", "kernel": "5.4.0-216-generic", "os": "Ubuntu 20.04.6 LTS",
            "rdmaPort": {"rate": "400 Gb/sec (4X NDR)", "layer": "InfiniBand", "state": "2: INIT"},
            "gdr": {"rdmaCore": 28, "peermem": False,
                    # what `gdr --active` records on such a node: no ibv_reg_dmabuf_mr before rdma-core 34, no peermem
                    "registration": {
                        "ncclProbe": {"value": [{"hca": "mlx5_0", "dmabufSupport": {"value":
                            "not supported: this libibverbs has no ibv_reg_dmabuf_mr (rdma-core before 34)"}}]},
                        "pairs": {"value": [{"gpuBusId": bus, "hca": "mlx5_0",
                                             "dmabuf": {"value": "not possible: libibverbs has no ibv_reg_dmabuf_mr (rdma-core before 34)"},
                                             "peermem": {"value": "failed: errno 14 (EFAULT: the NIC cannot pin this GPU memory: "
                                                                  "no peer-memory client, or a GPU without GPUDirect RDMA)"}}
                                            for bus in ("0000:01:00.0", "0000:21:00.0")]}},
                    "survey": survey([("0000:01:00.0", "NVIDIA L40S", "NVIDIA", 8, 9, True, True),
                                      ("0000:21:00.0", "NVIDIA L40S", "NVIDIA", 8, 9, True, True)])},
            "cpu": {"vendor": "AuthenticAMD", "family": 25, "model": 17, "name": "AMD EPYC 9654 96-Core Processor",
                    "sockets": 2, "logical": 8},
            "numa": {"0": "0-3", "1": "4-7"}, "devices": devices}


if __name__ == "__main__":
    for name, spec in [("dgx-class", dgx_class()), ("arrowlake-ws", arrow_lake()),
                       ("threadripper-pro-ws", threadripper_pro()), ("epyc-2s", epyc_two_socket())]:
        build(name, spec)
        print("wrote", os.path.normpath(os.path.join(OUT, name)))
