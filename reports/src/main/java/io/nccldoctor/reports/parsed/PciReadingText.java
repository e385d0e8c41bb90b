package io.nccldoctor.reports.parsed;

import io.nccldoctor.core.Fact;
import io.nccldoctor.pcie.DeviceKind;
import io.nccldoctor.pcie.LspciFragment;
import io.nccldoctor.pcie.PciDevice;
import io.nccldoctor.pcie.PciReading;
import java.util.Locale;
import java.util.Map;

/**
 * The human form of a pasted lspci tree, lspci -vvv text or NCCL/RCCL topology file read on its own: every function
 * with its kind and link, the RDMA names, the header-less fragments, and every line or element not read.
 */
public final class PciReadingText {

    private PciReadingText() {
    }

    public static String render(PciReading r, String file) {
        StringBuilder out = new StringBuilder(r.kind() + " from " + file + ": " + r.census().functions() + " PCI functions");
        out.append(r.fragments().isEmpty() ? "" : ", " + r.fragments().size() + " devices without a header line").append('\n');
        for (PciDevice d : r.devices()) {
            out.append("  ").append(d.address()).append("  ").append(pad(d.kind().name().toLowerCase(Locale.ROOT).replace('_', ' '), 9))
                    .append(d.ids()).append("  class ").append(d.classCode())
                    .append(d.names().map(n -> "  " + (n.vendor() + " " + n.device()).strip()).orElse(""))
                    .append(r.rdmaNets().containsKey(d.address()) ? "  " + String.join(", ", r.rdmaNets().get(d.address()))
                            : r.rdmaNames().containsKey(d.address()) ? "  " + r.rdmaNames().get(d.address()) : "")
                    .append("  link ").append(link(d.link().speedGTps(), d.link().width()))
                    .append(d.numaNode().map(n -> "  NUMA " + n).orElse("")).append('\n');
        }
        for (LspciFragment f : r.fragments()) {
            out.append("  lines ").append(f.firstLine()).append('-').append(f.lastLine()).append("  ")
                    .append(f.device().orElse("unknown device")).append(": LnkSta ").append(link(f.link().speedGTps(), f.link().width()))
                    .append(", LnkCap ").append(link(f.link().maxSpeedGTps(), f.link().maxWidth()))
                    .append(f.config().acsControl().map(a -> ", ACSCtl " + (a.isEmpty() ? "all off" : String.join("+ ", a) + "+")).orElse(""))
                    .append(f.config().atsEnabled().map(a -> ", ATS " + (a ? "on" : "off")).orElse(""))
                    .append("; not in the excerpt: ").append(String.join(", ", f.missing())).append('\n');
        }
        out.append("By kind:");
        for (Map.Entry<DeviceKind, Integer> e : r.census().byKind().entrySet().stream().sorted(Map.Entry.comparingByKey()).toList()) {
            if (e.getValue() > 0) {
                out.append(' ').append(e.getValue()).append(' ').append(e.getKey().name().toLowerCase(Locale.ROOT).replace('_', ' ')).append(',');
            }
        }
        out.setLength(out.length() - (out.charAt(out.length() - 1) == ',' ? 1 : 0));
        out.append('\n');
        r.census().rdmaFamilies().forEach((f, n) -> out.append("RDMA NICs: ").append(n).append(' ').append(f).append('\n'));
        r.census().outsideMatrix().forEach(l -> out.append("outside the GPU/NIC matrix: ").append(l).append('\n'));
        r.census().notUnderstood().forEach(l -> out.append("not understood: ").append(l).append('\n'));
        r.notUnderstood().forEach(l -> out.append("not read: ").append(l).append('\n'));
        return out.toString();
    }

    private static String link(Fact<Double> speed, Fact<Integer> width) {
        return speed.isValue() ? String.format(Locale.ROOT, "%.1f GT/s x%s", speed.get(), width.map(w -> Integer.toString(w)).orElse("?")) : "?";
    }

    private static String pad(String s, int w) {
        return s.length() >= w ? s + " " : s + " ".repeat(w - s.length());
    }
}
