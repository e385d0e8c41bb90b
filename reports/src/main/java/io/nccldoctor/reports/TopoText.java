package io.nccldoctor.reports;

import io.nccldoctor.core.Fact;
import io.nccldoctor.pcie.DeviceKind;
import io.nccldoctor.pcie.LinkCeiling;
import io.nccldoctor.pcie.LspciFragment;
import io.nccldoctor.pcie.NcclPathTypes;
import io.nccldoctor.pcie.NcclTopoNets;
import io.nccldoctor.pcie.PciCensus;
import io.nccldoctor.pcie.PciDevice;
import io.nccldoctor.pcie.PlatformIdentity;
import io.nccldoctor.pcie.SmiPath;
import io.nccldoctor.pcie.Topology;
import io.nccldoctor.pcie.TopologyComparison;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code nccl-doctor topo}: every PCI function counted, an nvidia-smi-style matrix, the NCCL path of each GPU's nearest
 * NICs with the narrowest link, the links, the header-less lspci fragments, and the findings. Output stays linear in
 * the endpoints: the matrix is drawn up to {@link #MATRIX_MAX} endpoints and each GPU lists at most
 * {@link #NEAREST_MAX} nearest NICs; everything is in {@code --json}.
 */
public final class TopoText {

    /** A matrix wider than 64 endpoints (390 columns) is unreadable on any terminal or ticket. */
    static final int MATRIX_MAX = 64;
    static final int NEAREST_MAX = 4;
    /** Lines of any one list (not understood, outside the matrix, fragments) before "… and N more". */
    static final int LIST_MAX = 12;

    private final StringBuilder out = new StringBuilder();

    private TopoText() {
    }

    public static String render(Topology t, List<PciDevice> devices, Fact<PlatformIdentity> platform, List<Finding> findings) {
        return render(t, devices, platform, findings, Map.of());
    }

    /** @param nvlink "GPU0-GPU1" → "NV18" from an imported nvidia-smi matrix: NVLink cells replace the PCIe path */
    public static String render(Topology t, List<PciDevice> devices, Fact<PlatformIdentity> platform, List<Finding> findings,
                                Map<String, String> nvlink) {
        return render(t, devices, platform, findings, nvlink, PciCensus.of(devices, Map.of()), List.of());
    }

    public static String render(Topology t, List<PciDevice> devices, Fact<PlatformIdentity> platform, List<Finding> findings,
                                Map<String, String> nvlink, PciCensus census, List<LspciFragment> fragments) {
        TopoText r = new TopoText();
        r.platform(platform, devices);
        r.census(census);
        if (t.endpoints().isEmpty()) {
            r.line("No GPU and no RDMA-capable NIC on the PCI bus: no GPU/NIC matrix to draw.");
            r.line("");
            r.inventory(devices);
        } else {
            r.matrix(t, nvlink);
            r.pairs(t);
            r.links(t);
        }
        if (!t.ncclNets().holdsNothing()) {
            r.ncclNets(t.ncclNets());
        }
        r.fragments(fragments);
        r.findings(findings);
        return r.out.toString();
    }

    private void platform(Fact<PlatformIdentity> p, List<PciDevice> devices) {
        line("Platform: " + p.map(i -> i.codename() + " (" + i.platformClass().name().toLowerCase(Locale.ROOT).replace('_', ' ') + ")")
                .orElse(p.describe()));
        List<String> hostBridges = devices.stream().filter(d -> d.kind() == DeviceKind.HOST_BRIDGE)
                .map(d -> d.address() + " " + d.ids()).toList();
        if (!hostBridges.isEmpty()) {
            line("Host bridge" + (hostBridges.size() == 1 ? ": " : "s: ") + String.join(", ", hostBridges));
        }
        line("");
    }

    private void census(PciCensus c) {
        StringBuilder kinds = new StringBuilder();
        c.byKind().entrySet().stream().filter(e -> e.getValue() > 0).sorted(Map.Entry.comparingByKey()).forEach(e -> {
            kinds.append(kinds.length() == 0 ? "" : ", ").append(e.getValue()).append(' ').append(kindName(e.getKey()));
            if (e.getKey() == DeviceKind.NIC && !c.rdmaFamilies().isEmpty()) {
                kinds.append(" (");
                c.rdmaFamilies().forEach((f, n) -> kinds.append(kinds.charAt(kinds.length() - 1) == '(' ? "" : ", ").append(n).append(' ').append(f));
                kinds.append(')');
            }
        });
        line("PCI functions: " + c.functions() + (c.functions() == 0 ? "" : " (" + kinds + ")"));
        list("outside the GPU/NIC matrix", c.outsideMatrix());
        list("not understood", c.notUnderstood());
        line("");
    }

    private void list(String what, List<String> items) {
        if (items.isEmpty()) {
            return;
        }
        line("  " + what + ": " + items.size());
        items.stream().limit(LIST_MAX).forEach(i -> line("    " + i));
        if (items.size() > LIST_MAX) {
            line("    … and " + (items.size() - LIST_MAX) + " more (all in --json)");
        }
    }

    private static String kindName(DeviceKind k) {
        return switch (k) {
            case GPU -> "NVIDIA GPU";
            case AMD_GPU -> "AMD GPU";
            case NIC -> "NIC";
            case NVSWITCH -> "NVSwitch";
            default -> k.name().toLowerCase(Locale.ROOT).replace('_', ' ');
        };
    }

    private void inventory(List<PciDevice> devices) {
        if (devices.isEmpty()) {
            return;
        }
        line("PCI functions found (" + devices.size() + "):");
        for (PciDevice d : devices.stream().limit(MATRIX_MAX).toList()) {
            line("  " + d.address() + "  " + pad(d.kind().name().toLowerCase(Locale.ROOT).replace('_', ' '), 12) + d.ids() + "  "
                    + d.names().fold(n -> n.vendor() + " " + n.device(), why -> "class " + d.classCode())
                    + "  link " + d.link().speedGTps().fold(v -> fmt(v) + " GT/s x" + d.link().width().fold(String::valueOf, w -> "?"),
                            why -> "unknown (" + why + ")"));
        }
        if (devices.size() > MATRIX_MAX) {
            line("  … and " + (devices.size() - MATRIX_MAX) + " more (all in --json)");
        }
        line("");
    }

    /** lspci attribute lines without a device header: what they say, and what they cannot say. */
    private void fragments(List<LspciFragment> fragments) {
        if (fragments.isEmpty()) {
            return;
        }
        line("lspci lines without a device header (" + fragments.size() + " devices; which device is unknown unless `lspci -s` named it)");
        for (LspciFragment f : fragments.stream().limit(LIST_MAX).toList()) {
            StringBuilder facts = new StringBuilder();
            f.link().speedGTps().map(v -> facts.append(" LnkSta ").append(speedWidth(v, f.link().width())));
            f.link().maxSpeedGTps().map(v -> facts.append(" LnkCap ").append(speedWidth(v, f.link().maxWidth())));
            f.config().acsControl().map(a -> facts.append(" ACSCtl ").append(a.isEmpty() ? "all off" : String.join("+ ", a) + "+"));
            f.config().atsEnabled().map(a -> facts.append(" ATS ").append(a ? "on" : "off"));
            String lines = f.lastLine() != f.firstLine() ? "lines " + f.firstLine() + "-" + f.lastLine() : "line " + f.firstLine();
            line("  " + pad(lines, 12) + f.device().orElse("unknown device") + ":" + (facts.length() == 0 ? " nothing read" : facts));
        }
        if (fragments.size() > LIST_MAX) {
            line("  … and " + (fragments.size() - LIST_MAX) + " more (all in --json)");
        }
        line("  missing in every one: " + String.join(", ", fragments.get(0).missing().stream()
                .filter(m -> fragments.stream().allMatch(f -> f.missing().contains(m))).toList()));
        line("");
    }

    private void matrix(Topology t, Map<String, String> nvlink) {
        List<Topology.Endpoint> eps = t.endpoints();
        if (eps.size() > MATRIX_MAX) {
            line("Matrix not drawn: " + eps.size() + " GPUs and NICs would make a " + eps.size() + " × " + eps.size()
                    + " table (more than " + MATRIX_MAX + "); each GPU's nearest NICs are below, every pair is in --json.");
            line("");
            devicesList(eps);
            return;
        }
        StringBuilder head = new StringBuilder(pad("", 8));
        eps.forEach(e -> head.append(pad(e.label(), 6)));
        head.append(pad("CPU Affinity", 16)).append("NUMA Affinity");
        line(head.toString());
        for (Topology.Endpoint a : eps) {
            StringBuilder row = new StringBuilder(pad(a.label(), 8));
            for (Topology.Endpoint b : eps) {
                row.append(pad(a == b ? "X" : nvlink.getOrDefault(a.label() + "-" + b.label(), cell(t.pair(a.label(), b.label()))), 6));
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
        if (eps.stream().anyMatch(a -> eps.stream().anyMatch(b -> a != b && !t.pair(a.label(), b.label()).shown().isValue()))) {
            line("  ?    = Not in the text: where the two meet (a switch, one CPU, or two) is not shown (a snippet, or a tree without NUMA nodes)");
        }
        line("");
        devicesList(eps);
    }

    /** The path of a pair, or "?" where the text does not show where the two meet. */
    private static String cell(Topology.Pair p) {
        return p.shown().isValue() ? p.smiPath().name() : "?";
    }

    private void devicesList(List<Topology.Endpoint> eps) {
        line("Devices:");
        for (Topology.Endpoint e : eps) {
            line("  " + pad(e.label() + ":", 7) + e.address() + "  " + e.name() + (e.kind() == DeviceKind.AMD_GPU ? "  (AMD GPU)" : ""));
        }
        line("");
    }

    /**
     * Each GPU's nearest NIC(s): the pairs whose path decides GPUDirect RDMA. NCCL's threshold applies to NVIDIA GPUs;
     * an AMD GPU's pairs show the path only, because RCCL keeps its own path numbering. The full pair list is in --json.
     */
    private void pairs(Topology t) {
        // NCCL's default, as GDR_DISABLED_BY_DISTANCE reads it without NCCL_NET_GDR_LEVEL (NCCL_NET_GDR_C2C on)
        String level = NcclPathTypes.defaultGdrLevel(t.ncclVersion(), true);
        int threshold = NcclPathTypes.number(level, t.ncclVersion());
        line("Nearest NICs (NCCL " + t.ncclVersion() + " numbering, from " + t.ncclVersionSource()
                + "; GPUDirect RDMA by default up to " + level + " = " + threshold
                + (level.equals("P2C") ? " while NCCL_NET_GDR_C2C is on" : "") + ")");
        List<Topology.Endpoint> nics = t.endpoints().stream().filter(e -> e.label().startsWith("NIC")).toList();
        if (t.endpoints().stream().noneMatch(e -> e.label().startsWith("GPU"))) {
            line("  no GPU on the PCI bus");
            line("");
            return;
        }
        for (Topology.Endpoint g : t.endpoints()) {
            if (!g.label().startsWith("GPU") || nics.isEmpty()) {
                continue;
            }
            List<Topology.Pair> nearest = t.nearestNics(g.label());
            SmiPath best = nearest.get(0).smiPath();
            for (Topology.Pair p : nearest.subList(0, Math.min(NEAREST_MAX, nearest.size()))) {
                String nic = p.a().equals(g.label()) ? p.b() : p.a();
                line("  " + pad(g.label() + "-" + nic, 11) + pad(t.endpoint(nic).name(), 9) + pairCells(t, g, p, level, threshold));
            }
            if (nearest.size() > NEAREST_MAX) {
                line("  " + pad(g.label(), 11) + "… and " + (nearest.size() - NEAREST_MAX) + " more NICs at " + best);
            }
        }
        if (nics.isEmpty()) {
            line("  no RDMA-capable NIC on the PCI bus");
        }
        if (t.endpoints().stream().anyMatch(e -> e.kind() == DeviceKind.AMD_GPU)) {
            line("  RCCL: an AMD GPU's pairs show the path; NCCL's GPUDirect RDMA threshold and numbering are not RCCL's");
        }
        line("");
    }

    /**
     * Path, GDR verdict and narrowest link of a nearest pair. The verdict is ncclTopoCheckGdr's ({@link Topology#gdr}): a
     * gdr="0" of the topology file turns it off whatever the distance; a path the text does not show is not judged.
     */
    private static String pairCells(Topology t, Topology.Endpoint g, Topology.Pair p, String level, int threshold) {
        String path = pad(p.shown().isValue() ? p.ncclPath() + " (" + p.ncclNumber() + ")" : "?", 9);
        String link = p.narrowest().fold(TopoText::ceiling, why -> "link unknown: " + why);
        if (g.kind() == DeviceKind.AMD_GPU) {
            return path + pad("RCCL", 8) + (p.shown().isValue() ? link : "path not in the text");
        }
        Topology.GdrVerdict v = t.gdr(p, level, threshold);
        if (!p.shown().isValue()) {
            return path + (v.byAttribute() ? pad("GDR off", 8) + "(" + v.cause() + " in the file: off whatever the distance)"
                    : v.on().isValue() ? pad(v.on().get() ? "GDR on" : "GDR off", 8) + "(" + v.cause() + ": the exact type is not in the text)"
                    : pad("GDR ?", 8) + "not checked, because " + v.why());
        }
        String gdr = v.on().fold(on -> on ? "GDR on" : "GDR off", why -> "GDR ?");
        return path + pad(gdr, 8) + link + (v.byAttribute() ? " (" + v.cause() + " in the file: off whatever the distance)" : "");
    }


    /** What an NCCL topology file says of its nets and GPUs: every net read, its role and its gdr attribute. */
    private void ncclNets(NcclTopoNets n) {
        line("NCCL topology file: " + n.nets().size() + " nets, " + n.gpus().size() + " GPUs");
        for (NcclTopoNets.Net net : n.nets().stream().limit(LIST_MAX).toList()) {
            String role = switch (net.role()) {
                case RDMA -> "RDMA device";
                case OTHER -> "socket or plugin net, no RDMA device (never GPUDirect RDMA)";
                case NOT_NET -> "net=\"0\": CollNet/GIN/RMA only, not a NET node";
            };
            line("  " + pad(net.name(), 12) + pad(net.pciAddress().orElse("no PCI function"), 16)
                    + pad("gdr=" + net.gdr().map(String::valueOf).orElse("?"), 7) + role
                    + (net.pciAddress().isValue() ? "" : "; " + net.pciAddress().reason()));
        }
        if (n.nets().size() > LIST_MAX) {
            line("  … and " + (n.nets().size() - LIST_MAX) + " more (all in --json)");
        }
        for (NcclTopoNets.Gpu g : n.gpus().stream().limit(LIST_MAX).toList()) {
            line("  " + pad("<gpu>", 12) + pad(g.pciAddress(), 16) + pad("gdr=" + g.gdr().map(String::valueOf).orElse("?"), 7)
                    + (g.gdr().isValue() && g.gdr().get() == 0 ? "NCCL found no way to register its memory: GPUDirect RDMA off for it" : ""));
        }
        if (n.gpus().size() > LIST_MAX) {
            line("  … and " + (n.gpus().size() - LIST_MAX) + " more GPUs (all in --json)");
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
    public static String comparison(TopologyComparison c) {
        TopoText r = new TopoText();
        r.line("");
        r.line("Against nvidia-smi topo -m: " + c.agreements() + " pairs agree, " + c.differences().size() + " differ"
                + (c.notCompared().isEmpty() ? "" : ", " + c.notCompared().size() + " not compared (path not in our input)"));
        c.differences().forEach(d -> r.line("  differs: " + d));
        c.notCompared().forEach(d -> r.line("  not compared: " + d));
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

    private static String speedWidth(double gtps, Fact<Integer> width) {
        return fmt(gtps) + " GT/s x" + width.map(w -> Integer.toString(w)).orElse("?");
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
