package io.nccldoctor.reports.rules;

import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.GpuHealth;
import io.nccldoctor.gdr.GpuHealthProbe;
import io.nccldoctor.reports.Finding;
import io.nccldoctor.reports.Outcome;
import io.nccldoctor.reports.Rule;
import io.nccldoctor.reports.RuleContext;
import io.nccldoctor.reports.RuleInfo;
import io.nccldoctor.reports.Severity;
import io.nccldoctor.reports.XidCatalog;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Xid errors in the kernel log, one finding per GPU and Xid, each with its meaning, NVIDIA's immediate action and its
 * severity from configs/xid-catalog.yaml. Lines that name an Xid in a shape not understood are reported, not dropped.
 */
public final class GpuXidErrors implements Rule {

    static final RuleInfo INFO = new RuleInfo("GPU_XID_ERRORS", Severity.ERROR,
            "the NVIDIA driver logged Xid errors",
            "An Xid is the driver's report of a GPU error, written to the kernel log as \"NVRM: Xid (PCI:0000:18:00): 79, "
                    + "…\". Some are the application's own faults (13, 31, 43, 45: restart the application), some mean the "
                    + "GPU needs a reset (48, 64, 95, 119, 120, 136) or the node a reboot (79: the GPU fell off the bus). "
                    + "configs/xid-catalog.yaml holds NVIDIA's table (mnemonic, immediate action, fatal or not, from NVIDIA's "
                    + "Xid catalog) and a severity per Xid: error where NVIDIA marks it fatal or DCGM fails the GPU, warn "
                    + "where DCGM warns, info for application faults. NVML keeps no Xid history, so the kernel log of the "
                    + "last two hours is read (the window of Azure's check_gpu_xid).",
            "Xid lines of `journalctl -k` for the window (or dmesg, its stamps held against /proc/uptime), with configs/xid-catalog.yaml",
            "Follow NVIDIA's immediate action in the evidence (RESTART_APP: the application; RESET_GPU: drain and reset the "
                    + "GPU; RESTART_BM: reboot the node; WORKFLOW_*: NVIDIA's Xid catalog describes the steps), and open a "
                    + "hardware case when a fatal Xid returns after the reset.");
    static final String NOT_UNDERSTOOD = "Xid lines whose shape is not understood";

    private final XidCatalog catalog;

    public GpuXidErrors() {
        this(XidCatalog.atRunTime());
    }

    public GpuXidErrors(XidCatalog catalog) {
        this.catalog = catalog;
    }

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Outcome check(Snapshot s, RuleContext ctx) {
        GpuHealth h = s.section(GpuHealthProbe.KEY, GpuHealth.class);
        if (h == null) {
            return Outcome.waived("GPU health was not probed");
        }
        if (!h.kernelXids().isValue()) {
            return Outcome.waived(h.kernelXids().reason());
        }
        GpuHealth.XidLog log = h.kernelXids().get();
        Map<String, List<GpuHealth.XidEvent>> byGpuAndXid = new LinkedHashMap<>();
        for (GpuHealth.XidEvent e : log.events()) {
            byGpuAndXid.computeIfAbsent(e.busId() + " " + e.xid(), k -> new ArrayList<>()).add(e);
        }
        List<Finding> out = new ArrayList<>();
        byGpuAndXid.values().forEach(events -> out.add(finding(events, log, names(h))));
        if (!log.unreadable().isEmpty()) {
            List<String> evidence = new ArrayList<>(log.unreadable().stream().limit(5).map(l -> "line: " + l).toList());
            evidence.add(0, log.unreadable().size() + " " + NOT_UNDERSTOOD + " in " + log.source());
            out.add(finding("node", log.unreadable().size() + " " + NOT_UNDERSTOOD, evidence).withSeverity(Severity.WARN));
        }
        return Outcome.flag(out);
    }

    private Finding finding(List<GpuHealth.XidEvent> events, GpuHealth.XidLog log, Map<String, String> names) {
        GpuHealth.XidEvent first = events.get(0);
        Optional<XidCatalog.Entry> entry = catalog.entry(first.xid());
        String what = entry.map(XidCatalog.Entry::describe).orElse("not in configs/xid-catalog.yaml");
        String gpu = first.busId() + names.getOrDefault(first.busId(), " (not a GPU NVML lists)");
        List<String> evidence = new ArrayList<>();
        evidence.add("Xid " + first.xid() + ": " + what);
        events.stream().limit(3).forEach(e -> evidence.add((e.when().isEmpty() ? "" : e.when() + " ") + "Xid " + e.xid() + ", " + e.detail()));
        if (events.size() > 3) {
            evidence.add("… " + (events.size() - 3) + " more");
        }
        evidence.add("read from " + log.source() + ", " + log.window());
        String title = "GPU " + gpu + ": Xid " + first.xid() + entry.map(x -> x.meaning() == null || x.meaning().isEmpty()
                ? " (" + x.mnemonic() + ")" : " (" + x.meaning() + ")").orElse("") + (events.size() > 1 ? ", " + events.size() + " times" : "")
                + " in " + log.window();
        return finding(first.busId(), title, evidence).withSeverity(entry.map(XidCatalog.Entry::severity).orElse(Severity.WARN));
    }

    /** bus id → " NVIDIA H100 80GB HBM3", for the GPUs NVML lists. */
    private static Map<String, String> names(GpuHealth h) {
        Map<String, String> out = new LinkedHashMap<>();
        for (GpuHealth.Gpu g : h.gpus().orElse(List.of())) {
            if (g.busId().isValue()) {
                out.put(g.busId().get(), g.name().map(n -> " " + n).orElse(""));
            }
        }
        return out;
    }
}
