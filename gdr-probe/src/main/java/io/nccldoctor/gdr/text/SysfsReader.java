package io.nccldoctor.gdr.text;

import io.nccldoctor.gdr.CounterProbe;
import io.nccldoctor.gdr.RdmaProbe;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * sysfs files printed with their path, in the three shapes people use: `grep . /sys/class/infiniband/mlx5_0/ports/1/state` (or with globs)
 * ("PATH:VALUE"), `for f in …; do echo $f $(cat $f); done` ("PATH VALUE"), and `echo "=== $f ==="; cat $f` (a
 * "=== PATH ===" line, the value on the next line; a relative PATH is taken in the folder the prompt shows), also
 * "PATH = VALUE" after a label, as scripts print it ("QOS for rdma: /sys/class/infiniband/mlx5_0/tc/1/traffic_class =
 * Global tclass=160"), and the value alone after the command that printed one file ("$ cat
 * /sys/class/infiniband/efa_0/ports/1/link_layer", then "Unknown", as rdma-core#884 shows EFA's). Paths
 * may go through /sys/devices/…/infiniband/DEV as well as /sys/class/infiniband/DEV; /sys/class/net/IF/mtu and
 * operstate are read too. Values are the kernel's strings, read as the live probe reads them.
 */
final class SysfsReader implements SectionReader {

    /** A path a value follows: the part after .../infiniband/ has no colon, so "PATH:VALUE" splits there. */
    static final Pattern PATH_VALUE = Pattern.compile("^\\s*(?:[A-Za-z][\\w ]*:\\s+)?(/sys/(?:\\S*?/)?(?:infiniband/[\\w.-]+|class/net/[\\w.@-]+"
            + "|kernel/config/rdma_cm/[\\w.-]+)"
            + "/[\\w./-]+?)(?::|\\s+=\\s+|\\s+)(.*?)\\s*$");
    static final Pattern BLOCK = Pattern.compile("^\\s*=== (\\S+) ===\\s*$");
    private static final Pattern IB = Pattern.compile("^.*/infiniband/([\\w.-]+)/(.+)$");
    private static final Pattern PORT_FILE = Pattern.compile("^ports/(\\d+)/(.+)$");
    private static final Pattern NET = Pattern.compile("^/sys/class/net/([\\w.@-]+)/(\\w+)$");
    private static final Pattern TC = Pattern.compile("^tc/(\\d+)/traffic_class$");
    private static final Pattern GID = Pattern.compile("^gids/(\\d+)$");
    private static final Pattern GID_ATTR = Pattern.compile("^gid_attrs/(types|ndevs)/(\\d+)$");
    /** rdma_cm's per-port defaults (drivers/infiniband/core/cma_configfs.c), once `mkdir /sys/kernel/config/rdma_cm/DEV` made them. */
    static final Pattern RDMA_CM = Pattern.compile("^/sys/kernel/config/rdma_cm/([\\w.-]+)/ports/(\\d+)/(default_roce_mode|default_roce_tos)$");

    private final PasteFacts facts;
    private final Optional<String> cwd;
    private String pending;

    SysfsReader(PasteFacts facts, Optional<Command> before) {
        this.facts = facts;
        this.cwd = before.flatMap(Command::cwd);
        this.pending = catFile(before).orElse(null);
    }

    /** The one sysfs file (no glob) a `cat` command before the output names: the next line is its value. */
    private static Optional<String> catFile(Optional<Command> before) {
        return before.filter(c -> c.tool().equals("cat") && c.words().size() == 2).map(c -> c.words().get(1))
                .filter(path -> path.startsWith("/sys/") && !path.contains("*") && !path.contains("?"));
    }

    static boolean opens(String line, Optional<Command> before) {
        if (PATH_VALUE.matcher(line).matches() || catFile(before).isPresent() && !line.isBlank()) {
            return true;
        }
        Matcher b = BLOCK.matcher(line);
        return b.matches() && (b.group(1).startsWith("/sys/") || before.flatMap(Command::cwd).isPresent());
    }

    @Override
    public Verdict read(String line, Slot.Line at) {
        Matcher b = BLOCK.matcher(line);
        if (b.matches()) {
            if (pending != null) {
                facts.notes.add(pending + ": no value before the next block (" + at + ")");
            }
            pending = resolve(b.group(1));
            return pending == null ? Verdict.FOREIGN : Verdict.KNOWN;
        }
        if (pending != null) {
            String path = pending;
            pending = null;
            return file(path, line.strip(), at) ? Verdict.FACT : Verdict.KNOWN;
        }
        Matcher m = PATH_VALUE.matcher(line);
        if (!m.matches()) {
            return Verdict.FOREIGN;
        }
        return file(m.group(1), m.group(2), at) ? Verdict.FACT : Verdict.KNOWN;
    }

    private String resolve(String path) {
        if (path.startsWith("/sys/")) {
            return path;
        }
        return cwd.map(d -> d + "/" + path.replaceFirst("^\\./", "")).orElse(null);
    }

    /** Reads one file's value; false when the file is not one the facts need. */
    private boolean file(String path, String value, Slot.Line at) {
        Matcher cm = RDMA_CM.matcher(path);
        if (cm.matches()) {
            return facts.rdmaCm.put(cm.group(1), Integer.parseInt(cm.group(2)), cm.group(3), value, at, false);
        }
        Matcher net = NET.matcher(path);
        if (net.matches()) {
            return netFile(net.group(1), net.group(2), value, at);
        }
        Matcher ib = IB.matcher(path);
        if (!ib.matches()) {
            return false;
        }
        PasteFacts.DeviceFacts d = facts.device(ib.group(1));
        String rest = ib.group(2);
        switch (rest) {
            case "fw_ver" -> d.fw.set(value, at, facts.notes);
            case "node_guid" -> d.guid.set(value, at, facts.notes);
            case "hca_type" -> PortFiles.put(d.partId, RdmaProbe.partId(value), at, facts.notes);
            default -> {
                Matcher tc = TC.matcher(rest);
                if (tc.matches()) {
                    PortFiles.put(d.port(Integer.parseInt(tc.group(1))).trafficClass, RdmaProbe.trafficClass(value), at, facts.notes);
                    return true;
                }
                Matcher p = PORT_FILE.matcher(rest);
                return p.matches() && portFile(d, Integer.parseInt(p.group(1)), p.group(2), value, at);
            }
        }
        return true;
    }

    private boolean portFile(PasteFacts.DeviceFacts d, int n, String file, String value, Slot.Line at) {
        PasteFacts.PortFacts port = d.port(n);
        if (file.startsWith("counters/") || file.startsWith("hw_counters/")) {
            String name = file.substring(file.indexOf('/') + 1);
            (file.startsWith("hw_") ? port.hwCounters : port.counters).put(name, CounterProbe.counterValue(value));
            return true;
        }
        Matcher g = GID.matcher(file);
        if (g.matches()) {
            Optional<String> full = Gids.full(value);
            full.ifPresent(gid -> port.gid(Integer.parseInt(g.group(1)), gid, facts.notes, at));
            return full.isPresent();
        }
        Matcher a = GID_ATTR.matcher(file);
        if (a.matches()) {
            PasteFacts.GidFacts gid = port.gids.get(Integer.parseInt(a.group(2)));
            if (gid == null) {
                facts.notes.add(d.name + " port " + n + " " + file + " before its gids/" + a.group(2) + " (" + at + "): not used");
                return false;
            }
            (a.group(1).equals("types") ? gid.type : gid.netdev).set(value, at, facts.notes);
            if (a.group(1).equals("ndevs")) {
                facts.link(d.name, n, value);
            }
            return true;
        }
        return PortFiles.read(port, file, value, at, facts.notes);
    }

    private boolean netFile(String netdev, String file, String value, Slot.Line at) {
        PasteFacts.NetdevFacts nd = facts.netdev(netdev);
        switch (file) {
            case "mtu" -> PortFiles.put(nd.mtu, RdmaProbe.integer(value), at, facts.notes);
            case "operstate" -> nd.link.set(value, at, facts.notes);
            default -> {
                return false;
            }
        }
        return true;
    }
}
