package io.nccldoctor.pcie;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.Probe;
import io.nccldoctor.core.host.HostRoot;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** PCI functions from sysfs, with names from {@code lspci -mm -nn -D} when pciutils is installed. */
public final class PciInventoryProbe implements Probe<PciInventory> {

    public static final String KEY = "pci";
    static final String DEVICES = "/sys/bus/pci/devices";
    static final List<String> LSPCI = List.of("lspci", "-mm", "-nn", "-D");
    private static final Duration LSPCI_TIMEOUT = Duration.ofSeconds(5);

    @Override
    public String key() {
        return KEY;
    }

    @Override
    public String description() {
        return "PCI functions: GPUs, NICs, bridges, with ids, class, driver and NUMA node";
    }

    @Override
    public PciInventory run(Host host) {
        Fact<Map<String, PciDevice.PciNames>> names = host.commands().run(LSPCI, LSPCI_TIMEOUT).stdoutIfSucceeded()
                .map(out -> parseLspciMachine(out.lines().toList()));
        Fact<List<PciDevice>> devices = host.files().list(DEVICES).map(addresses -> {
            List<PciDevice> list = new ArrayList<>();
            for (String address : addresses) {
                list.add(device(host.files(), address, names));
            }
            return list;
        });
        Fact<String> namesSource = names.map(n -> String.join(" ", LSPCI));
        return new PciInventory(devices, namesSource);
    }

    private static PciDevice device(HostRoot files, String address, Fact<Map<String, PciDevice.PciNames>> names) {
        String dir = DEVICES + "/" + address;
        String vendor = hex(files.readAttribute(dir + "/vendor"), 4);
        String device = hex(files.readAttribute(dir + "/device"), 4);
        String cls = hex(files.readAttribute(dir + "/class"), 6);
        Fact<PciDevice.PciNames> name = names.flatMap(m -> Fact.ofNullable(m.get(address), "lspci does not list " + address));
        Fact<String> driver = files.readLink(dir + "/driver")
                .map(t -> t.substring(t.lastIndexOf('/') + 1));
        if (driver.isAbsent()) {
            driver = Fact.absent("no driver bound");
        }
        PciLink link = new PciLink(
                files.readAttribute(dir + "/current_link_speed").flatMap(PciLink::parseSpeed),
                files.readAttribute(dir + "/current_link_width").flatMap(PciLink::parseWidth),
                files.readAttribute(dir + "/max_link_speed").flatMap(PciLink::parseSpeed),
                files.readAttribute(dir + "/max_link_width").flatMap(PciLink::parseWidth));
        Fact<byte[]> config = files.readBytes(dir + "/config");
        PcieConfig pcie = config.isValue() ? PcieConfig.parse(config.get()) : unreadableConfig(config.reason());
        return new PciDevice(address, vendor, device, cls, DeviceKind.classify(vendor, device, cls), name, driver,
                files.readAttribute(dir + "/numa_node").flatMap(PciInventoryProbe::numaNode),
                files.realPath(dir), link, pcie, aer(files, dir), files.readAttribute(dir + "/local_cpulist"),
                subsystem(files, dir));
    }

    private static Fact<String> subsystem(HostRoot files, String dir) {
        Fact<String> v = files.readAttribute(dir + "/subsystem_vendor");
        Fact<String> d = files.readAttribute(dir + "/subsystem_device");
        return v.flatMap(vendor -> d.map(device -> hex(Fact.of(vendor), 4) + ":" + hex(Fact.of(device), 4)));
    }

    private static PcieConfig unreadableConfig(String why) {
        return new PcieConfig(Fact.absent(why), Fact.absent(why), Fact.absent(why), Fact.absent(why), Fact.absent(why));
    }

    /** AER totals; absent on kernels before 4.19 and on devices without AER. */
    private static Fact<PciDevice.AerCounts> aer(HostRoot files, String dir) {
        Fact<Long> cor = files.readLines(dir + "/aer_dev_correctable").flatMap(l -> total(l, "TOTAL_ERR_COR"));
        if (cor.isAbsent()) {
            return Fact.absent("no AER counters (device without AER, or kernel before 4.19)");
        }
        Fact<Long> nonFatal = files.readLines(dir + "/aer_dev_nonfatal").flatMap(l -> total(l, "TOTAL_ERR_NONFATAL"));
        Fact<Long> fatal = files.readLines(dir + "/aer_dev_fatal").flatMap(l -> total(l, "TOTAL_ERR_FATAL"));
        return cor.flatMap(c -> nonFatal.flatMap(n -> fatal.map(f -> new PciDevice.AerCounts(c, n, f))));
    }

    static Fact<Long> total(List<String> lines, String name) {
        for (String line : lines) {
            String[] parts = line.strip().split("\\s+");
            if (parts.length == 2 && parts[0].equals(name)) {
                try {
                    return Fact.of(Long.parseLong(parts[1]));
                } catch (NumberFormatException e) {
                    return Fact.error("unreadable " + name + " '" + parts[1] + "'");
                }
            }
        }
        return Fact.error("no " + name + " line");
    }

    /** "0x10de" → "10de"; an unreadable attribute gives zeros of the right width, which classify as OTHER. */
    private static String hex(Fact<String> raw, int digits) {
        String v = raw.orElse("0x" + "0".repeat(digits)).toLowerCase(Locale.ROOT);
        v = v.startsWith("0x") ? v.substring(2) : v;
        return v.length() >= digits ? v.substring(v.length() - digits) : "0".repeat(digits - v.length()) + v;
    }

    static Fact<Integer> numaNode(String raw) {
        try {
            int n = Integer.parseInt(raw.strip());
            return n < 0 ? Fact.absent("numa_node is -1: the firmware reports no NUMA affinity for this device")
                    : Fact.of(n);
        } catch (NumberFormatException e) {
            return Fact.error("numa_node is not a number: " + raw);
        }
    }

    private static final Pattern QUOTED = Pattern.compile("\"([^\"]*)\"");
    private static final Pattern ID_SUFFIX = Pattern.compile("\\s*\\[[0-9a-fA-F]{4}]$");

    /**
     * {@code lspci -mm -nn -D} lines: {@code 0000:00:03.0 "Ethernet controller [0200]" "Red Hat, Inc. [1af4]"
     * "Virtio 1.0 network device [1041]" -r01 "Red Hat, Inc. [1af4]" "Device [0001]"}. The bracketed ids are
     * dropped; sysfs is the source of ids, lspci only of names.
     */
    static Map<String, PciDevice.PciNames> parseLspciMachine(List<String> lines) {
        Map<String, PciDevice.PciNames> names = new HashMap<>();
        for (String line : lines) {
            int space = line.indexOf(' ');
            if (space <= 0) {
                continue;
            }
            String address = line.substring(0, space);
            Matcher m = QUOTED.matcher(line);
            List<String> fields = new ArrayList<>();
            while (m.find()) {
                fields.add(ID_SUFFIX.matcher(m.group(1)).replaceFirst(""));
            }
            if (fields.size() >= 3) {
                names.put(address, new PciDevice.PciNames(fields.get(1), fields.get(2), fields.get(0)));
            }
        }
        return names;
    }
}
