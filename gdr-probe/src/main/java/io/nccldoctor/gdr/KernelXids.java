package io.nccldoctor.gdr;

import io.nccldoctor.core.Fact;
import io.nccldoctor.core.Host;
import io.nccldoctor.core.exec.CommandResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Xid errors the NVIDIA driver wrote to the kernel log within a window: {@code journalctl -k} for the window, or,
 * where the journal cannot be read (no journal files, a user outside adm/systemd-journal, no journald), {@code dmesg}
 * with its seconds-since-boot stamps held against /proc/uptime. NVML keeps no Xid history (it only delivers Xid
 * events to a listener registered at the time), so the log is the one record of past Xids.
 */
public final class KernelXids {

    /** Azure's check_gpu_xid looks back 2 hours by default (Azure/azurehpc-health-checks customTests/azure_gpu_xid.nhc). */
    public static final Duration WINDOW = Duration.ofHours(2);
    static final Duration TIMEOUT = Duration.ofSeconds(10);
    static final String UPTIME = "/proc/uptime";

    /**
     * {@code NVRM: Xid (PCI:0000:18:00): 79, pid=…, GPU has fallen off the bus.}; the driver names the GPU by
     * domain:bus:device without the function, older drivers without "PCI:", MIG adds " GPU-I:05" inside the
     * parentheses (NVIDIA, "A100 GPU memory error management", Table 3). DCGM reads the same shape from /dev/kmsg:
     * {@code NVRM: Xid \(PCI:(.*)\): (\d+),} (NVIDIA/DCGM dcgmlib/src/DcgmKmsgReader.cpp at 72fa3fe).
     */
    private static final Pattern XID = Pattern.compile(
            "NVRM: Xid \\((?:PCI:)?(?:([0-9a-fA-F]{4,8}):)?([0-9a-fA-F]{2}):([0-9a-fA-F]{2})(?:\\.[0-7])?[^)]*\\):\\s*(\\d+)\\b,?\\s*(.*)$");
    private static final Pattern DMESG_STAMP = Pattern.compile("^\\[\\s*(\\d+(?:\\.\\d+)?)\\]");

    /** What journalctl prints on stderr (exit 0) when it cannot show the kernel's messages (systemd's journalctl). */
    private static final List<String> JOURNAL_BLIND = List.of("No journal files were", "insufficient permissions",
            "not seeing messages from other users");

    private KernelXids() {
    }

    static List<String> journalArgv(Duration window) {
        return List.of("journalctl", "-k", "--since=-" + window.toMinutes() + "min", "-o", "short-iso", "--no-pager");
    }

    static List<String> dmesgArgv() {
        return List.of("dmesg");
    }

    /** The window's Xids from the journal, else from dmesg; an error naming both reasons when neither can be read. */
    public static Fact<GpuHealth.XidLog> read(Host host, Duration window) {
        List<String> journal = journalArgv(window);
        Fact<String> j = output(host.commands().run(journal, TIMEOUT));
        String minutes = window.toMinutes() + " min";
        if (j.isValue()) {
            return Fact.of(parse(String.join(" ", journal), "the last " + minutes, j.get().lines().toList(), -1));
        }
        Fact<String> d = output(host.commands().run(dmesgArgv(), TIMEOUT));
        if (!d.isValue()) {
            return Fact.error("the kernel log cannot be read: journalctl: " + j.reason() + "; dmesg: " + d.reason()
                    + " (root, or the adm group with kernel.dmesg_restrict=0, can read it)");
        }
        Fact<Double> uptime = host.files().readAttribute(UPTIME).flatMap(KernelXids::uptimeSeconds);
        double since = uptime.map(u -> u - window.toSeconds()).orElse(-1.0);
        String span = uptime.isValue() ? "the last " + minutes + " (dmesg stamps against " + UPTIME + ")"
                : "since boot (" + UPTIME + " unreadable: " + uptime.reason() + ")";
        return Fact.of(parse("dmesg (journalctl: " + j.reason() + ")", span, d.get().lines().toList(), since));
    }

    /** stdout of a run that exited 0, unless journalctl said on stderr that it showed nothing it could not see. */
    private static Fact<String> output(CommandResult r) {
        Fact<String> out = r.stdoutIfSucceeded();
        if (out.isValue() && r instanceof CommandResult.Exited e) {
            for (String blind : JOURNAL_BLIND) {
                if (e.stderr().contains(blind)) {
                    return Fact.error(e.stderr().lines().filter(l -> l.contains(blind)).findFirst().orElse(blind).strip());
                }
            }
        }
        return out;
    }

    static Fact<Double> uptimeSeconds(String text) {
        String first = text.strip().split("\\s+")[0];
        try {
            return Fact.of(Double.parseDouble(first));
        } catch (NumberFormatException e) {
            return Fact.error("unreadable " + UPTIME + " '" + text.strip() + "'");
        }
    }

    /**
     * The Xid lines of a log. {@code since} ≥ 0 keeps only dmesg lines stamped at or after that many seconds since boot
     * (a line without a stamp is kept: it cannot be placed, and dropping it could hide an Xid).
     */
    static GpuHealth.XidLog parse(String source, String window, List<String> lines, double since) {
        List<GpuHealth.XidEvent> events = new ArrayList<>();
        List<String> unreadable = new ArrayList<>();
        for (String line : lines) {
            int at = line.indexOf("NVRM: Xid");
            if (at < 0) {
                continue;
            }
            Matcher stamp = DMESG_STAMP.matcher(line.strip());
            if (since >= 0 && stamp.find() && Double.parseDouble(stamp.group(1)) < since) {
                continue;
            }
            Matcher m = XID.matcher(line.substring(at));
            if (!m.find()) {
                unreadable.add(line.strip());
                continue;
            }
            String domain = m.group(1) == null ? "0000" : m.group(1).substring(m.group(1).length() - 4);
            String bus = (domain + ":" + m.group(2) + ":" + m.group(3) + ".0").toLowerCase(Locale.ROOT);
            events.add(new GpuHealth.XidEvent(bus, Integer.parseInt(m.group(4)), m.group(5).strip(), when(line.substring(0, at))));
        }
        return new GpuHealth.XidLog(source, window, events, unreadable);
    }

    /**
     * The line's time stamp: what precedes the message without the "kernel:" tag, blanks collapsed ("[ 269.517039]"
     * from dmesg, "2026-05-18T19:02:39+0000 node17" from journalctl -o short-iso, "May 18 19:02:39 node17" from a
     * syslog file); "" when there is none.
     */
    private static String when(String prefix) {
        return prefix.replace("kernel:", " ").strip().replaceAll("\\s+", " ");
    }
}
