package io.nccldoctor.reports;

import io.nccldoctor.core.Fact;
import io.nccldoctor.pcie.LinkCeiling;
import io.nccldoctor.pcie.PciDevice;
import io.nccldoctor.pcie.NcclPathTypes;
import io.nccldoctor.pcie.PlatformIdentity;
import io.nccldoctor.pcie.SmiPath;
import io.nccldoctor.pcie.Topology;
import java.util.List;
import java.util.Locale;

/** {@code nccl-doctor topo}: an nvidia-smi-style matrix, the NCCL path of every pair with its narrowest link. */
public final class TopoText {

    private final StringBuilder out = new StringBuilder();

    private TopoText() {
    }

    public static String render(Topology t, List<PciDevice> devices, Fact<PlatformIdentity> platform, List<Finding> findings) {
        return render(t, devices, platform, findings, java.util.Map.of());
    }

    /** @param nvlink "GPU0-GPU1" → "NV18" from an imported nvidia-smi matrix: NVLink cells replace the PCIe path */
    public static String render(Topology t, List<PciDevice> devices, Fact<PlatformIdentity> platform, List<Finding> findings,
                                java.util.Map<String, String> nvlink) {
        TopoText r = new TopoText();
        r.platform(platform, devices);
        if (t.endpoints().isEmpty()) {
            r.line("No NVIDIA GPU and no RDMA-capable NIC on the PCI bus: no GPU/NIC matrix to draw.");
            r.line("");
            r.inventory(devices);
        } else {
            r.matrix(t, nvlink);
            r.pairs(t);
            r.links(t);
        }
        r.findings(findings);
        return r.out.toString();
    }

    private void platform(Fact<PlatformIdentity> p, List<PciDevice> devices) {
        line("Platform: " + p.map(i -> i.codename() + " (" + i.platformClass().name().toLowerCase(Locale.ROOT).replace('_', ' ') + ")")
                .orElse(p.describe()));
        List<String> hostBridges = devices.stream().filter(d -> d.kind() == io.nccldoctor.pcie.DeviceKind.HOST_BRIDGE)
                .map(d -> d.address() + " " + d.ids()).toList();
        if (!hostBridges.isEmpty()) {
            line("Host bridge" + (hostBridges.size() == 1 ? ": " : "s: ") + String.join(", ", hostBridges));
        }
        line("");
    }

    private void inventory(List<PciDevice> devices) {
        line("PCI functions found (" + devices.size() + "):");
        for (PciDevice d : devices) {
            line("  " + d.address() + "  " + pad(d.kind().name().toLowerCase(Locale.ROOT).replace('_', ' '), 12) + d.ids() + "  "
                    + d.names().fold(n -> n.vendor() + " " + n.device(), why -> "class " + d.classCode())
                    + "  link " + d.link().speedGTps().fold(v -> fmt(v) + " GT/s x" + d.link().width().fold(String::valueOf, w -> "?"),
                            why -> "unknown (" + why + ")"));
        }
        line("");
    }

    private void matrix(Topology t, java.util.Map<String, String> nvlink) {
        List<Topology.Endpoint> eps = t.endpoints();
        StringBuilder head = new StringBuilder(pad("", 8));
        eps.forEach(e -> head.append(pad(e.label(), 6)));
        head.append(pad("CPU Affinity", 16)).append("NUMA Affinity");
        line(head.toString());
        for (Topology.Endpoint a : eps) {
            StringBuilder row = new StringBuilder(pad(a.label(), 8));
            for (Topology.Endpoint b : eps) {
                row.append(pad(a == b ? "X" : nvlink.getOrDefault(a.label() + "-" + b.label(), t.pair(a.label(), b.label()).smiPath().name()), 6));
            }
            if (a.label().startsWith("GPU")) {
                row.append(pad(a.localCpus().orElse("N/A"), 16)).append(a.numaNode().map(String::valueOf).orElse("N/A"));
            }
            line(row.toString());
        }
        line("");
        line("Legend:");
        for (SmiPath p : SmiPath.values()) {
            line("  " + pad(p.name(), 5) + "= " + p.legend());
        }
        if (!nvlink.isEmpty()) {
            line("  NV#  = Connection traversing a bonded set of # NVLinks (from nvidia-smi; PCIe cannot see NVLink)");
        }
        line("");
        line("Devices:");
        for (Topology.Endpoint e : eps) {
            line("  " + pad(e.label() + ":", 7) + e.address() + "  " + e.name());
        }
        line("");
    }

    /** Each GPU's nearest NIC(s): the pairs whose path decides GPUDirect RDMA. The full pair list is in --json. */
    private void pairs(Topology t) {
        int threshold = NcclPathTypes.number("PXB", t.ncclVersion());
        line("Nearest NICs (NCCL " + t.ncclVersion() + " numbering, from " + t.ncclVersionSource()
                + "; GPUDirect RDMA by default up to PXB = " + threshold + ")");
        List<Topology.Endpoint> nics = t.endpoints().stream().filter(e -> e.label().startsWith("NIC")).toList();
        if (t.endpoints().stream().noneMatch(e -> e.label().startsWith("GPU"))) {
            line("  no NVIDIA GPU on the PCI bus");
            line("");
            return;
        }
        for (Topology.Endpoint g : t.endpoints()) {
            if (!g.label().startsWith("GPU") || nics.isEmpty()) {
                continue;
            }
            List<Topology.Pair> byPath = nics.stream().map(n -> t.pair(g.label(), n.label()))
                    .sorted(java.util.Comparator.comparing(Topology.Pair::smiPath)).toList();
            SmiPath best = byPath.get(0).smiPath();
            for (Topology.Pair p : byPath) {
                if (p.smiPath() != best) {
                    break;
                }
                String nic = p.a().equals(g.label()) ? p.b() : p.a();
                line("  " + pad(g.label() + "-" + nic, 11) + pad(t.endpoint(nic).name(), 9) + pad(p.ncclPath() + " (" + p.ncclNumber() + ")", 9)
                        + pad(p.ncclNumber() <= threshold ? "GDR on" : "GDR off", 8) + p.narrowest().fold(TopoText::ceiling, why -> "link unknown: " + why));
            }
        }
        if (nics.isEmpty()) {
            line("  no NIC on the PCI bus");
        }
        line("");
    }

    private void links(Topology t) {
        line("Links (current / maximum; usable one-direction bandwidth at the negotiated MaxPayload)");
        for (Topology.Endpoint e : t.endpoints()) {
            var l = e.linkState();
            String now = l.speedGTps().map(s -> fmt(s) + " GT/s").orElse("?") + " x" + l.width().map(String::valueOf).orElse("?");
            String max = l.maxSpeedGTps().map(s -> fmt(s) + " GT/s").orElse("?") + " x" + l.maxWidth().map(String::valueOf).orElse("?");
            line("  " + pad(e.label(), 7) + pad(now + " / " + max, 34) + e.link().fold(TopoText::ceiling, why -> why));
        }
        line("");
    }

    /** The pairs where nvidia-smi and this tool disagree (rule zero for topology). */
    public static String comparison(io.nccldoctor.pcie.TopologyComparison c) {
        TopoText r = new TopoText();
        r.line("");
        r.line("Against nvidia-smi topo -m: " + c.agreements() + " pairs agree, " + c.differences().size() + " differ");
        c.differences().forEach(d -> r.line("  differs: " + d));
        if (!c.nvlink().isEmpty()) {
            r.line("  NVLink (invisible to PCIe): " + c.nvlink().size() + " pairs, e.g. " + c.nvlink().get(0) + " (all in --json)");
        }
        c.unmatched().forEach(d -> r.line("  no counterpart: " + d));
        return r.out.toString();
    }

    static String ceiling(LinkCeiling c) {
        String usable = c.usableGbps().isValue()
                ? String.format(Locale.ROOT, "%.1f GB/s (%.1f Gbit/s) at MaxPayload %d", c.usableGbps().get() / 8, c.usableGbps().get(), c.maxPayload().get())
                : String.format(Locale.ROOT, "%.1f GB/s (%.1f Gbit/s) before TLP overhead; %s", c.rawGbps() / 8, c.rawGbps(), c.usableGbps().reason());
        return c.label() + " " + c.device() + ": " + usable;
    }

    private void findings(List<Finding> findings) {
        if (findings.isEmpty()) {
            line("Findings: none");
            return;
        }
        line("Findings");
        for (Finding f : findings) {
            line("  " + pad(f.severity().label().toUpperCase(Locale.ROOT), 6) + f.code() + "  " + f.subject() + ": " + f.title());
            f.evidence().forEach(e -> line("        - " + e));
            line("        fix: " + f.remedy());
        }
    }

    private static String fmt(double d) {
        return String.format(Locale.ROOT, "%.1f", d);
    }

    private void line(String s) {
        out.append(s.stripTrailing()).append('\n');
    }

    private static String pad(String s, int w) {
        return s.length() >= w ? s + " " : s + " ".repeat(w - s.length());
    }
}
