package io.nccldoctor.reports;

import io.nccldoctor.collectives.Libraries;
import io.nccldoctor.collectives.LibrariesProbe;
import io.nccldoctor.core.libs.NativeLibrary;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.NvidiaDriver;
import io.nccldoctor.gdr.NvidiaDriverProbe;
import io.nccldoctor.gdr.RdmaDevices;
import io.nccldoctor.gdr.RdmaProbe;
import io.nccldoctor.pcie.DeviceKind;
import io.nccldoctor.pcie.PciDevice;
import io.nccldoctor.pcie.PciLink;
import io.nccldoctor.pcie.PcieConfig;
import io.nccldoctor.pcie.PciInventory;
import io.nccldoctor.pcie.PciInventoryProbe;
import io.nccldoctor.pcie.Platform;
import io.nccldoctor.pcie.PlatformProbe;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds snapshots for rule tests, section by section, with stated values. */
final class Snaps {

    private final List<PciDevice> devices = new ArrayList<>();
    private NvidiaDriver driver = new NvidiaDriver(Fact.of("580.95.05"), Fact.of("open"), Fact.of("NVRM version: …"));
    private NativeLibrary cudart = lib("CUDA runtime", "libcudart.so.13", copy("/usr/local/cuda-13.0/lib/libcudart.so.13", "ldconfig", true, "13.0"));
    private NativeLibrary cuda = lib("CUDA driver", "libcuda.so.1", copy("/usr/lib/x86_64-linux-gnu/libcuda.so.580.95.05", "ldconfig", true, "13.0"));
    private NativeLibrary nccl = lib("NCCL", "libnccl.so.2", copy("/usr/lib/x86_64-linux-gnu/libnccl.so.2.28.3", "ldconfig", true, "2.28.3"));
    private RdmaDevices rdma = new RdmaDevices(Fact.absent("/sys/class/infiniband absent"));
    private Fact<List<PciDevice>> pciOverride;

    static Snaps node() {
        return new Snaps();
    }

    static PciDevice device(String address, String vendor, String device, String cls, String driver) {
        // Every test device sits behind one PCIe switch (upstream port 0000:01:00.0), so GPU-NIC pairs are PIX.
        Fact<String> sysfs = Fact.of("/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:" + address.substring(5, 7) + ".0/" + address);
        PciLink link = new PciLink(Fact.of(32.0), Fact.of(16), Fact.of(32.0), Fact.of(16));
        PcieConfig config = new PcieConfig(Fact.of("endpoint"), Fact.of(256), Fact.of(256), Fact.of(512), Fact.absent("no ACS capability"));
        return new PciDevice(address, vendor, device, cls, DeviceKind.classify(vendor, cls), Fact.absent("lspci not run"),
                driver == null ? Fact.absent("no driver bound") : Fact.of(driver), Fact.of(0), sysfs, link, config,
                Fact.absent("no AER counters"), Fact.of("0-55,112-167"), Fact.absent("not part of this test"));
    }

    Snaps gpus(int n, String driverName) {
        for (int i = 0; i < n; i++) {
            devices.add(device(String.format("0000:%02x:00.0", 0x17 + i), "10de", "2330", "030200", driverName));
        }
        return this;
    }

    Snaps nics(int n) {
        for (int i = 0; i < n; i++) {
            devices.add(device(String.format("0000:%02x:00.0", 0x40 + i), "15b3", "1021", "020700", "mlx5_core"));
        }
        return this;
    }

    Snaps pci(PciDevice d) {
        devices.add(d);
        return this;
    }

    Snaps pciUnreadable(String why) {
        pciOverride = Fact.error(why);
        return this;
    }

    Snaps driver(NvidiaDriver d) {
        this.driver = d;
        return this;
    }

    Snaps cudaRuntime(NativeLibrary l) {
        this.cudart = l;
        return this;
    }

    Snaps cudaDriver(NativeLibrary l) {
        this.cuda = l;
        return this;
    }

    Snaps nccl(NativeLibrary l) {
        this.nccl = l;
        return this;
    }

    Snaps rdma(int n) {
        List<RdmaDevices.RdmaDevice> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            var port = new RdmaDevices.RdmaPort(1, Fact.of("ACTIVE"), Fact.of("LinkUp"), Fact.of(400.0), Fact.of("400 Gb/sec (4X NDR)"),
                    Fact.of("InfiniBand"), Fact.of(List.of()), Fact.of(List.of()));
            list.add(new RdmaDevices.RdmaDevice("mlx5_" + i, Fact.of(String.format("0000:%02x:00.0", 0x40 + i)), Fact.of("28.39.1002"),
                    Fact.of("a088:c203:0052:d4a" + i), Fact.of(List.of(port))));
        }
        rdma = new RdmaDevices(Fact.of(list));
        return this;
    }

    static NativeLibrary.Copy copy(String realPath, String origin, boolean onPath, String version) {
        return new NativeLibrary.Copy(realPath, realPath, origin, onPath, Fact.absent("no version in the file name"),
                version == null ? Fact.absent("not asked") : Fact.of(version));
    }

    static NativeLibrary lib(String name, String soname, NativeLibrary.Copy... copies) {
        return new NativeLibrary(name, List.of(soname), List.of("LD_LIBRARY_PATH (unset)", "ldconfig cache"), List.of(copies));
    }

    Snapshot build() {
        Map<String, Object> sections = new LinkedHashMap<>();
        Platform.Cpu cpu = new Platform.Cpu(Fact.of("GenuineIntel"), Fact.of(6), Fact.of(143), Fact.of("Intel(R) Xeon(R) Platinum 8480C"),
                Fact.of(224), Fact.of(2));
        sections.put(PlatformProbe.KEY, new Platform(Fact.of("gpu-node-17"), Fact.of("6.8.0-49-generic"), Fact.of("Ubuntu 24.04.1 LTS"), cpu,
                Fact.of(List.of(new Platform.NumaNode(0, Fact.of("0-55,112-167")), new Platform.NumaNode(1, Fact.of("56-111,168-223"))))));
        sections.put(PciInventoryProbe.KEY, new PciInventory(pciOverride != null ? pciOverride : Fact.of(List.copyOf(devices)),
                Fact.absent("command not found: lspci")));
        sections.put(NvidiaDriverProbe.KEY, driver);
        sections.put(LibrariesProbe.KEY, new Libraries(cudart, cuda, nccl));
        sections.put(RdmaProbe.KEY, rdma);
        return new Snapshot(Snapshot.SCHEMA_VERSION, "test", "gpu-node-17", "2026-11-30T12:00:00Z", "test",
                List.of("preflight"), Map.of("NCCL_DEBUG", "INFO"), sections);
    }
}
