package io.nccldoctor.reports.parsed;

import io.nccldoctor.collectives.parse.NcclLog;
import io.nccldoctor.collectives.parse.NcclLogSet;
import io.nccldoctor.pcie.NcclPathTypes;
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
        String version = log.versions().stream().findFirst().orElse(NcclPathTypes.NEWEST);
        StringBuilder out = new StringBuilder("NCCL log " + file + ": " + log.lines() + " lines, " + log.ncclLines() + " from NCCL; versions "
                + (log.versions().isEmpty() ? "not in the log (distances decoded as " + version + ")" : String.join(", ", log.versions())) + "\n");
        if (log.processes().size() > 1) {
            out.append("  processes: ").append(log.processes().size()).append(" (host:pid from the lines' prefix)\n");
        }
        log.networks().forEach(n -> out.append("  network: ").append(n).append('\n'));
        log.transports().forEach((t, n) -> out.append("  channels via ").append(t).append(": ").append(n).append('\n'));
        log.communicatorSizes().forEach((n, c) -> out.append("  communicators of ").append(n).append(" ranks initialised: ").append(c).append('\n'));
        log.algorithms().forEach((a, n) -> out.append("  algorithm/protocol ").append(a).append(": ").append(n).append('\n'));
        tuningRanges(log.tuning()).forEach(t -> out.append("  tuning ").append(t).append('\n'));
        for (NcclLog.GdrLine g : log.gdr()) {
            out.append("  GDR ").append(g.enabled() ? "enabled" : "disabled").append(" for GPU ").append(g.gpu()).append(" / HCA ")
                    .append(g.hca()).append(": distance ").append(g.distance()).append(' ').append(g.relation()).append(' ')
                    .append(g.threshold()).append(" (").append(decode(g, version)).append(" in NCCL ").append(version).append(")\n");
        }
        for (NcclLog.NicGdr n : log.nicGdr()) {
            out.append("  NIC ").append(n.hca()).append(" (NET/").append(n.net()).append(' ').append(n.index()).append("): GPU Direct RDMA ")
                    .append(n.enabled() ? "enabled" : "DISABLED" + (n.noModule() ? " (no module)" : "")).append('\n');
            if (!n.meaning().isEmpty()) {
                out.append("    ").append(n.meaning()).append('\n');
            }
        }
        out.append("  warnings: ").append(log.warnings()).append('\n');
        log.firstWarnings().forEach(w -> out.append("    ").append(w).append('\n'));
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
        log.watchdogTimeouts().forEach(w -> out.append("  watchdog: ").append(w).append('\n'));
        log.differences().forEach(d -> out.append("DIFFERS between processes: ").append(d).append('\n'));
        return out.toString();
    }

    /**
     * NCCL's choices by size, a line per collective: "AllReduce: RING/LL 8 B to 64 KiB (120 calls), RING/SIMPLE 128 KiB to
     * 1 GiB (40 calls)", consecutive sizes with the same algorithm and protocol joined.
     */
    static List<String> tuningRanges(List<NcclLog.Tuning> tuning) {
        Map<String, List<NcclLog.Tuning>> byCollective = new LinkedHashMap<>();
        tuning.forEach(t -> byCollective.computeIfAbsent(t.collective().orElse("(collective not logged)"), k -> new ArrayList<>()).add(t));
        List<String> lines = new ArrayList<>();
        byCollective.forEach((collective, choices) -> {
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
            lines.add(collective + ": " + String.join(", ", ranges));
        });
        return lines;
    }

    /** One log in a line: "NCCL 2.27.5, Using network IB, 32 via NET/IB/0/GDRDMA". */
    public static String summary(NcclLog log) {
        StringBuilder s = new StringBuilder("NCCL ").append(log.versions().isEmpty() ? "?" : String.join(", ", log.versions()));
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
        });
        return out.toString();
    }

    static String decode(NcclLog.GdrLine g, String version) {
        try {
            return NcclPathTypes.decodeDistance(g.distance(), g.relation(), g.threshold(), version);
        } catch (IllegalArgumentException e) {
            return "cannot decode in NCCL " + version;
        }
    }
}
