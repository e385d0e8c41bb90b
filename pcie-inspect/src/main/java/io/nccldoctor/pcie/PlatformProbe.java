package io.nccldoctor.pcie;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.Probe;
import io.nccldoctor.core.host.HostRoot;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** Host name, kernel, OS, CPU identity and NUMA nodes, from /proc, /etc/os-release and sysfs. */
public final class PlatformProbe implements Probe<Platform> {

    public static final String KEY = "platform";

    @Override
    public String key() {
        return KEY;
    }

    @Override
    public String description() {
        return "host name, kernel, OS, CPU vendor/family/model and NUMA nodes";
    }

    @Override
    public Platform run(Host host) {
        HostRoot files = host.files();
        return new Platform(
                files.readAttribute("/proc/sys/kernel/hostname"),
                files.readAttribute("/proc/sys/kernel/osrelease"),
                files.readLines("/etc/os-release").flatMap(PlatformProbe::parseOsRelease),
                files.readLines("/proc/cpuinfo").map(PlatformProbe::parseCpuInfo)
                        .orElseGet(() -> unknownCpu(files.readLines("/proc/cpuinfo"))),
                numaNodes(files));
    }

    private static Platform.Cpu unknownCpu(Fact<List<String>> why) {
        String reason = why.isValue() ? "unreadable" : why.reason();
        return new Platform.Cpu(Fact.absent(reason), Fact.absent(reason), Fact.absent(reason), Fact.absent(reason),
                Fact.absent(reason), Fact.absent(reason));
    }

    static Fact<String> parseOsRelease(List<String> lines) {
        for (String line : lines) {
            if (line.startsWith("PRETTY_NAME=")) {
                return Fact.of(line.substring("PRETTY_NAME=".length()).replaceAll("^\"|\"$", ""));
            }
        }
        return Fact.absent("/etc/os-release has no PRETTY_NAME");
    }

    /** The first processor's identity, the count of processors, and the count of distinct physical ids. */
    static Platform.Cpu parseCpuInfo(List<String> lines) {
        Map<String, String> first = new LinkedHashMap<>();
        int processors = 0;
        TreeSet<String> packages = new TreeSet<>();
        for (String line : lines) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String key = line.substring(0, colon).strip();
            String value = line.substring(colon + 1).strip();
            if (key.equals("processor")) {
                processors++;
            } else if (key.equals("physical id")) {
                packages.add(value);
            }
            if (processors == 1) {
                first.putIfAbsent(key, value);
            }
        }
        return new Platform.Cpu(
                field(first, "vendor_id"),
                field(first, "cpu family").flatMap(PlatformProbe::decimal),
                field(first, "model").flatMap(PlatformProbe::decimal),
                field(first, "model name"),
                processors > 0 ? Fact.of(processors) : Fact.absent("/proc/cpuinfo lists no processor"),
                packages.isEmpty() ? Fact.absent("/proc/cpuinfo has no physical id (common in VMs and on Arm)")
                        : Fact.of(packages.size()));
    }

    private static Fact<String> field(Map<String, String> m, String key) {
        String v = m.get(key);
        return v == null ? Fact.absent("/proc/cpuinfo has no '" + key + "' line") : Fact.of(v);
    }

    private static Fact<Integer> decimal(String s) {
        try {
            return Fact.of(Integer.parseInt(s));
        } catch (NumberFormatException e) {
            return Fact.error("not a number: " + s);
        }
    }

    private static Fact<List<Platform.NumaNode>> numaNodes(HostRoot files) {
        String base = "/sys/devices/system/node";
        return files.list(base).map(names -> {
            List<Platform.NumaNode> nodes = new ArrayList<>();
            for (String name : names) {
                if (name.matches("node\\d+")) {
                    int id = Integer.parseInt(name.substring(4));
                    nodes.add(new Platform.NumaNode(id, files.readAttribute(base + "/" + name + "/cpulist")));
                }
            }
            nodes.sort(Comparator.comparingInt(Platform.NumaNode::id));
            return nodes;
        });
    }
}
