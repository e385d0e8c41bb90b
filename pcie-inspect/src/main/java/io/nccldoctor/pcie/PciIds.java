package io.nccldoctor.pcie;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The one PCI class and vendor table that every topology input goes through (sysfs, lspci tree and verbose text,
 * NCCL topology XML, the RDMA names of nvidia-smi's matrix). Class names are the PCI ID database's class section
 * (pci-classes.ids, a copy of the "C" lines of pci.ids, https://github.com/pciutils/pciids, version 2026.08.22);
 * vendor and device names below are that file's names. The families say which functions a GPU communication library
 * uses: NVIDIA GPUs (NCCL), AMD Instinct GPUs (RCCL), and NICs with an RDMA driver in the kernel
 * (drivers/infiniband/hw/&lt;driver&gt;) or, for HPE Slingshot, libfabric's cxi provider.
 */
public final class PciIds {

    /** What a family is to NCCL and RCCL. */
    public enum Role { NVIDIA_GPU, AMD_GPU, RDMA_NIC }

    /**
     * @param devices device ids of the family; empty means every function of the vendor in the family's class
     * @param names   lower-case fragments of the pci.ids device names, for text that has names and no ids (lspci -tv)
     */
    public record Family(String vendor, String name, Role role, String driver, Set<String> devices, List<String> names) {

        boolean matches(String vendorId, String deviceId, String nameLower) {
            boolean vendorKnown = !vendorId.equals(UNKNOWN_VENDOR);
            if (vendorKnown && !vendor.equals(vendorId)) {
                return false;
            }
            if (vendorKnown && (!deviceId.equals(UNKNOWN_DEVICE) || devices.isEmpty())) {
                return devices.isEmpty() || devices.contains(deviceId);
            }
            return nameLower != null && names.stream().anyMatch(nameLower::contains);
        }
    }

    static final String UNKNOWN_VENDOR = "0000";
    static final String UNKNOWN_DEVICE = "0000";
    public static final String NVIDIA = "10de";
    public static final String AMD_ATI = "1002";

    /** AMD device ids whose pci.ids name says "Instinct" (MI25 … MI355X); every AMD 0380/1200 function is one too. */
    private static final Set<String> INSTINCT = Set.of("66a0", "66a1", "6860", "6864", "686c", "738c", "738e", "7408",
            "740c", "740f", "74a0", "74a1", "74a2", "74a5", "74a9", "74b5", "74b9", "74bd", "75a0", "75a3", "75a8");

    /** pci.ids 14e4 devices named "NetXtreme-C/E", plus BCM57608, BCM57708 and the BCM5760X VF (bnxt_re's Thor 2). */
    private static final Set<String> NETXTREME_E = Set.of("1604", "1605", "1606", "1609", "1614", "16c1", "16c8",
            "16c9", "16ca", "16cb", "16cc", "16ce", "16cf", "16d0", "16d1", "16d2", "16d3", "16d4", "16d5", "16d6", "16d7",
            "16d8", "16d9", "16dc", "16de", "16df", "16e1", "16e2", "16e3", "16e5", "16e7", "16e8", "16e9", "16eb", "16ec",
            "16ed", "16ee", "16ef", "16f1", "1750", "1751", "1752", "1760", "1780", "1800", "1801", "1802", "1803", "1804",
            "1805", "1806", "1807", "1808", "1809", "1819");

    private static final List<Family> FAMILIES = List.of(
            new Family(NVIDIA, "NVIDIA GPU", Role.NVIDIA_GPU, "nvidia", Set.of(), List.of()),
            new Family(AMD_ATI, "AMD Instinct", Role.AMD_GPU, "amdgpu", INSTINCT, List.of("instinct")),
            new Family("15b3", "NVIDIA (Mellanox) ConnectX/BlueField", Role.RDMA_NIC, "mlx5_ib", Set.of(),
                    List.of("connectx", "bluefield")),
            new Family("1d0f", "Amazon Elastic Fabric Adapter", Role.RDMA_NIC, "efa",
                    Set.of("efa0", "efa1", "efa2", "efa3", "efa4"), List.of("elastic fabric adapter")),
            new Family("14e4", "Broadcom NetXtreme-C/E", Role.RDMA_NIC, "bnxt_re", NETXTREME_E,
                    List.of("netxtreme-e", "netxtreme-c", "bcm5760", "bcm5770")),
            new Family("8086", "Intel E810/X722", Role.RDMA_NIC, "irdma", Set.of("1590", "1591", "1592", "1593", "1594",
                    "1595", "1598", "1599", "159a", "159b", "159c", "159d", "0dda", "37cc", "37ce", "37cf", "37d0", "37d1",
                    "37d2", "37d3", "37d4", "37d9"), List.of("e810", "x722")),
            new Family("8086", "Intel Omni-Path HFI", Role.RDMA_NIC, "hfi1", Set.of("24f0", "24f1"), List.of("omni-path hfi")),
            new Family("434e", "Cornelis Omni-Path HFI", Role.RDMA_NIC, "hfi1", Set.of("0001", "0002"), List.of("hfi silicon")),
            new Family("1077", "QLogic FastLinQ", Role.RDMA_NIC, "qedr", Set.of("1634", "1644", "1654", "1656", "8070"),
                    List.of("fastlinq ql45000", "fastlinq ql41000")),
            new Family("19e5", "Huawei HNS RoCE", Role.RDMA_NIC, "hns", Set.of("a222", "a224", "a226", "a22f"),
                    List.of("hns ge/10ge/25ge rdma", "hns rdma")),
            new Family("1ded", "Alibaba Elastic RDMA", Role.RDMA_NIC, "erdma", Set.of("107f", "5007"),
                    List.of("elastic rdma adapter")),
            new Family("17db", "HPE Slingshot Cassini", Role.RDMA_NIC, "cxi (libfabric)", Set.of("0501"), List.of("cassini")));

    /** pci.ids vendor names, for text that names vendors instead of giving ids. */
    private static final Map<String, String> VENDORS = Map.ofEntries(
            Map.entry(NVIDIA, "NVIDIA Corporation"), Map.entry(AMD_ATI, "Advanced Micro Devices, Inc. [AMD/ATI]"),
            Map.entry("1022", "Advanced Micro Devices, Inc. [AMD]"), Map.entry("15b3", "Mellanox Technologies"),
            Map.entry("1d0f", "Amazon.com, Inc."), Map.entry("14e4", "Broadcom Inc. and subsidiaries"),
            Map.entry("8086", "Intel Corporation"), Map.entry("1000", "Broadcom / LSI"), Map.entry("10b5", "PLX Technology, Inc."),
            Map.entry("11f8", "PMC-Sierra Inc."), Map.entry("434e", "Cornelis Networks"), Map.entry("1077", "QLogic Corp."),
            Map.entry("19e5", "Huawei Technologies Co., Ltd."), Map.entry("1ded", "Alibaba (China) Co., Ltd."),
            Map.entry("17db", "Cray Inc"), Map.entry("1af4", "Red Hat, Inc."), Map.entry("1a03", "ASPEED Technology, Inc."),
            Map.entry("104c", "Texas Instruments"), Map.entry("1414", "Microsoft Corporation"),
            Map.entry("1d94", "Chengdu Haiguang IC Design Co., Ltd."), Map.entry("1da3", "Habana Labs Ltd."));

    private static final Map<String, String> CLASSES = loadClasses();
    /** Lower-case class names to codes, subclasses first: lspci without -n prints the subclass name ("3D controller"). */
    private static final Map<String, String> CLASS_CODES = classCodes();

    private PciIds() {
    }

    /** The family of a function; {@code name} (any case, may be null) is used when the ids are unknown ("0000"). */
    public static Optional<Family> family(String vendorId, String deviceId, String classCode, String name) {
        String lower = name == null ? null : name.toLowerCase(Locale.ROOT);
        boolean unknownClass = classCode.startsWith("ff");
        if (classCode.startsWith("03") || classCode.startsWith("12") || unknownClass) {
            Optional<Family> gpu = gpuFamily(vendorId, deviceId, classCode, lower);
            if (gpu.isPresent()) {
                return gpu;
            }
        }
        if (classCode.startsWith("02") || unknownClass) {
            return FAMILIES.stream().filter(f -> f.role() == Role.RDMA_NIC && f.matches(vendorId, deviceId, lower)).findFirst();
        }
        return Optional.empty();
    }

    /**
     * NVIDIA: any display class (NCCL, src/graph/topo.cc kvDictPciClass: "0x03" is a GPU). AMD: the compute-only classes
     * 0380 and 1200 (RCCL adds "0x120000" to that table for MI300), or any function with an Instinct id or name; a
     * Radeon or an APU's integrated GPU is a VGA function (0300) and stays a display.
     */
    private static Optional<Family> gpuFamily(String vendorId, String deviceId, String classCode, String lower) {
        boolean instinctName = lower != null && lower.contains("instinct");
        if (vendorId.equals(NVIDIA) && classCode.startsWith("03")) {
            return Optional.of(FAMILIES.get(0));
        }
        boolean amd = vendorId.equals(AMD_ATI) || (vendorId.equals(UNKNOWN_VENDOR) && instinctName);
        if (amd && (classCode.startsWith("0380") || classCode.startsWith("12") || INSTINCT.contains(deviceId) || instinctName)) {
            return Optional.of(FAMILIES.get(1));
        }
        return Optional.empty();
    }

    /** The vendor id of a pci.ids vendor name at the start of {@code name}; "0000" when none matches. */
    public static String vendorOfName(String name) {
        if (name == null) {
            return UNKNOWN_VENDOR;
        }
        String lower = name.toLowerCase(Locale.ROOT);
        String best = UNKNOWN_VENDOR;
        int bestScore = 0;
        for (Map.Entry<String, String> v : VENDORS.entrySet()) {
            String vendor = v.getValue().toLowerCase(Locale.ROOT);
            String stem = vendor.replaceAll("[,.]? (inc|corp|corporation|ltd|limited|co)\\b.*$", "");
            // the whole pci.ids name beats its stem: "Advanced Micro Devices, Inc. [AMD/ATI]" is 1002, "[AMD]" 1022
            int score = lower.startsWith(vendor) ? 1000 + vendor.length() : lower.startsWith(stem) ? stem.length() : 0;
            if (score > bestScore) {
                best = v.getKey();
                bestScore = score;
            }
        }
        return best;
    }

    /**
     * The vendor a kernel driver binds only: nvidia's table (kernel/nvidia/nv-pci-table.c, nv_pci_table) lists
     * PCI_VENDOR_ID_NVIDIA with the VGA and 3D display classes and nothing else. Empty for any other driver.
     */
    public static Optional<String> vendorOfDriver(String driver) {
        return driver.strip().equals("nvidia") ? Optional.of(NVIDIA) : Optional.empty();
    }

    /** False for the "0000" a text without ids leaves (PCI-SIG assigns no vendor 0x0000). */
    public static boolean vendorKnown(String vendorId) {
        return !vendorId.equals(UNKNOWN_VENDOR);
    }

    public static Optional<String> vendorName(String vendorId) {
        return Optional.ofNullable(VENDORS.get(vendorId));
    }

    /** "020700" → "Network controller / Infiniband controller"; the base class alone when the subclass is not listed. */
    public static Optional<String> className(String classCode) {
        String base = CLASSES.get(classCode.substring(0, 2));
        if (base == null) {
            return Optional.empty();
        }
        String sub = CLASSES.get(classCode.substring(0, 4));
        return Optional.of(sub == null ? base : base + " / " + sub);
    }

    /** "Ethernet controller" → "020000", "Display controller" → "038000" (the subclass), as lspci names classes. */
    public static Optional<String> classOfName(String name) {
        return Optional.ofNullable(CLASS_CODES.get(name.strip().toLowerCase(Locale.ROOT)));
    }

    private static Map<String, String> classCodes() {
        Map<String, String> out = new HashMap<>();
        CLASSES.forEach((code, name) -> {
            if (code.length() == 4) {
                out.put(name.toLowerCase(Locale.ROOT), code + "00");
            }
        });
        CLASSES.forEach((code, name) -> {
            if (code.length() == 2) {
                out.putIfAbsent(name.toLowerCase(Locale.ROOT), code + "0000");
            }
        });
        return Map.copyOf(out);
    }

    /** Whether the class code is one the PCI ID database lists (base class and subclass). */
    public static boolean knownClass(String classCode) {
        return CLASSES.containsKey(classCode.substring(0, 2)) && CLASSES.containsKey(classCode.substring(0, 4));
    }

    /** A function NCCL's IB/RoCE transport (or an RDMA network plugin) can use once its driver is loaded. */
    public static boolean rdmaCapable(PciDevice d) {
        if (d.classCode().startsWith("0207") || d.classCode().startsWith("0208")) {
            return true; // InfiniBand and fabric controllers are RDMA devices by class
        }
        String name = d.names().map(n -> n.vendor() + " " + n.device()).orElse(null);
        return family(d.vendorId(), d.deviceId(), d.classCode(), name).filter(f -> f.role() == Role.RDMA_NIC).isPresent();
    }

    /** The RDMA driver whose device names start with this prefix (mlx5_0, bnxt_re0, efa_0, rdmap16s27, irdma0 …). */
    public static Optional<String> rdmaDriverOfName(String rdmaName) {
        List<String[]> prefixes = List.of(new String[] {"mlx5_", "mlx5_ib"}, new String[] {"mlx4_", "mlx4_ib"},
                new String[] {"bnxt_re", "bnxt_re"}, new String[] {"efa_", "efa"}, new String[] {"rdmap", "efa"},
                new String[] {"irdma", "irdma"}, new String[] {"hfi1_", "hfi1"}, new String[] {"qedr", "qedr"},
                new String[] {"hns_", "hns"}, new String[] {"erdma_", "erdma"}, new String[] {"cxi", "cxi (libfabric)"});
        for (String[] p : prefixes) {
            if (rdmaName.startsWith(p[0])) {
                return Optional.of(p[1]);
            }
        }
        return Optional.empty();
    }

    /** "C 02  Network controller" → 02; "\t07  Infiniband controller" under it → 0207. Programming interfaces are skipped. */
    private static Map<String, String> loadClasses() {
        Map<String, String> out = new HashMap<>();
        try (InputStream in = PciIds.class.getResourceAsStream("pci-classes.ids")) {
            if (in == null) {
                throw new IllegalStateException("pci-classes.ids is missing from the jar");
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String base = null;
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.startsWith("C ") && line.length() > 6) {
                    base = line.substring(2, 4).toLowerCase(Locale.ROOT);
                    out.put(base, line.substring(4).strip());
                } else if (base != null && line.startsWith("\t") && !line.startsWith("\t\t") && line.length() > 4) {
                    out.put(base + line.substring(1, 3).toLowerCase(Locale.ROOT), line.substring(3).strip());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Map.copyOf(out);
    }
}
