package io.nccldoctor.reports;

import io.nccldoctor.gdr.GdrDecision;
import io.nccldoctor.gdr.GdrHost;
import io.nccldoctor.gdr.GpuSurvey;
import io.nccldoctor.gdr.RdmaDevices;
import java.util.List;
import java.util.Locale;

/** {@code nccl-doctor gdr} for people: prerequisites, GPUs, P2P, RDMA ports, and NCCL's decision per pair. */
public final class GdrText {

    private final StringBuilder out = new StringBuilder();

    private GdrText() {
    }

    public static String render(GdrReport r) {
        GdrText t = new GdrText();
        t.line("GPUDirect RDMA - " + r.snapshot().hostName() + " - " + r.snapshot().source());
        t.line("");
        Sections.gdrHost(r.snapshot()).ifPresent(t::host);
        r.transport().map(tr -> t.field("", "=> " + tr.mechanism().fold(m -> "the host can register GPU memory via " + m, why -> why)));
        Sections.gpus(r.snapshot()).ifPresent(t::gpus);
        Sections.rdma(r.snapshot()).ifPresent(t::rdma);
        t.line("");
        t.decisions(r);
        t.registration(r.snapshot().section(io.nccldoctor.gdr.RegistrationProbe.KEY, io.nccldoctor.gdr.Registration.class));
        t.findings(r.findings(), r.notChecked());
        return t.out.toString();
    }

    private void host(GdrHost h) {
        field("Kernel", h.kernel().describe() + "; CONFIG_DMA_SHARED_BUFFER " + h.dmaSharedBuffer().describe());
        field("IOMMU", h.iommuGroups().fold(n -> n + " IOMMU groups", why -> "no IOMMU groups (" + why + ")")
                + h.iommuCmdline().fold(c -> c.isEmpty() ? "" : "; cmdline " + String.join(" ", c), why -> ""));
        field("Peermem", h.peermem().describe());
        field("rdma-core", h.rdmaCore().describe() + h.dmabufMr().fold(b -> b ? ", exports ibv_reg_dmabuf_mr" : ", no ibv_reg_dmabuf_mr", why -> ""));
    }

    private void gpus(GpuSurvey s) {
        if (!s.gpus().isValue()) {
            field("GPUs", s.gpus().describe());
            return;
        }
        for (GpuSurvey.Gpu g : s.gpus().get()) {
            field(g.index() == 0 ? "GPUs" : "", "GPU" + g.index() + " " + g.busId() + " " + g.name().orElse("?") + " (" + g.brand().orElse("brand ?")
                    + ", sm " + g.sm().map(String::valueOf).orElse("?") + "): GPUDirect RDMA " + yes(g.gdrSupported())
                    + ", DMA-BUF " + yes(g.dmabufSupported()));
        }
        for (GpuSurvey.PeerStatus p : s.p2p().orElse(List.of())) {
            field("P2P", p.a() + " -> " + p.b() + ": read " + p.read().orElse("?") + ", write " + p.write().orElse("?")
                    + ", CUDA peer access " + yes(p.cudaPeerAccess()));
        }
    }

    private void rdma(RdmaDevices r) {
        if (!r.devices().isValue()) {
            field("RDMA", r.devices().reason());
            return;
        }
        for (RdmaDevices.RdmaDevice d : r.devices().get()) {
            for (RdmaDevices.RdmaPort p : d.ports().orElse(List.of())) {
                String netdevs = p.netdevs().orElse(List.of()).stream().map(n -> n.name() + " mtu " + n.mtu().map(String::valueOf).orElse("?")
                        + " " + n.ipv4().orElse(List.of())).reduce((a, b) -> a + ", " + b).map(x -> "; " + x).orElse("");
                long v2 = p.gids().orElse(List.of()).stream().filter(g -> g.type().orElse("").equals("RoCE v2")).count();
                field("RDMA", d.name() + " " + d.pciAddress().orElse("?") + " fw " + d.fwVersion().orElse("?") + " port " + p.number()
                        + " " + p.state().orElse("?") + " " + p.rate().orElse("?") + " " + p.linkLayer().orElse("?")
                        + (p.linkLayer().orElse("").equals("Ethernet") ? ", " + v2 + " RoCE v2 GIDs" : "") + netdevs);
            }
        }
    }

    private void decisions(GdrReport r) {
        if (!r.decisions().isValue()) {
            line("NCCL's decision per GPU-NIC pair: not predicted (" + r.decisions().reason() + ")");
            line("");
            return;
        }
        line("NCCL's decision per GPU-NIC pair (each GPU's nearest NICs; every pair in --json)");
        java.util.Map<String, List<GdrDecision>> byGpu = new java.util.LinkedHashMap<>();
        r.decisions().get().forEach(d -> byGpu.computeIfAbsent(d.gpu(), k -> new java.util.ArrayList<>()).add(d));
        byGpu.forEach((gpu, list) -> {
            int nearest = list.stream().mapToInt(GdrDecision::distance).min().orElse(0);
            for (GdrDecision d : list) {
                if (d.distance() == nearest) {
                    String state = d.enabled().fold(on -> on ? "GDR on " : "GDR off", why -> "GDR ?  ");
                    line("  " + state + "  " + d.gpu() + " <-> " + d.nicName() + ": " + String.join("; ", d.chain()));
                }
            }
            java.util.Map<String, List<String>> farther = new java.util.TreeMap<>();
            list.stream().filter(d -> d.distance() > nearest).forEach(d -> farther.computeIfAbsent(d.path() + " "
                    + d.enabled().fold(on -> on ? "GDR on" : "GDR off", why -> "GDR ?"), k -> new java.util.ArrayList<>()).add(d.nicName()));
            if (!farther.isEmpty()) {
                line("           " + gpu + " farther NICs: " + farther.entrySet().stream().map(e -> e.getKey() + " " + String.join(", ", e.getValue()))
                        .reduce((a, b) -> a + "; " + b).orElse(""));
            }
        });
        line("");
    }

    private void registration(io.nccldoctor.gdr.Registration r) {
        if (r == null) {
            return;
        }
        line("Registration tried for real (--active)");
        r.ncclProbe().fold(list -> {
            list.forEach(p -> line("  " + p.hca() + ": NCCL's DMA-BUF probe: " + p.dmabufSupport().describe()));
            return null;
        }, why -> {
            line("  " + why);
            return null;
        });
        r.pairs().fold(list -> {
            list.forEach(p -> line("  " + p.gpuBusId() + " with " + p.hca() + ": DMA-BUF " + p.dmabuf().describe()
                    + "; peer-memory client " + p.peermem().describe()));
            return null;
        }, why -> {
            line("  per GPU: " + why);
            return null;
        });
        line("");
    }

    private void findings(List<Finding> findings, List<Evaluation.NotChecked> notChecked) {
        if (findings.isEmpty()) {
            line("Findings: none");
        } else {
            line("Findings");
            for (Finding f : findings) {
                line("  " + String.format(Locale.ROOT, "%-6s", f.severity().label().toUpperCase(Locale.ROOT)) + f.code() + "  " + f.subject() + ": " + f.title());
                f.evidence().forEach(e -> line("        - " + e));
                line("        fix: " + f.remedy());
            }
        }
        if (!notChecked.isEmpty()) {
            line("");
            line("Not checked");
            notChecked.forEach(n -> line("  " + String.format(Locale.ROOT, "%-24s", n.code()) + " " + n.reason()));
        }
    }

    private static String yes(io.nccldoctor.core.Fact<Boolean> f) {
        return f.fold(b -> b ? "yes" : "no", why -> "unknown");
    }

    private GdrText field(String label, String value) {
        line("  " + String.format(Locale.ROOT, "%-10s", label) + value);
        return this;
    }

    private void line(String s) {
        out.append(s.stripTrailing()).append('\n');
    }
}
