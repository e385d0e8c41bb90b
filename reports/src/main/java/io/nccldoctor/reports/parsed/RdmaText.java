package io.nccldoctor.reports.parsed;

import io.nccldoctor.core.Fact;
import io.nccldoctor.gdr.CounterDelta;
import io.nccldoctor.gdr.CounterSnapshot;
import io.nccldoctor.gdr.RdmaDevices;
import io.nccldoctor.gdr.text.RdmaKind;
import io.nccldoctor.gdr.text.RdmaPaste;
import io.nccldoctor.reports.Evaluation;
import io.nccldoctor.reports.Finding;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.Collectors;

/** The human form of `parse rdma`: what was recognised, the devices and ports, counters, findings, and what was not read. */
public final class RdmaText {

    private RdmaText() {
    }

    public static String render(RdmaJudgement j) {
        RdmaPaste p = j.paste();
        RdmaPaste.Lines l = p.lines();
        StringBuilder out = new StringBuilder("RDMA state from " + p.source() + ": " + p.kinds().stream().map(RdmaKind::key)
                .collect(Collectors.joining(", ")) + " (" + p.sections().size() + " section" + (p.sections().size() == 1 ? "" : "s")
                + "; " + l.total() + " lines: " + l.facts() + " read, " + l.known() + " known and not needed, " + l.skipped()
                + " blank or commands, " + l.notUnderstood() + " not understood)\n");
        devices(out, p.rdma());
        adapters(out, p.adapters());
        counters(out, p.counters(), p.otherEthtool());
        findings(out, j.evaluation());
        if (!p.notes().isEmpty()) {
            out.append("Notes\n");
            p.notes().forEach(n -> out.append("  ").append(n).append('\n'));
        }
        if (!p.notUnderstood().isEmpty()) {
            out.append("Not understood (").append(p.notUnderstood().size()).append(" lines)\n");
            p.notUnderstood().forEach(u -> out.append("  line ").append(u.line()).append(": ").append(u.text().strip()).append('\n'));
        }
        return out.toString();
    }

    private static void devices(StringBuilder out, RdmaDevices rdma) {
        if (!rdma.devices().isValue()) {
            out.append("Devices: ").append(rdma.devices().reason()).append('\n');
        } else {
            out.append("Devices: ").append(rdma.devices().get().isEmpty() ? "none (the tool said so)" : rdma.devices().get().size())
                    .append('\n');
            for (RdmaDevices.RdmaDevice d : rdma.devices().get()) {
                out.append("  ").append(d.name()).append(value("  fw ", d.fwVersion())).append(value("  part ", d.partId()))
                        .append(value("  PCI ", d.pciAddress())).append(value("  GUID ", d.nodeGuid())).append('\n');
                d.ports().orElse(List.of()).forEach(port -> port(out, port));
            }
        }
        if (!rdma.otherNetdevs().isEmpty()) {
            out.append("Net devices the input ties to no port\n");
            rdma.otherNetdevs().forEach(n -> out.append("  ").append(netdev(n)).append('\n'));
        }
    }

    private static void port(StringBuilder out, RdmaDevices.RdmaPort p) {
        out.append("    port ").append(p.number()).append("  ").append(p.state().orElse("state ?"))
                .append(p.physState().<String>fold(s -> " (" + s + ")", why -> "")).append(value("  ", p.linkLayer()))
                .append(value("  ", p.rate())).append(value("  active_mtu ", p.activeMtu())).append(value("  max_mtu ", p.maxMtu()))
                .append(value("  LID ", p.lid())).append(value("  SM LID ", p.smLid())).append(value("  traffic class ", p.trafficClass()))
                .append('\n');
        p.gids().orElse(List.of()).forEach(g -> out.append("      GID ").append(g.index()).append("  ").append(g.gid())
                .append(value("  ", g.type())).append(value("  ", g.netdev())).append('\n'));
        p.netdevs().orElse(List.of()).forEach(n -> out.append("      ").append(netdev(n)).append('\n'));
    }

    private static String netdev(RdmaDevices.Netdev n) {
        String qos = n.qos().<String>fold(q -> "  trust " + q.trust().orElse("?") + ", PFC on " + q.pfcPriorities().fold(
                on -> on.isEmpty() ? "no priority" : "priorities " + on, why -> "?") + q.dcbx().fold(d -> ", DCBX " + d, why -> ""),
                why -> "");
        return "net device " + n.name() + value("  link ", n.link()) + value("  mtu ", n.mtu()) + qos;
    }

    private static void counters(StringBuilder out, List<CounterSnapshot.Port> ports, List<CounterSnapshot.Netdev> other) {
        if (ports.isEmpty() && other.isEmpty()) {
            return;
        }
        out.append("Counters (one reading, counting since the driver loaded: what a run did needs two readings, "
                + "`nccl-doctor counters`; not judged here)\n");
        for (CounterSnapshot.Port p : ports) {
            out.append("  ").append(p.label()).append('\n');
            if (p.counters().isValue()) {
                out.append(folder("counters", p.counters().get()));
            }
            if (p.hwCounters().isValue()) {
                out.append(folder("hw_counters", p.hwCounters().get()));
            }
            p.netdevs().orElse(List.of()).forEach(n -> out.append(ethtool(n)));
        }
        other.forEach(n -> out.append(ethtool(n)));
    }

    private static String folder(String name, Map<String, Fact<Long>> values) {
        List<String> shown = new ArrayList<>();
        long unreadable = values.values().stream().filter(f -> !f.isValue()).count();
        values.forEach((k, v) -> {
            if (v.isValue() && v.get() != 0) {
                OptionalInt w = name.equals("counters") ? CounterDelta.pmaWidth(k) : OptionalInt.empty();
                boolean pinned = w.isPresent() && w.getAsInt() < 63 && v.get() == (1L << w.getAsInt()) - 1;
                shown.add(k + " " + v.get() + (pinned ? " (at its " + w.getAsInt() + "-bit maximum: it has stopped counting)" : ""));
            }
        });
        String none = values.values().stream().filter(f -> !f.isValue()).findFirst().map(Fact::reason).orElse("");
        return "    " + name + ": " + values.size() + " read, " + shown.size() + " not zero" + (unreadable > 0 ? ", " + unreadable
                + " without a value (" + none + ")" : "") + (shown.isEmpty() ? "" : ": " + String.join(", ", shown)) + "\n";
    }

    private static String ethtool(CounterSnapshot.Netdev n) {
        Map<String, Long> stats = n.ethtool().orElse(Map.of());
        List<String> pauses = stats.entrySet().stream().filter(e -> e.getKey().contains("pause") && e.getValue() != 0)
                .map(e -> e.getKey() + " " + e.getValue()).toList();
        return "    ethtool -S " + n.name() + ": " + stats.size() + " statistics" + (pauses.isEmpty() ? ", no pause frames counted"
                : ", pause counters not zero: " + String.join(", ", pauses)) + "\n";
    }

    private static void findings(StringBuilder out, Evaluation e) {
        if (e.findings().isEmpty()) {
            out.append("Findings: none\n");
        } else {
            out.append("Findings\n");
            for (Finding f : e.findings()) {
                out.append("  ").append(f.severity().label().toUpperCase(Locale.ROOT)).append("  ").append(f.code())
                        .append("  ").append(f.subject()).append(": ").append(f.title()).append('\n');
                f.evidence().forEach(x -> out.append("        - ").append(x).append('\n'));
                out.append("        fix: ").append(f.remedy()).append('\n');
            }
        }
        if (!e.notChecked().isEmpty()) {
            out.append("Not checked\n");
            e.notChecked().forEach(n -> out.append("  ").append(n.code()).append("  ").append(n.reason()).append('\n'));
        }
    }

    /** mlxfwmanager's blocks: adapters by PCI address, which name no RDMA device. */
    private static void adapters(StringBuilder out, List<RdmaPaste.Adapter> adapters) {
        if (!adapters.isEmpty()) {
            out.append("Adapters (mlxfwmanager; they name no RDMA device)\n");
        }
        adapters.forEach(a -> out.append("  Device #").append(a.number()).append(" (line ").append(a.line()).append(")")
                .append(value("  PCI ", a.pci())).append(value("  ", a.type())).append(value("  ", a.partNumber()))
                .append(value("  PSID ", a.psid())).append(value("  fw ", a.fw())).append(value("  running ", a.fwRunning()))
                .append(value("  available ", a.fwAvailable())).append(value("  ", a.status())).append('\n'));
    }

    private static String value(String label, Fact<?> f) {
        return f.isValue() ? label + f.get() : "";
    }
}
