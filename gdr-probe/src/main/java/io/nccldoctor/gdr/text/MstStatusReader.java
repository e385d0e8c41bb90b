package io.nccldoctor.gdr.text;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * `mst status -v` (NVIDIA MFT): its module lines, then under "PCI devices:" a header "DEVICE_TYPE MST PCI RDMA NET
 * NUMA" and one row per PCI function: "ConnectX7(rev:0)  /dev/mst/mt4129_pciconf5  e5:00.0  mlx5_5  net-ibp229s0  1".
 * A column can be empty (no RDMA device bound, MST not started), so a row is read by the shape of each word, not by its
 * position: the MST file, the PCI address, "net-" names (comma-separated), the NUMA node last, the RDMA device.
 * <p>
 * It lists functions, not ports: no port state, link layer or firmware. An mlx5 RDMA device is one port per PCI
 * function (ConnectX-4 on: each port is its own function, so mlx5_0 and mlx5_1 of a dual-port card; the kernel's
 * mlx5_ib sets phys_port_cnt 1 per function outside multiport mode), so a row with one mlx5 device and one net
 * device ties that net device to port 1 of it, as ibdev2netdev would; an mlx4 function holds both ports of its card,
 * and its net devices are kept untied (a note says so).
 */
final class MstStatusReader implements SectionReader {

    static final Pattern OPENS = Pattern.compile("^\\s*(MST modules:|PCI devices:|DEVICE_TYPE\\s+MST\\s+PCI\\s+RDMA\\s+NET\\s+NUMA)\\s*$");
    private static final Pattern KNOWN = Pattern.compile("^\\s*(MST modules:|PCI devices:|-+|MST PCI (configuration )?module (is not )?loaded"
            + "|DEVICE_TYPE\\s+MST\\s+PCI\\s+RDMA\\s+NET\\s+NUMA)\\s*$");
    private static final Pattern ROW = Pattern.compile("^\\s*([\\w-]+\\(rev:\\w+\\))\\s+(.*?)\\s*$");
    /** bus:device.function, with the PCI domain or without it. */
    private static final Pattern PCI = Pattern.compile("^(?:([0-9a-fA-F]{4}):)?([0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7])$");
    private static final Pattern NUMA = Pattern.compile("^-?\\d+$");
    private static final Pattern DEVICE = Pattern.compile("^[A-Za-z][\\w.-]*$");

    private final PasteFacts facts;

    MstStatusReader(PasteFacts facts) {
        this.facts = facts;
    }

    @Override
    public Verdict read(String line, Slot.Line at) {
        if (KNOWN.matcher(line).matches()) {
            return Verdict.KNOWN;
        }
        Matcher row = ROW.matcher(line);
        if (!row.matches()) {
            return Verdict.FOREIGN;
        }
        String pci = null;
        List<String> rdma = new ArrayList<>();
        List<String> net = new ArrayList<>();
        List<String> words = Arrays.asList(row.group(2).split("\\s+"));
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            Matcher p = PCI.matcher(w);
            if (w.startsWith("/dev/mst/") || w.matches("mt\\d+_\\S+|pci\\d+:\\d+:\\d+:\\d+") || w.equals("NA")) {
                continue; // the MST device file: how mlxconfig and flint reach the function, not an RDMA fact
            } else if (p.matches()) {
                // an address without its domain is read in domain 0000, as lspci writes one on a host with that domain only
                pci = (p.group(1) == null ? "0000" : p.group(1).toLowerCase(Locale.ROOT)) + ":" + p.group(2).toLowerCase(Locale.ROOT);
            } else if (w.startsWith("net-")) {
                Arrays.stream(w.split(",")).map(n -> n.replaceFirst("^net-", "")).filter(n -> !n.isEmpty()).forEach(net::add);
            } else if (i == words.size() - 1 && NUMA.matcher(w).matches()) {
                continue; // the NUMA node of the function: the live probe reads it from sysfs for the PCI view, not the RDMA one
            } else if (DEVICE.matcher(w).matches()) {
                rdma.add(w);
            } else {
                return Verdict.FOREIGN;
            }
        }
        if (rdma.isEmpty()) {
            facts.notes.add("mst status lists no RDMA device for the " + row.group(1) + " function" + (pci == null ? "" : " at " + pci)
                    + " (" + at + "): none is bound to it, or mst does not look (its VMware build prints no RDMA column); nothing is read from the row");
            return Verdict.KNOWN;
        }
        if (rdma.size() > 1) {
            return Verdict.FOREIGN;
        }
        return device(rdma.get(0), pci, net, at);
    }

    private Verdict device(String name, String pci, List<String> net, Slot.Line at) {
        PasteFacts.DeviceFacts d = facts.device(name);
        if (pci != null) {
            d.pci.set(pci, at, facts.notes);
        }
        if (net.size() == 1 && name.startsWith("mlx5_")) {
            facts.link(name, 1, net.get(0));
        } else if (!net.isEmpty()) {
            facts.notes.add("mst status: " + name + "'s PCI function has net device" + (net.size() == 1 ? " " : "s ") + String.join(", ", net)
                    + " (" + at + "); mst does not say which port each belongs to, so none is tied to a port");
        }
        return Verdict.FACT;
    }
}
