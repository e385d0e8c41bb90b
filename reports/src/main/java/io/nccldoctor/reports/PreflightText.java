package io.nccldoctor.reports;

import io.nccldoctor.collectives.Libraries;
import io.nccldoctor.core.libs.NativeLibrary;
import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Snapshot;
import io.nccldoctor.gdr.NvidiaDriver;
import io.nccldoctor.gdr.RdmaDevices;
import io.nccldoctor.pcie.DeviceKind;
import io.nccldoctor.pcie.PciDevice;
import io.nccldoctor.pcie.PciInventory;
import io.nccldoctor.pcie.Platform;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The one-screen human form of a preflight: what was found, the findings with evidence and remedy, what could
 * not be checked. Plain ASCII so it pastes into any ticket; colour only when asked (a TTY).
 */
public final class PreflightText {

    /** Above this many PCI functions only GPUs, NVSwitches and NICs are listed one per line. */
    private static final int LIST_ALL_BELOW = 16;

    private final StringBuilder out = new StringBuilder();
    private final boolean colour;

    private PreflightText(boolean colour) {
        this.colour = colour;
    }

    public static String render(PreflightReport r, boolean colour) {
        PreflightText t = new PreflightText(colour);
        t.header(r.snapshot());
        t.facts(r.snapshot());
        t.findings(r.findings());
        t.notChecked(r.notChecked());
        t.result(r);
        return t.out.toString();
    }

    private void header(Snapshot s) {
        line("nccl-doctor preflight - " + s.hostName() + " - " + s.source() + " - " + s.createdAt());
        line("");
    }

    private void facts(Snapshot s) {
        Sections.platform(s).ifPresent(this::platform);
        Sections.pci(s).ifPresent(this::pci);
        Sections.nvidiaDriver(s).ifPresent(this::driver);
        Sections.libraries(s).ifPresent(this::libraries);
        Sections.rdma(s).ifPresent(this::rdma);
        Sections.gdrHost(s).ifPresent(this::gdr);
        line("");
    }

    private void platform(Platform p) {
        Platform.Cpu c = p.cpu();
        String id = c.vendor().orElse("?") + " family " + c.family().map(String::valueOf).orElse("?") + " model "
                + c.model().map(m -> m + String.format(Locale.ROOT, " (0x%x)", m)).orElse("?");
        String numa = p.numaNodes().map(n -> n.size() + (n.size() == 1 ? " NUMA node" : " NUMA nodes"))
                .orElse("NUMA " + p.numaNodes().describe());
        field("CPU", c.modelName().describe() + "; " + id + "; " + c.logicalCpus().map(n -> n + " logical CPUs")
                .orElse("CPUs " + c.logicalCpus().describe()) + "; " + numa);
        field("Kernel", p.kernel().describe() + "; " + p.os().describe());
    }

    private void pci(PciInventory inv) {
        if (!inv.devices().isValue()) {
            field("PCI", inv.devices().describe());
            return;
        }
        List<PciDevice> all = inv.devices().get();
        Map<DeviceKind, Integer> counts = new EnumMap<>(DeviceKind.class);
        all.forEach(d -> counts.merge(d.kind(), 1, Integer::sum));
        StringBuilder summary = new StringBuilder(all.size() + " functions: " + plural(counts.getOrDefault(DeviceKind.GPU, 0), "NVIDIA GPU"));
        counts.forEach((k, n) -> {
            if (k != DeviceKind.GPU) {
                summary.append(", ").append(k == DeviceKind.OTHER ? n + " other" : plural(n, label(k)));
            }
        });
        field("PCI", summary.toString());
        for (PciDevice d : all) {
            boolean key = d.kind() == DeviceKind.GPU || d.kind() == DeviceKind.NIC || d.kind() == DeviceKind.NVSWITCH;
            if (key || all.size() < LIST_ALL_BELOW) {
                field("", String.format(Locale.ROOT, "%s %-11s %s %s%s", d.address(), label(d.kind()),
                        d.ids(), d.names().map(n -> n.vendor() + " " + n.device() + " ").orElse(""),
                        "(driver " + d.driver().orElse("none") + ")"));
            }
        }
        if (!inv.namesSource().isValue()) {
            field("", "no device names: " + inv.namesSource().reason());
        }
    }

    private void driver(NvidiaDriver d) {
        field("Driver", d.version().isValue() ? "NVIDIA " + d.version().get() + " (" + d.flavour().orElse("?") + " kernel module)"
                : d.version().reason());
    }

    private void libraries(Libraries l) {
        library("CUDA", l.cudaRuntime());
        library("", l.cudaDriver());
        library("NCCL", l.nccl());
    }

    private void library(String label, NativeLibrary lib) {
        if (!lib.found()) {
            field(label, lib.name() + ": not found (" + String.join(", ", lib.sonames()) + ")");
            return;
        }
        for (NativeLibrary.Copy c : lib.copies()) {
            Fact<String> v = c.version();
            field(label, lib.name() + " " + (v.isValue() ? v.get() : "version " + v.describe()) + "  " + c.realPath()
                    + " (" + c.origin() + (c.onLoaderPath() ? "" : ", not on the loader path") + ")");
            label = "";
        }
    }

    private void rdma(RdmaDevices r) {
        if (!r.devices().isValue()) {
            field("RDMA", "none: " + r.devices().reason());
            return;
        }
        if (r.devices().get().isEmpty()) {
            field("RDMA", "none: /sys/class/infiniband is empty");
        }
        String label = "RDMA";
        for (RdmaDevices.RdmaDevice d : r.devices().get()) {
            field(label, d.name() + " on " + d.pciAddress().orElse("?") + (d.fwVersion().isValue() ? ", fw " + d.fwVersion().get() : "")
                    + d.ports().fold(ps -> ps.stream().map(p -> ", port " + p.number() + " " + p.state().orElse("?") + " "
                            + p.rate().orElse("rate ?") + " " + p.linkLayer().orElse("")).reduce("", String::concat), why -> ", ports " + why));
            label = "";
        }
    }

    private void gdr(io.nccldoctor.gdr.GdrHost h) {
        var t = io.nccldoctor.gdr.GdrPredictor.transport(h);
        field("GDR", t.mechanism().fold(m -> "host can register GPU memory via " + m + " (each GPU must allow it too: `nccl-doctor gdr`)",
                why -> why));
        field("", String.join("; ", t.chain()));
    }

    private void findings(List<Finding> findings) {
        if (findings.isEmpty()) {
            line("Findings: none");
            line("");
            return;
        }
        line("Findings");
        for (Finding f : findings) {
            line("  " + paint(f.severity()) + "  " + f.code() + "  " + f.subject() + ": " + f.title());
            f.evidence().forEach(e -> line("        - " + e));
            line("        fix: " + f.remedy());
        }
        line("");
    }

    private void notChecked(List<Evaluation.NotChecked> list) {
        if (list.isEmpty()) {
            return;
        }
        line("Not checked");
        int width = list.stream().mapToInt(n -> n.code().length()).max().orElse(0);
        list.forEach(n -> line("  " + pad(n.code(), width) + "  " + n.reason()));
        line("");
    }

    private void result(PreflightReport r) {
        PreflightReport.Summary s = r.summary();
        String verdict = s.exitCode() == 0 ? (s.warnings() > 0 ? "PASS with warnings" : "PASS") : "FAIL";
        line("Result: " + verdict + " (" + plural(s.errors(), "error") + ", " + plural(s.warnings(), "warning") + ", exit " + s.exitCode()
                + ")" + (r.findings().isEmpty() ? "" : "; details: nccl-doctor explain " + r.findings().get(0).code()));
    }

    private static String label(DeviceKind k) {
        return k == DeviceKind.NIC ? "NIC" : k.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    private static String plural(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    private String paint(Severity s) {
        String label = pad(s.label().toUpperCase(Locale.ROOT), 5);
        if (!colour) {
            return label;
        }
        String code = switch (s) {
            case ERROR -> "31;1";
            case WARN -> "33;1";
            case INFO -> "36";
        };
        return "\u001b[" + code + "m" + label + "\u001b[0m";
    }

    private void field(String label, String value) {
        line("  " + pad(label, 7) + " " + value);
    }

    private void line(String s) {
        out.append(s.stripTrailing()).append('\n');
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }
}
