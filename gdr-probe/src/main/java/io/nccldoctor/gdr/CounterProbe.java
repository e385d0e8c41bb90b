package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.Probe;
import io.nccldoctor.core.exec.CommandResult;
import io.nccldoctor.core.host.HostRoot;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads every RDMA port's counters: ports/N/counters and ports/N/hw_counters of /sys/class/infiniband (names in
 * reference/peers-and-platform.md B4), and `ethtool -S` of the port's net devices, where a RoCE NIC counts PFC pauses
 * per priority, pause storms and physical-layer drops. Reports values; what they mean over a run is {@link CounterDelta}.
 */
public final class CounterProbe implements Probe<CounterSnapshot> {

    public static final String KEY = "counters";
    /**
     * ethtool from PATH, then where Debian and Ubuntu install it: /usr/sbin is not on an ordinary user's PATH there,
     * yet `ethtool -S` needs no root.
     */
    public static final List<String> ETHTOOL = List.of("ethtool", "/usr/sbin/ethtool");
    static final Duration ETHTOOL_TIMEOUT = Duration.ofSeconds(5);
    private static final Pattern STAT_LINE = Pattern.compile("^\\s*(\\S.*?):\\s*(\\d+)\\s*$");

    private final List<String> ethtool;
    private final List<String> selected;
    private final LongSupplier nanoClock;
    private final Clock clock;

    public CounterProbe() {
        this(ETHTOOL, List.of());
    }

    /**
     * @param ethtool  the programs to try for `ethtool -S`, in order; the next is tried only when one is not installed
     * @param selected ports to read, as NCCL_IB_HCA names them without its prefixes: "mlx5_0" (every port) or
     *                 "mlx5_0:1"; empty reads every port
     */
    public CounterProbe(List<String> ethtool, List<String> selected) {
        this(ethtool, selected, System::nanoTime, Clock.systemUTC());
    }

    /** With the clocks given: a replay or a test decides how far apart two snapshots are. */
    public CounterProbe(List<String> ethtool, List<String> selected, LongSupplier nanoClock, Clock clock) {
        if (ethtool.isEmpty()) {
            throw new IllegalArgumentException("give at least one ethtool program");
        }
        this.ethtool = List.copyOf(ethtool);
        this.selected = List.copyOf(selected);
        this.nanoClock = nanoClock;
        this.clock = clock;
    }

    @Override
    public String key() {
        return KEY;
    }

    @Override
    public String description() {
        return "RDMA port counters (counters/, hw_counters/) and ethtool -S of their net devices";
    }

    @Override
    public CounterSnapshot run(Host host) {
        long start = nanoClock.getAsLong();
        String takenAt = Instant.now(clock).toString();
        HostRoot files = host.files();
        Fact<List<String>> devices = files.list(RdmaProbe.CLASS_DIR);
        Fact<List<CounterSnapshot.Port>> ports;
        if (devices.isAbsent()) {
            ports = Fact.absent(RdmaProbe.CLASS_DIR + " absent: no RDMA device, or the ib_core module is not loaded");
        } else {
            ports = devices.flatMap(names -> selectedPorts(host, names));
        }
        long readingMs = TimeUnit.NANOSECONDS.toMillis(nanoClock.getAsLong() - start);
        return new CounterSnapshot(start, takenAt, readingMs, ports);
    }

    private Fact<List<CounterSnapshot.Port>> selectedPorts(Host host, List<String> devices) {
        List<String> all = new ArrayList<>();
        List<CounterSnapshot.Port> out = new ArrayList<>();
        for (String device : devices) {
            String dir = RdmaProbe.CLASS_DIR + "/" + device;
            List<Integer> numbers = host.files().list(dir + "/ports").orElse(List.of()).stream()
                    .filter(s -> s.matches("\\d+")).map(Integer::valueOf).sorted().toList();
            for (int n : numbers) {
                all.add(device + ":" + n);
                if (isSelected(device, n)) {
                    out.add(port(host, device, n));
                }
            }
        }
        if (out.isEmpty() && !selected.isEmpty()) {
            return Fact.absent("no RDMA port matches " + String.join(",", selected) + " (ports here: "
                    + (all.isEmpty() ? "none" : String.join(", ", all)) + ")");
        }
        return Fact.of(out);
    }

    private boolean isSelected(String device, int port) {
        return selected.isEmpty() || selected.contains(device) || selected.contains(device + ":" + port);
    }

    private CounterSnapshot.Port port(Host host, String device, int n) {
        HostRoot files = host.files();
        String dev = RdmaProbe.CLASS_DIR + "/" + device;
        String dir = dev + "/ports/" + n;
        Fact<String> linkLayer = files.readAttribute(dir + "/link_layer");
        Fact<List<CounterSnapshot.Netdev>> netdevs = netdevNames(files, dev, n).map(names -> names.stream()
                .map(name -> new CounterSnapshot.Netdev(name, ethtoolStats(host, name, linkLayer))).toList());
        return new CounterSnapshot.Port(device, n, files.readAttribute(dir + "/state").map(RdmaProbe::afterColon), linkLayer,
                files.readAttribute(dir + "/rate").flatMap(RdmaProbe::rateGbps), counterFolder(files, dir + "/counters"),
                counterFolder(files, dir + "/hw_counters"), netdevs, driver(files, dev));
    }

    /** The PCI function's driver: the last part of device/driver's target ("…/drivers/mlx5_core" → mlx5_core). */
    static Fact<String> driver(HostRoot files, String dev) {
        return files.realPath(dev + "/device/driver").map(p -> p.substring(p.lastIndexOf('/') + 1));
    }

    /** Every file of a counter folder, name → value; the folder's absence or each file's failure says why. */
    static Fact<Map<String, Fact<Long>>> counterFolder(HostRoot files, String dir) {
        return files.list(dir).map(names -> {
            Map<String, Fact<Long>> values = new TreeMap<>();
            names.forEach(name -> values.put(name, files.readAttribute(dir + "/" + name).flatMap(CounterProbe::counterValue)));
            return values;
        });
    }

    /**
     * A counter file's text. Kernels before 5.x print "N/A (no PMA)" when the port has no performance management agent
     * (iWARP devices such as i40iw; drivers/infiniband/core/sysfs.c show_pma_counter).
     */
    public static Fact<Long> counterValue(String text) {
        String s = text.strip();
        if (s.startsWith("N/A")) {
            return Fact.absent(s + ": the port has no performance management agent to count this");
        }
        if (!s.matches("\\d+")) {
            return Fact.error("not a counter value: '" + s + "'");
        }
        try {
            return Fact.of(Long.parseLong(s));
        } catch (NumberFormatException e) {
            return Fact.error(s + " is beyond 2^63 - 1, which this tool cannot subtract");
        }
    }

    /**
     * The port's net devices: those of its PCI function (device/net). A function with several (mlx4 puts both ports on
     * one) is narrowed by each netdev's dev_port, which counts ports from 0.
     */
    static Fact<List<String>> netdevNames(HostRoot files, String dev, int port) {
        return files.list(dev + "/device/net").map(names -> {
            if (names.size() < 2) {
                return names;
            }
            List<String> mine = names.stream().filter(name -> files.readAttribute(dev + "/device/net/" + name + "/dev_port")
                    .map(v -> v.equals(String.valueOf(port - 1))).orElse(false)).toList();
            return mine.isEmpty() ? names : mine;
        });
    }

    private Fact<Map<String, Long>> ethtoolStats(Host host, String netdev, Fact<String> linkLayer) {
        if (linkLayer.isValue() && !linkLayer.get().equals("Ethernet")) {
            return Fact.absent("not run: ethtool -S counts Ethernet (RoCE) ports, and this one is " + linkLayer.get());
        }
        CommandResult result = null;
        for (String program : ethtool) {
            result = host.commands().run(List.of(program, "-S", netdev), ETHTOOL_TIMEOUT);
            if (!(result instanceof CommandResult.NotRun n) || !n.reason().startsWith("command not found")) {
                break;
            }
        }
        return result.stdoutIfSucceeded().map(out -> parseEthtool(out.lines().toList()));
    }

    /**
     * `ethtool -S` text: "NIC statistics:" then one "     name: value" per line. Names may hold ": " themselves
     * (bnx2x prints "[0]: rx_bytes: 123"), so the value is what follows the last colon; lines without a whole number
     * after it are skipped.
     */
    public static Map<String, Long> parseEthtool(List<String> lines) {
        Map<String, Long> stats = new LinkedHashMap<>();
        for (String line : lines) {
            Matcher m = STAT_LINE.matcher(line);
            if (m.matches()) {
                try {
                    stats.put(m.group(1), Long.parseLong(m.group(2)));
                } catch (NumberFormatException beyondLong) {
                    // a u64 above 2^63 - 1: no delta could be taken from it anyway
                }
            }
        }
        return stats;
    }
}
