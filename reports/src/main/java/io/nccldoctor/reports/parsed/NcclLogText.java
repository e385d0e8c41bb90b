package io.nccldoctor.reports.parsed;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.collectives.parse.NcclLogSet;
import io.nccldoctor.reports.chart.SizeLabels;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The human form of `parse nccl-log`: one log, a one-line summary, or a set of per-process logs. */
public final class NcclLogText {

    private NcclLogText() {
    }

    public static String render(NcclLog log, String file) {
        StringBuilder out = new StringBuilder("NCCL log " + file + ": " + log.lines() + " lines, " + log.ncclLines() + " from NCCL; versions "
                + (log.versions().isEmpty() ? "not in the log" : String.join(", ", log.versions())) + "\n");
        if (log.withoutPrefix()) {
            out.append("  lines without NCCL's \"host:pid:tid [dev] NCCL INFO\" prefix (a pasted excerpt): each read by NCCL's own wording\n");
        }
        if (log.processes().size() > 1) {
            out.append("  processes: ").append(log.processes().size()).append(" (host:pid on the lines read; per-operation lines and "
                    + "channel lines not over the network are counted without it)\n");
        }
        network(log, out);
        for (Map.Entry<String, Long> t : log.transports().entrySet()) {
            out.append("  channels via ").append(t.getKey()).append(": ").append(t.getValue()).append('\n');
        }
        if (log.pxnChannels() > 0) {
            out.append("  of these network channels, ").append(log.pxnChannels()).append(" go through another rank's NIC and proxy "
                    + "(PXN: NCCL printed that rank in parentheses on a send channel, NET/…/0(3)/…)\n");
        }
        init(log, out);
        for (Map.Entry<Integer, Long> c : log.communicatorSizes().entrySet()) {
            out.append("  communicators of ").append(c.getKey()).append(" ranks initialised: ").append(c.getValue()).append('\n');
        }
        for (Map.Entry<String, Long> a : log.algorithms().entrySet()) {
            out.append("  algorithm/protocol ").append(a.getKey()).append(": ").append(a.getValue()).append('\n');
        }
        lines("  tuning ", tuningRanges(log.tuning()), out);
        gdr(log, out);
        for (NcclLog.NicDistance d : log.nicDistances()) {
            out.append("  ").append(nicDistance(d)).append('\n');
        }
        for (NcclLog.SystemDump d : log.systems()) {
            out.append("  ").append(system(d)).append('\n');
        }
        out.append("  warnings: ").append(log.warnings()).append('\n');
        lines("    ", log.firstWarnings(), out);
        errors(log.errors(), out);
        for (NcclLog.IbError e : log.ibErrors()) {
            out.append("  IB completion error: status ").append(e.status()).append(" (").append(e.statusName()).append("), vendor err ")
                    .append(e.vendorErr().map(String::valueOf).orElse("not on the line")).append('\n');
            if (!e.meaning().isEmpty()) {
                out.append("    ").append(e.meaning()).append('\n');
            }
        }
        if (log.acsHint()) {
            out.append("  NCCL's HINT: ACS is enabled on the path and breaks GPU Direct RDMA: `nccl-doctor preflight` on that node names the "
                    + "bridge (ACS_REDIRECT_ON_P2P_PATH); disable ACS there, or NCCL_NET_GDR_LEVEL=0 to confirm\n");
        }
        lines("  watchdog: ", log.watchdogTimeouts(), out);
        lines("  watchdog stuck: ", log.watchdogHangs(), out);
        asyncEvents(log.ibAsyncEvents(), "  ", out);
        torchErrors(log.torchErrors(), "  ", out);
        for (NcclLog.LibfabricWarning w : log.libfabricWarnings().warnings()) {
            out.append("  libfabric warning: ").append(w.provider()).append(' ').append(w.function())
                    .append(": ").append(w.message()).append(", ").append(w.count()).append(w.count() == 1 ? " line" : " lines")
                    .append(w.harmless() ? " (the plugin's own choice, not judged)" : "").append('\n');
        }
        for (NcclLog.MnnvlGpu g : log.mnnvl().gpus()) {
            out.append("  MNNVL fabric: GPU busId ").append(g.busId()).append(", fabric registration ")
                    .append(g.state()).append(" (").append(g.stateName()).append("), cliqueId ").append(g.cliqueId()).append(", fabric UUID ")
                    .append(g.fabricUuid()).append(", healthMask ").append(g.healthMask()).append(" (as printed)\n");
        }
        if (!log.cutLastLine().isEmpty()) {
            out.append("  ").append(log.cutLastLine()).append('\n');
        }
        if (log.unknownMessages() > 0) {
            out.append("  NCCL INFO messages of no kind this parser knows (looked at for a transport or an algorithm only): ")
                    .append(log.unknownMessages()).append('\n');
        }
        lines("DIFFERS between processes: ", log.differences(), out);
        return out.toString();
    }

    /*
     * Written as loops, not forEach with a lambda: each lambda is linked at its first use, a fraction of a millisecond
     * apiece before anything is compiled, and this runs once per `parse`.
     */

    /** Each of {@code lines} on a line of its own, after {@code lead}. */
    private static void lines(String lead, Iterable<String> lines, StringBuilder out) {
        for (String line : lines) {
            out.append(lead).append(line).append('\n');
        }
    }

    /** The IB async events, one line per port and event: "IB async event (fatal): mlx5_3:1 invalid request local work queue error: 3 lines". */
    private static void asyncEvents(NcclLog.IbAsyncEvents a, String indent, StringBuilder out) {
        for (NcclLog.IbAsyncEvent e : a.events()) {
            out.append(indent).append("IB async event").append(e.fatal() ? " (fatal)" : "").append(": ")
                    .append(e.port().isEmpty() ? "port not named (NCCL before 2.21)" : e.port()).append(' ').append(e.event()).append(": ")
                    .append(e.count()).append(e.count() == 1 ? " line" : " lines").append('\n');
        }
        long listed = a.events().stream().mapToLong(NcclLog.IbAsyncEvent::count).sum();
        if (a.count() > listed) {
            out.append(indent).append("IB async events past the first ").append(a.events().size()).append(" ports and events: ")
                    .append(a.count() - listed).append('\n');
        }
    }

    /** PyTorch's DistBackendError lines: the result, the version, and NCCL's last error when the text holds it. */
    private static void torchErrors(NcclLog.TorchErrors t, String indent, StringBuilder out) {
        for (NcclLog.TorchError e : t.errors()) {
            boolean xla = "XLA".equals(e.framework());
            out.append(indent).append(xla ? "XLA NCCL error: " : "PyTorch DistBackendError: ")
                    .append(e.code() == 0 ? "'" + e.result() + "'" : NcclLog.ErrorChain.codeName(e.code()))
                    .append(xla ? " from " + e.call() : "")
                    .append(" at ").append(e.where()).append(", NCCL ").append(e.version().isEmpty() ? "version not on the line" : e.version())
                    .append("; last error: ").append(e.lastError().isEmpty() ? (xla ? "not on the line (XLA before late 2023 does not "
                            + "print it)" : "not in the text (PyTorch prints it on the line after 'Last error:', below its line)")
                            : e.lastError()).append('\n');
        }
        if (t.count() > t.errors().size()) {
            out.append(indent).append("framework NCCL error lines past the first ").append(t.errors().size()).append(": ")
                    .append(t.count() - t.errors().size()).append('\n');
        }
    }

    /** "path from GPU 0[0] to each IB NIC (NCCL 2.3/2.4's path types): 0 PIX, 1 SYS", each NIC with its path type as printed. */
    /** NCCL's error chains (each from where it arose to where it ended) and the WARN lines NCCL calls harmless. */
    private static void errors(NcclLog.Errors e, StringBuilder out) {
        if (e.chainCount() > 0) {
            out.append("  error chains: ").append(e.chainCount()).append(", ").append(e.failedChains())
                    .append(" reaching the top of a call (the call failed)\n");
        }
        for (NcclLog.ErrorChain c : e.chains()) {
            out.append("    ").append(c.failed() ? "failed: " : "stops below the call: ").append(c.thread().isEmpty() ? "" : c.thread() + ": ")
                    .append(c.count()).append(" lines, ").append(NcclLog.ErrorChain.codeName(c.code())).append(", up to: ").append(c.top())
                    .append('\n');
        }
        if (e.harmlessCount() > 0) {
            out.append("  of the warnings, NCCL calls harmless: ").append(e.harmlessCount()).append('\n');
        }
    }

    private static String nicDistance(NcclLog.NicDistance d) {
        List<String> pairs = new ArrayList<>();
        for (int i = 0; i < d.paths().size(); i++) {
            pairs.add(d.nics().get(i) + " " + d.paths().get(i));
        }
        return "path from GPU " + d.gpu() + " to each " + d.network() + " NIC (NCCL 2.3/2.4's path types): " + String.join(", ", pairs);
    }

    /** The network chosen, each transport's devices, what found no device, the plugins, and any fallback. */
    private static void network(NcclLog log, StringBuilder out) {
        NcclLog.Network n = log.network();
        if (!n.chosen().isEmpty()) {
            out.append("  network chosen: ").append(String.join(", ", n.chosen())).append('\n');
        }
        for (Map.Entry<String, List<String>> t : n.devices().entrySet()) {
            lines("  NET/" + t.getKey() + " devices: ", t.getValue(), out);
        }
        lines("  unavailable: ", n.unavailable(), out);
        if (!n.loadedPlugins().isEmpty()) {
            out.append("  net plugins loaded: ").append(String.join(", ", n.loadedPlugins())).append('\n');
        }
        if (!n.failedPlugins().isEmpty()) {
            out.append("  net plugins that failed to initialise: ").append(String.join(", ", n.failedPlugins())).append('\n');
        }
        lines("  FALLBACK: ", n.fallbacks(), out);
        lines("  network: ", log.networks(), out);
    }

    /** The CUDA driver, communicators started and their node counts, the GPUs' bus ids, the environment, missing symbols. */
    private static void init(NcclLog log, StringBuilder out) {
        NcclLog.Init i = log.init();
        if (!i.cudaDriverVersions().isEmpty()) {
            List<String> versions = new ArrayList<>();
            for (String v : i.cudaDriverVersions()) {
                versions.add(cudaVersion(v));
            }
            out.append("  CUDA driver API: ").append(String.join(", ", versions)).append('\n');
        }
        if (!i.gitVersions().isEmpty()) {
            out.append("  NCCL built from git: ").append(String.join(", ", i.gitVersions())).append('\n');
        }
        for (Map.Entry<Integer, Long> c : i.started().entrySet()) {
            out.append("  communicators of ").append(c.getKey()).append(" ranks started: ").append(c.getValue()).append('\n');
        }
        for (Map.Entry<Integer, Long> c : i.nodes().entrySet()) {
            int n = c.getKey();
            out.append("  communicators over ").append(n).append(n == 1 ? " node: " : " nodes: ").append(c.getValue()).append('\n');
        }
        if (!i.busIds().isEmpty()) {
            List<String> ids = List.copyOf(i.busIds());
            out.append("  GPUs (PCI bus ids as NCCL prints them): ").append(String.join(", ", ids.subList(0, Math.min(16, ids.size()))))
                    .append(ids.size() > 16 ? " and " + (ids.size() - 16) + " more" : "").append('\n');
        }
        for (Map.Entry<String, List<String>> e : i.environment().entrySet()) {
            out.append("  environment: ").append(e.getKey()).append('=').append(String.join(" | ", e.getValue())).append('\n');
        }
        if (i.symbolFailureCount() > 0) {
            out.append("  verbs symbols not found: ").append(i.symbolFailureCount()).append(" lines (rdma-core older than this NCCL expects)\n");
            lines("    ", i.symbolFailures(), out);
        }
    }

    /** "12080" → "12080 (CUDA 12.8)": cudaDriverGetVersion's 1000 × major + 10 × minor. */
    static String cudaVersion(String v) {
        try {
            int n = Integer.parseInt(v);
            return v + " (CUDA " + n / 1000 + "." + n % 1000 / 10 + ")";
        } catch (NumberFormatException e) {
            return v;
        }
    }

    /** Each GPU–NIC decision kept, decoded, and every decision counted by kind. */
    private static void gdr(NcclLog log, StringBuilder out) {
        for (NcclLog.GdrLine g : log.gdr()) {
            out.append("  GDR ").append(g.enabled() ? "enabled" : "disabled").append(" for GPU ").append(g.gpu()).append(" / HCA ")
                    .append(g.hca()).append(": distance ").append(g.distance()).append(' ').append(g.relation()).append(' ')
                    .append(g.threshold()).append(" (").append(GdrReading.of(g.distance(), g.relation(), g.threshold(), g.wording(), log))
                    .append(")\n");
        }
        long decisions = 0;
        for (NcclLog.GdrCount c : log.gdrDecisions()) {
            decisions += c.count();
        }
        if (decisions > log.gdr().size()) {
            for (NcclLog.GdrCount c : log.gdrDecisions()) {
                out.append("  GDR decisions ").append(c.enabled() ? "enabled" : "disabled").append(" at distance ").append(c.distance()).append(' ')
                        .append(c.relation()).append(' ').append(c.threshold()).append(": ").append(c.count()).append('\n');
            }
        }
        for (NcclLog.NicGdr n : log.nicGdr()) {
            out.append("  NIC ").append(n.hca()).append(" (NET/").append(n.net()).append(' ').append(n.index()).append("): GPU Direct RDMA ")
                    .append(n.enabled() ? "enabled" : "DISABLED" + (n.noModule() ? " (no module)" : "")).append('\n');
            if (!n.meaning().isEmpty()) {
                out.append("    ").append(n.meaning()).append('\n');
            }
        }
    }

    /**
     * One "=== System : maxBw …" dump in a line: "NCCL's system view: 2 CPUs, 8 GPUs, 8 NICs (NET 50.0 GB/s), 8 NVLink links
     * to 1 NVSwitch, PCI links 48.0 GB/s x24, 0.2 GB/s x8", with what links below 1 GB/s mean.
     */
    static String system(NcclLog.SystemDump d) {
        String head = d.headerless() ? "part of NCCL's system view (its \"=== System\" line is not in the log, nor maxBw and totalBw): "
                : "NCCL's system view (maxBw " + d.maxBw() + ", totalBw " + d.totalBw() + "): ";
        StringBuilder s = new StringBuilder(head).append(d.cpus()).append(" CPUs, ").append(d.gpus()).append(" GPUs, ").append(d.nics())
                .append(" NICs");
        if (!d.netBandwidths().isEmpty()) {
            s.append(" (NET ").append(String.join(", ", d.netBandwidths())).append(" GB/s)");
        }
        if (d.nvlinks() > 0) {
            s.append(", ").append(d.nvlinks()).append(" NVLink links").append(d.nvswitches() > 0 ? " to " + d.nvswitches() + " NVSwitch" : "");
        }
        if (d.c2cLinks() > 0) {
            s.append(", ").append(d.c2cLinks()).append(" C2C links");
        }
        for (Map.Entry<String, Integer> other : d.otherLinks().entrySet()) {
            s.append(", ").append(other.getValue()).append(' ').append(other.getKey()).append(" links");
        }
        List<Map.Entry<String, Integer>> pci = new ArrayList<>(d.pciLinks().entrySet());
        pci.sort((a, b) -> Double.compare(Double.parseDouble(b.getKey()), Double.parseDouble(a.getKey())));
        for (int k = 0; k < pci.size(); k++) {
            s.append(k == 0 ? ", PCI links " : ", ").append(pci.get(k).getKey()).append(" GB/s x").append(pci.get(k).getValue());
        }
        if (!d.complete()) {
            s.append(" (its end is not in the log)");
        }
        if (!d.slowPciLinks().isEmpty()) {
            List<String> shapes = new ArrayList<>();
            for (String bw : d.slowPciLinks().keySet()) {
                shapes.add(bw + " GB/s is " + String.join(" or ", linkShapes(bw)));
            }
            s.append("; NCCL rates a PCI link width x per-lane rate / 80: ").append(String.join(", ", shapes))
                    .append(", so it sees the GPUs and NICs behind those links as slow (x1 at 2.5 GT/s is what a hypervisor's emulated"
                            + " bridge reports: a VM without its real PCI topology, NCCL_TOPO_FILE; on bare metal, a device in a narrow"
                            + " or slow slot)");
        }
        return s.toString();
    }

    /** PCIe generations 1 to 6 in GT/s, and NCCL's per-lane rate for each in units of 0.1 Gb/s (kvDictPciGen, src/graph/topo.cc). */
    private static final String[] PCI_GTS = {"2.5", "5", "8", "16", "32", "64"};
    private static final int[] PCI_LANE_RATE = {15, 30, 60, 120, 240, 480};

    /**
     * The link widths and speeds whose bandwidth NCCL prints as {@code bw} (width x rate / 80 GB/s, to one decimal):
     * "0.2" is "x1 at 2.5 GT/s", "0.4" is "x1 at 5 GT/s" or "x2 at 2.5 GT/s"; "a link of another shape" when none gives it.
     */
    static List<String> linkShapes(String bw) {
        List<String> out = new ArrayList<>();
        for (int g = 0; g < PCI_GTS.length; g++) {
            for (int width = 1; width <= 16; width *= 2) {
                if (String.format(Locale.ROOT, "%.1f", width * PCI_LANE_RATE[g] / 80.0).equals(bw)) {
                    out.add("x" + width + " at " + PCI_GTS[g] + " GT/s");
                }
            }
        }
        return out.isEmpty() ? List.of("a link of another shape") : out;
    }

    /**
     * NCCL's choices by size, a line per collective: "AllReduce: RING/LL 8 B to 64 KiB (120 calls), RING/SIMPLE 128 KiB to
     * 1 GiB (40 calls)", consecutive sizes with the same algorithm and protocol joined.
     */
    static List<String> tuningRanges(List<NcclLog.Tuning> tuning) {
        Map<String, List<NcclLog.Tuning>> byCollective = new LinkedHashMap<>();
        for (NcclLog.Tuning t : tuning) {
            String collective = t.collective().orElse("(collective not logged)");
            List<NcclLog.Tuning> of = byCollective.get(collective);
            if (of == null) {
                of = new ArrayList<>();
                byCollective.put(collective, of);
            }
            of.add(t);
        }
        List<String> lines = new ArrayList<>();
        for (Map.Entry<String, List<NcclLog.Tuning>> c : byCollective.entrySet()) {
            List<NcclLog.Tuning> choices = c.getValue();
            List<String> ranges = new ArrayList<>();
            int i = 0;
            while (i < choices.size()) {
                NcclLog.Tuning first = choices.get(i);
                long calls = 0;
                int j = i;
                while (j < choices.size() && choices.get(j).algorithm().equals(first.algorithm())
                        && choices.get(j).protocol().equals(first.protocol())) {
                    calls += choices.get(j).count();
                    j++;
                }
                long last = choices.get(j - 1).bytes();
                ranges.add(first.algorithm() + "/" + first.protocol() + " " + SizeLabels.format(first.bytes())
                        + (last == first.bytes() ? "" : " to " + SizeLabels.format(last)) + " (" + calls + (calls == 1 ? " call)" : " calls)"));
                i = j;
            }
            lines.add(c.getKey() + ": " + String.join(", ", ranges));
        }
        return lines;
    }

    /**
     * One log in a line: "NCCL 2.27.5, Using network IB, 32 via NET/IB/0/GDRDMA"; an RCCL log's version is kept as read
     * ("RCCL 2.21.5"), never called NCCL's.
     */
    public static String summary(NcclLog log) {
        StringBuilder s = new StringBuilder(log.versions().isEmpty() ? "NCCL ?" : String.join(", ",
                log.versions().stream().map(v -> v.startsWith("RCCL ") ? v : "NCCL " + v).toList()));
        log.networks().stream().filter(n -> n.startsWith("Using network")).findFirst().ifPresent(n -> s.append(", ").append(n));
        log.transports().forEach((t, n) -> s.append(", ").append(n).append(" via ").append(t));
        return s.toString();
    }

    /**
     * Several logs: the totals, a line per file (version, network, channels, warnings), what differs between them, and
     * each file's IB completion errors and watchdog timeouts under its name.
     */
    public static String renderSet(NcclLogSet set) {
        long lines = set.logs().values().stream().mapToLong(NcclLog::lines).sum();
        long nccl = set.logs().values().stream().mapToLong(NcclLog::ncclLines).sum();
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "NCCL logs: %d files, %,d lines, %,d from NCCL%n",
                set.logs().size(), lines, nccl));
        set.logs().forEach((file, log) -> out.append("  ").append(file).append(": ").append(summary(log)).append(", ")
                .append(log.warnings()).append(log.warnings() == 1 ? " warning" : " warnings").append('\n'));
        set.skipped().forEach((file, why) -> out.append("  ").append(file).append(": skipped, ").append(why).append('\n'));
        set.differences().forEach(d -> out.append("DIFFERS: ").append(d).append('\n'));
        set.logs().forEach((file, log) -> log.differences().forEach(d -> out.append("DIFFERS between the processes in ").append(file)
                .append(": ").append(d).append('\n')));
        set.logs().forEach((file, log) -> {
            for (NcclLog.IbError e : log.ibErrors()) {
                out.append("FAILED: ").append(file).append(": IB completion error status ").append(e.status()).append(" (")
                        .append(e.statusName()).append("), vendor err ").append(e.vendorErr().map(String::valueOf).orElse("not on the line"))
                        .append('\n');
                if (!e.meaning().isEmpty()) {
                    out.append("    ").append(e.meaning()).append('\n');
                }
            }
            log.watchdogTimeouts().forEach(w -> out.append("FAILED: ").append(file).append(": watchdog: ").append(w).append('\n'));
            log.watchdogHangs().forEach(w -> out.append("FAILED: ").append(file).append(": watchdog stuck: ").append(w).append('\n'));
            asyncEvents(log.ibAsyncEvents(), "  " + file + ": ", out);
            torchErrors(log.torchErrors(), "FAILED: " + file + ": ", out);
        });
        return out.toString();
    }

}
