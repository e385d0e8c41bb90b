package io.nccldoctor.reports.cluster;

import io.nccldoctor.collectives.Libraries;
import io.nccldoctor.collectives.LibrariesProbe;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Json;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.core.libs.NativeLibrary;
import io.nccldoctor.gdr.GdrHost;
import io.nccldoctor.gdr.GdrHostProbe;
import io.nccldoctor.gdr.NvidiaDriver;
import io.nccldoctor.gdr.NvidiaDriverProbe;
import io.nccldoctor.gdr.RdmaDevices;
import io.nccldoctor.gdr.RdmaProbe;
import io.nccldoctor.pcie.DeviceKind;
import io.nccldoctor.pcie.PciDevice;
import io.nccldoctor.pcie.PciInventory;
import io.nccldoctor.pcie.PciInventoryProbe;
import io.nccldoctor.pcie.PciLink;
import io.nccldoctor.pcie.PcieConfig;
import io.nccldoctor.pcie.Platform;
import io.nccldoctor.pcie.PlatformProbe;
import io.nccldoctor.reports.Evaluation;
import io.nccldoctor.reports.NodeShape;
import io.nccldoctor.reports.PreflightReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;

/**
 * A generated cluster of DGX-class nodes as `preflight --json` writes them (one in ten as a bare snapshot): two
 * Sapphire Rapids sockets, 8 H100 SXM GPUs and 8 ConnectX-7 rail NICs behind four PCIe switches, a dual-port
 * ConnectX-7 for storage, NVSwitches, NVMe, the BMC and the CPUs' own functions (about 160 PCI functions), 10 RoCE
 * HCAs at MTU 9000. What differs between healthy nodes differs as on a real cluster (GUIDs, IP addresses, GIDs,
 * times, idle GPU link speeds); a few nodes are planted off the majority. {@link #main} writes one for
 * bench/cluster.sh.
 */
final class ClusterSample {

    static final String FIRMWARE = "28.39.1002";
    static final String OLD_FIRMWARE = "28.36.1010";
    static final String DRIVER = "580.95.05";
    static final String OLD_DRIVER = "570.172.08";
    static final String ALLREDUCE = "allreduce 1GiB 8 GPUs";
    static final String IB_WRITE = "ib_write_bw mlx5_0 1MiB";

    /** The nodes planted off the majority, by host name. */
    record Plan(int nodes, List<String> firmware, List<String> mtu, List<String> driver, List<String> slow, long seed) {
    }

    private ClusterSample() {
    }

    static String host(int i) {
        return String.format(Locale.ROOT, "gpu-node-%04d", i);
    }

    /** 3 nodes on another NIC firmware, 2 at MTU 1500, 1 on an older driver, 2 slow in allreduce (needs 9 nodes or more). */
    static Plan plan(int n) {
        if (n < 9) {
            throw new IllegalArgumentException("a planted cluster needs 9 nodes or more");
        }
        int[] at = {7, 311, 902, 100, 555, 421, 250, 777};
        List<String> h = new ArrayList<>();
        for (int i = 0; i < at.length; i++) {
            int k = at[i] <= n ? at[i] : i + 1;
            h.add(host(k));
        }
        return new Plan(n, h.subList(0, 3), h.subList(3, 5), h.subList(5, 6), h.subList(6, 8), 20261130L);
    }

    /** Writes NODE.json for every node and bandwidth.csv into {@code dir}. */
    static void write(Path dir, Plan p) throws IOException {
        Files.createDirectories(dir);
        IntStream.rangeClosed(1, p.nodes()).parallel().forEach(i -> {
            Snapshot s = node(i, p);
            String json = i % 10 == 0 ? Json.write(s)
                    : Json.write(PreflightReport.of(s, NodeShape.none(), new Evaluation(List.of(), List.of(), List.of())));
            try {
                Files.writeString(dir.resolve(host(i) + ".json"), json, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        Files.writeString(dir.resolve("bandwidth.csv"), csv(p), StandardCharsets.UTF_8);
    }

    /** Two labels per node, healthy nodes within ±1 % (allreduce) and ±0.5 % (ib_write_bw) of nominal. */
    static String csv(Plan p) {
        Random rnd = new Random(p.seed());
        StringBuilder b = new StringBuilder("# busbw per node, GB/s\nhost,label,busbw_gbps\n");
        for (int i = 1; i <= p.nodes(); i++) {
            String h = host(i);
            double ar = 480.0 * (1 + 0.01 * (2 * rnd.nextDouble() - 1));
            if (h.equals(p.slow().get(0))) {
                ar = 480.0 * 0.66;
            } else if (h.equals(p.slow().get(1))) {
                ar = 480.0 * 0.83;
            }
            b.append(String.format(Locale.ROOT, "%s,%s,%.2f%n", h, ALLREDUCE, ar));
            b.append(String.format(Locale.ROOT, "%s,%s,%.2f%n", h, IB_WRITE, 48.6 * (1 + 0.005 * (2 * rnd.nextDouble() - 1))));
        }
        return b.toString();
    }

    static Snapshot node(int i, Plan p) {
        String host = host(i);
        Random rnd = new Random(p.seed() * 31 + i);
        String driver = p.driver().contains(host) ? OLD_DRIVER : DRIVER;
        Pci pci = new Pci(rnd);
        Map<String, Object> sections = new LinkedHashMap<>();
        sections.put(PlatformProbe.KEY, platform(host));
        sections.put(PciInventoryProbe.KEY, new PciInventory(Fact.of(pci.devices), Fact.of("lspci -mm -nn -D")));
        sections.put(NvidiaDriverProbe.KEY, new NvidiaDriver(Fact.of(driver), Fact.of("open"), Fact.of("NVRM version: NVIDIA UNIX Open "
                + "Kernel Module for x86_64  " + driver + "  Release Build  (dvs-builder@U22-I3-AE18-09-3)  Thu Sep 25 21:33:49 UTC 2025")));
        sections.put(LibrariesProbe.KEY, libraries(driver));
        sections.put(RdmaProbe.KEY, rdma(i, pci.nics, p.firmware().contains(host) ? OLD_FIRMWARE : FIRMWARE,
                p.mtu().contains(host) ? 1500 : 9000, rnd));
        sections.put(GdrHostProbe.KEY, gdrHost(driver));
        String at = String.format(Locale.ROOT, "2026-11-30T06:%02d:%02dZ", i / 60 % 60, i % 60);
        return new Snapshot(Snapshot.SCHEMA_VERSION, "0.1.0-SNAPSHOT", host, at, "live", List.of("preflight", "--json"),
                Map.of("NCCL_IB_HCA", "=mlx5_0,mlx5_1,mlx5_2,mlx5_3,mlx5_4,mlx5_5,mlx5_6,mlx5_7", "NCCL_SOCKET_IFNAME", "bond0",
                        "CUDA_MODULE_LOADING", "LAZY", "HOME", "/home/svc-preflight"), sections);
    }

    /** The snapshot with one section replaced (or removed, for null): a node that differs in one planted way. */
    static Snapshot with(Snapshot s, String key, Object section) {
        Map<String, Object> sections = new LinkedHashMap<>(s.sections());
        if (section == null) {
            sections.remove(key);
        } else {
            sections.put(key, section);
        }
        return new Snapshot(s.schemaVersion(), s.toolVersion(), s.hostName(), s.createdAt(), s.source(), s.argv(), s.env(), sections);
    }

    /** The snapshot under another host name. */
    static Snapshot named(Snapshot s, String host) {
        return new Snapshot(s.schemaVersion(), s.toolVersion(), host, s.createdAt(), s.source(), s.argv(), s.env(), s.sections());
    }

    private static Platform platform(String host) {
        Platform.Cpu cpu = new Platform.Cpu(Fact.of("GenuineIntel"), Fact.of(6), Fact.of(143), Fact.of("Intel(R) Xeon(R) Platinum 8480C"),
                Fact.of(224), Fact.of(2));
        return new Platform(Fact.of(host), Fact.of("6.8.0-60-generic"), Fact.of("Ubuntu 22.04.5 LTS"), cpu,
                Fact.of(List.of(new Platform.NumaNode(0, Fact.of("0-55,112-167")), new Platform.NumaNode(1, Fact.of("56-111,168-223")))));
    }

    private static final List<String> SEARCHED = List.of("LD_LIBRARY_PATH (unset)", "ldconfig cache",
            "default folders /lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu /lib64 /usr/lib64 /lib /usr/lib",
            "CUDA toolkit folders /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib", "python site-packages /opt/venv/lib/python3.12/site-packages");

    private static Libraries libraries(String driver) {
        String cuda = driver.equals(DRIVER) ? "13.0" : "12.8";
        NativeLibrary cudart = new NativeLibrary("CUDA runtime", List.of("libcudart.so.13", "libcudart.so.12"), SEARCHED, List.of(
                new NativeLibrary.Copy("/usr/local/cuda/targets/x86_64-linux/lib/libcudart.so.13", "/usr/local/cuda-13.0/targets/x86_64-linux/lib/libcudart.so.13.0.96",
                        "ldconfig", true, Fact.of("13.0.96"), Fact.of("13.0"))));
        NativeLibrary libcuda = new NativeLibrary("CUDA driver", List.of("libcuda.so.1"), SEARCHED, List.of(
                new NativeLibrary.Copy("/lib/x86_64-linux-gnu/libcuda.so.1", "/usr/lib/x86_64-linux-gnu/libcuda.so." + driver, "ldconfig", true,
                        Fact.of(driver), Fact.of(cuda))));
        NativeLibrary nccl = new NativeLibrary("NCCL", List.of("libnccl.so.2"), SEARCHED, List.of(
                new NativeLibrary.Copy("/lib/x86_64-linux-gnu/libnccl.so.2", "/usr/lib/x86_64-linux-gnu/libnccl.so.2.28.3", "ldconfig", true,
                        Fact.of("2.28.3"), Fact.of("2.28.3")),
                new NativeLibrary.Copy("/opt/venv/lib/python3.12/site-packages/nvidia/nccl/lib/libnccl.so.2",
                        "/opt/venv/lib/python3.12/site-packages/nvidia/nccl/lib/libnccl.so.2", "python", false,
                        Fact.absent("no version in the file name"), Fact.of("2.28.3"))));
        return new Libraries(cudart, libcuda, nccl);
    }

    private static GdrHost gdrHost(String driver) {
        NativeLibrary ibverbs = new NativeLibrary("libibverbs", List.of("libibverbs.so.1"), SEARCHED, List.of(
                new NativeLibrary.Copy("/lib/x86_64-linux-gnu/libibverbs.so.1", "/usr/lib/x86_64-linux-gnu/libibverbs.so.1.14.50.0", "ldconfig",
                        true, Fact.of("1.14.50.0"), Fact.absent("not asked"))));
        return new GdrHost(Fact.of("6.8.0-60-generic"), Fact.of("y"), Fact.of(List.of("iommu=pt")), Fact.of(212),
                Fact.of("/sys/module/nvidia_peermem/version " + driver), ibverbs, Fact.of("50"), Fact.of(true));
    }

    /** mlx5_0..7 on the rail NICs in switch order, mlx5_8 and mlx5_9 on the storage NIC's two functions. */
    private static RdmaDevices rdma(int node, List<String> nics, String fw, int mtu, Random rnd) {
        List<RdmaDevices.RdmaDevice> out = new ArrayList<>();
        for (int k = 0; k < nics.size(); k++) {
            String addr = nics.get(k);
            int bus = Integer.parseInt(addr.substring(5, 7), 16);
            String netdev = "enp" + bus + "s0f" + addr.charAt(11) + "np" + addr.charAt(11);
            String ip = String.format(Locale.ROOT, "10.%d.%d.%d", 100 + k, node / 250, node % 250 + 1);
            String mac = String.format(Locale.ROOT, "%04x:%02xff:fe%02x:%04x", 0xa088 + k, rnd.nextInt(256), rnd.nextInt(256), rnd.nextInt(65536));
            List<RdmaDevices.Gid> gids = List.of(
                    new RdmaDevices.Gid(0, "fe80:0000:0000:0000:" + mac, Fact.of("IB/RoCE v1"), Fact.of(netdev)),
                    new RdmaDevices.Gid(1, "fe80:0000:0000:0000:" + mac, Fact.of("RoCE v2"), Fact.of(netdev)),
                    new RdmaDevices.Gid(2, "0000:0000:0000:0000:0000:ffff:" + hexIp(ip), Fact.of("IB/RoCE v1"), Fact.of(netdev)),
                    new RdmaDevices.Gid(3, "0000:0000:0000:0000:0000:ffff:" + hexIp(ip), Fact.of("RoCE v2"), Fact.of(netdev)));
            boolean storage = k >= 8;
            RdmaDevices.RdmaPort port = new RdmaDevices.RdmaPort(1, Fact.of("ACTIVE"), Fact.of("LinkUp"), Fact.of(storage ? 200.0 : 400.0),
                    Fact.of(storage ? "200 Gb/sec (4X HDR)" : "400 Gb/sec (4X NDR)"), Fact.of("Ethernet"), Fact.of(gids),
                    Fact.of(List.of(new RdmaDevices.Netdev(netdev, Fact.of(mtu), Fact.of(List.of(ip + "/16")), Fact.of(1), Fact.of(2)))));
            out.add(new RdmaDevices.RdmaDevice("mlx5_" + k, Fact.of(addr), Fact.of(fw),
                    Fact.of(String.format(Locale.ROOT, "%04x:%04x:%04x:%04x", 0xa088, 0xc203, rnd.nextInt(65536), rnd.nextInt(65536))),
                    Fact.of(List.of(port))));
        }
        return new RdmaDevices(Fact.of(out));
    }

    private static String hexIp(String ip) {
        String[] o = ip.split("\\.");
        return String.format(Locale.ROOT, "%02x%02x:%02x%02x", Integer.parseInt(o[0]), Integer.parseInt(o[1]), Integer.parseInt(o[2]),
                Integer.parseInt(o[3]));
    }

    /** The PCI functions of one node, with sysfs paths that give the tree (root port, switch, endpoint). */
    private static final class Pci {
        final List<PciDevice> devices = new ArrayList<>();
        final List<String> nics = new ArrayList<>();
        private final Random rnd;

        Pci(Random rnd) {
            this.rnd = rnd;
            int[] switchRoots = {0x15, 0x48, 0x97, 0xc7};
            for (int s = 0; s < switchRoots.length; s++) {
                pcieSwitch(switchRoots[s], s < 2 ? 0 : 1);
            }
            for (int rb : new int[] {0x00, 0x15, 0x37, 0x48, 0x59, 0x80, 0x97, 0xa7, 0xb7, 0xc7}) {
                add(String.format(Locale.ROOT, "0000:%02x:00.0", rb), "8086", "09a2", "060000", null, "/sys/devices/pci0000:" + hex(rb),
                        rb < 0x80 ? 0 : 1, null, "Intel Corporation", "Ice Lake Memory Map/VT-d", "System peripheral");
            }
            storage();
            nvswitches();
            onboard();
            for (int bus : new int[] {0x7e, 0x7f, 0xfe, 0xff}) {
                for (int f = 0; f < 20; f++) {
                    String a = String.format(Locale.ROOT, "0000:%02x:%02x.%d", bus, f / 4, f % 4);
                    add(a, "8086", String.format(Locale.ROOT, "32%02x", 0x40 + f), "088000", null, "/sys/devices/pci0000:" + hex(bus),
                            bus < 0x80 ? 0 : 1, null, "Intel Corporation", "Sapphire Rapids uncore", "System peripheral");
                }
            }
        }

        private void pcieSwitch(int rb, int numa) {
            String rootPath = "/sys/devices/pci0000:" + hex(rb);
            String port = add(String.format(Locale.ROOT, "0000:%02x:01.0", rb), "8086", "352a", "060400", "pcieport", rootPath, numa,
                    link(32, 16), "Intel Corporation", "Sapphire Rapids PCIe Root Port", "PCI bridge");
            String up = add(String.format(Locale.ROOT, "0000:%02x:00.0", rb + 1), "1000", "c030", "060400", "pcieport", rootPath + "/" + port,
                    numa, link(32, 16), "Broadcom / LSI", "PEX890xx PCIe Gen 5 Switch", "PCI bridge");
            String upPath = rootPath + "/" + port + "/" + up;
            String[][] ends = {{"10de", "2330", "030200", "nvidia"}, {"10de", "2330", "030200", "nvidia"}, {"15b3", "1021", "020700", "mlx5_core"},
                {"15b3", "1021", "020700", "mlx5_core"}, {"144d", "a80a", "010802", "nvme"}};
            for (int k = 0; k < ends.length; k++) {
                String down = add(String.format(Locale.ROOT, "0000:%02x:%02x.0", rb + 2, k), "1000", "c030", "060400", "pcieport", upPath, numa,
                        link(32, 16), "Broadcom / LSI", "PEX890xx PCIe Gen 5 Switch", "PCI bridge");
                String[] e = ends[k];
                String addr = String.format(Locale.ROOT, "0000:%02x:00.0", rb + 3 + k);
                boolean gpu = e[0].equals("10de");
                // An idle H100 lowers its link to 2.5 GT/s; about a third of the GPUs are idle at any moment.
                PciLink l = gpu ? new PciLink(Fact.of(rnd.nextInt(3) == 0 ? 2.5 : 32.0), Fact.of(16), Fact.of(32.0), Fact.of(16))
                        : e[0].equals("144d") ? link(16, 4) : link(32, 16);
                add(addr, e[0], e[1], e[2], e[3], upPath + "/" + down, numa, l, gpu ? "NVIDIA Corporation" : e[0].equals("15b3")
                        ? "Mellanox Technologies" : "Samsung Electronics Co Ltd", gpu ? "GH100 [H100 SXM5 80GB]" : e[0].equals("15b3")
                        ? "MT2910 Family [ConnectX-7]" : "NVMe SSD Controller PM174X", gpu ? "3D controller" : e[0].equals("15b3")
                        ? "Ethernet controller" : "Non-Volatile memory controller");
                if (e[0].equals("15b3")) {
                    nics.add(addr);
                }
            }
        }

        private void storage() {
            String root = "/sys/devices/pci0000:37";
            String port = add("0000:37:01.0", "8086", "352a", "060400", "pcieport", root, 0, link(32, 16), "Intel Corporation",
                    "Sapphire Rapids PCIe Root Port", "PCI bridge");
            for (int f = 0; f < 2; f++) {
                String a = "0000:38:00." + f;
                add(a, "15b3", "1021", "020700", "mlx5_core", root + "/" + port, 0, link(32, 16), "Mellanox Technologies",
                        "MT2910 Family [ConnectX-7]", "Ethernet controller");
                nics.add(a);
            }
        }

        private void nvswitches() {
            String root = "/sys/devices/pci0000:a7";
            String port = add("0000:a7:01.0", "8086", "352a", "060400", "pcieport", root, 1, link(16, 4), "Intel Corporation",
                    "Sapphire Rapids PCIe Root Port", "PCI bridge");
            String up = add("0000:a8:00.0", "1000", "c030", "060400", "pcieport", root + "/" + port, 1, link(16, 4), "Broadcom / LSI",
                    "PEX890xx PCIe Gen 5 Switch", "PCI bridge");
            for (int k = 0; k < 4; k++) {
                String down = add(String.format(Locale.ROOT, "0000:a9:%02x.0", k), "1000", "c030", "060400", "pcieport",
                        root + "/" + port + "/" + up, 1, link(16, 2), "Broadcom / LSI", "PEX890xx PCIe Gen 5 Switch", "PCI bridge");
                add(String.format(Locale.ROOT, "0000:%02x:00.0", 0xaa + k), "10de", "22a3", "068000", "nvidia-nvswitch",
                        root + "/" + port + "/" + up + "/" + down, 1, link(16, 2), "NVIDIA Corporation", "GH100 [H100 NVSwitch]", "Bridge");
            }
        }

        private void onboard() {
            String root = "/sys/devices/pci0000:00";
            String port = add("0000:00:1c.0", "8086", "1bb8", "060400", "pcieport", root, 0, link(8, 8), "Intel Corporation",
                    "Emmitsburg PCH PCI Express Root Port", "PCI bridge");
            for (int f = 0; f < 2; f++) {
                add("0000:01:00." + f, "8086", "1572", "020000", "i40e", root + "/" + port, 0, link(8, 8), "Intel Corporation",
                        "Ethernet Controller X710 for 10GbE SFP+", "Ethernet controller");
            }
            String bmcPort = add("0000:00:1c.4", "8086", "1bbc", "060400", "pcieport", root, 0, link(5, 1), "Intel Corporation",
                    "Emmitsburg PCH PCI Express Root Port", "PCI bridge");
            String bridge = add("0000:02:00.0", "1a03", "1150", "060400", null, root + "/" + bmcPort, 0, link(5, 1), "ASPEED Technology, Inc.",
                    "AST1150 PCI-to-PCI Bridge", "PCI bridge");
            add("0000:03:00.0", "1a03", "2000", "030000", "ast", root + "/" + bmcPort + "/" + bridge, 0, null, "ASPEED Technology, Inc.",
                    "ASPEED Graphics Family", "VGA compatible controller");
        }

        private static PciLink link(double gtps, int width) {
            return new PciLink(Fact.of(gtps), Fact.of(width), Fact.of(gtps), Fact.of(width));
        }

        private String add(String address, String vendor, String device, String cls, String driver, String parentPath, int numa,
                           PciLink link, String vendorName, String deviceName, String className) {
            PciLink l = link != null ? link : new PciLink(Fact.absent("no such file: /sys/bus/pci/devices/" + address + "/current_link_speed"),
                    Fact.absent("no such file: /sys/bus/pci/devices/" + address + "/current_link_width"),
                    Fact.absent("no such file: /sys/bus/pci/devices/" + address + "/max_link_speed"),
                    Fact.absent("no such file: /sys/bus/pci/devices/" + address + "/max_link_width"));
            String rootOnly = "capabilities beyond the first 64 bytes of config space are readable by root only (run as root, or capture as root)";
            PcieConfig config = new PcieConfig(Fact.absent(rootOnly), Fact.absent(rootOnly), Fact.absent(rootOnly), Fact.absent(rootOnly),
                    Fact.absent(rootOnly));
            boolean endpoint = cls.startsWith("03") || cls.startsWith("02") || cls.startsWith("0680");
            devices.add(new PciDevice(address, vendor, device, cls, DeviceKind.classify(vendor, cls),
                    Fact.of(new PciDevice.PciNames(vendorName, deviceName, className)),
                    driver == null ? Fact.absent("no driver bound") : Fact.of(driver), Fact.of(numa), Fact.of(parentPath + "/" + address), l, config,
                    endpoint ? Fact.of(new PciDevice.AerCounts(0, 0, 0)) : Fact.absent("no AER counters (device without AER, or kernel before 4.19)"),
                    Fact.of(numa == 0 ? "0-55,112-167" : "56-111,168-223"), Fact.of(vendor + ":" + (endpoint ? "1" + device.substring(1) : "0000"))));
            return address;
        }

        private static String hex(int b) {
            return String.format(Locale.ROOT, "%02x", b);
        }
    }

    /** bench/cluster.sh: {@code ClusterSample DIR [NODES]} writes a planted cluster and names the planted nodes. */
    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: ClusterSample DIR [NODES]  (default 1000 nodes)");
            System.exit(2);
        }
        Plan p = plan(args.length > 1 ? Integer.parseInt(args[1]) : 1000);
        write(Path.of(args[0]), p);
        System.out.println("wrote " + p.nodes() + " snapshots and bandwidth.csv to " + args[0]);
        System.out.println("planted: firmware " + p.firmware() + ", MTU 1500 " + p.mtu() + ", driver " + p.driver() + ", slow " + p.slow());
    }
}
