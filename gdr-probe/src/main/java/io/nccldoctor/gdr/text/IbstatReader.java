package io.nccldoctor.gdr.text;

import io.nccldoctor.core.Fact;
import io.nccldoctor.gdr.RdmaProbe;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * `ibstat` (rdma-core infiniband-diags/ibstat.c): "CA 'mlx5_0'" opens a device, "Port 1:" a port; every line is
 * "Key: value" with a fixed set of keys. Rate is in Gb/s ("100", "2.5", "40 (FDR10)").
 */
final class IbstatReader implements SectionReader {

    static final Pattern OPENS = Pattern.compile("^\\s*CA '([^']+)'\\s*$");
    /**
     * ibstat could not read a device it was given or listed: IBPANIC / IBWARN (libibmad mad.h: "ibpanic: [pid] func: "
     * fmt ": %m", "ibwarn: [pid] func: " fmt) with "stat of IB device '%s' failed" (infiniband-diags/ibstat.c: IBPANIC
     * until rdma-core commit 703b52c6e, 2024-09-19, IBWARN since) or "'%s' IB device can't be found" (a name not among
     * the host's devices).
     */
    static final Pattern STAT_FAILED = Pattern.compile(
            "^\\s*ib(?:panic|warn): \\[\\d+\\] \\w+: (?:stat of IB device '([^']+)' failed|'([^']+)' IB device can't be found)(?::\\s*(.*?))?\\s*$");
    /** A value the paste's author replaced by "..." (or "…"): the tool printed one, the input does not show it. */
    private static final Pattern ELIDED = Pattern.compile("^(?:\\.{3,}|…)$");
    private static final Pattern PORT = Pattern.compile("^Port (\\d+):$");
    private static final Pattern KEY_VALUE = Pattern.compile("^([A-Za-z][A-Za-z ]*?):\\s*(.*?)\\s*$");
    private static final Pattern RATE = Pattern.compile("^([\\d.]+)");

    private final PasteFacts facts;
    private PasteFacts.DeviceFacts device;
    private PasteFacts.PortFacts port;

    IbstatReader(PasteFacts facts) {
        this.facts = facts;
    }

    static boolean opens(String line) {
        return OPENS.matcher(line).matches() || STAT_FAILED.matcher(line).matches();
    }

    @Override
    public Verdict read(String line, Slot.Line at) {
        String t = line.strip();
        Matcher failed = STAT_FAILED.matcher(line);
        if (failed.matches()) {
            String name = failed.group(1) != null ? failed.group(1) : failed.group(2);
            String why = failed.group(3) == null ? "" : ": " + failed.group(3);
            facts.device(name).unreadable("ibstat could not read it ('" + t + "', " + at + "): the device" + (failed.group(1) != null
                    ? " named (on its command line or in the host's device list) could not be read" + why + "; the HCA is "
                    + "missing there (removed, its driver not loaded or failed, or renamed)" : " is not among the host's RDMA devices"),
                    facts.notes);
            return Verdict.FACT;
        }
        Matcher ca = OPENS.matcher(line);
        if (ca.matches()) {
            device = facts.device(ca.group(1));
            port = null;
            return Verdict.FACT;
        }
        Matcher p = PORT.matcher(t);
        if (device != null && p.matches()) {
            port = device.port(Integer.parseInt(p.group(1)));
            return Verdict.FACT;
        }
        Matcher kv = KEY_VALUE.matcher(t);
        if (device == null || !kv.matches()) {
            return Verdict.FOREIGN;
        }
        if (ELIDED.matcher(kv.group(2)).matches()) {
            facts.notes.add(device.name + (port == null ? "" : " port " + port.number) + " " + kv.group(1) + ": elided as '"
                    + kv.group(2) + "' in the input (" + at + "), not read");
            return Verdict.KNOWN;
        }
        return port == null ? deviceKey(kv.group(1), kv.group(2), at) : portKey(kv.group(1), kv.group(2), at);
    }

    private Verdict deviceKey(String key, String value, Slot.Line at) {
        switch (key) {
            case "CA type" -> {
                // "MT4129" carries the part id; other drivers print a description ("Broadcom NetXtreme-C/E RoCE Driver HCA")
                Fact<Integer> id = RdmaProbe.partId(value);
                if (!id.isValue()) {
                    return Verdict.KNOWN;
                }
                device.partId.set(id.get(), at, facts.notes);
            }
            case "Firmware version" -> device.fw.set(value, at, facts.notes);
            case "Node GUID" -> device.guid.set(guid(value), at, facts.notes);
            case "Number of ports", "Hardware version", "System image GUID" -> {
                return Verdict.KNOWN;
            }
            default -> {
                return Verdict.FOREIGN;
            }
        }
        return Verdict.FACT;
    }

    /** ibstat prints a GUID as 0x%016x; sysfs, ibv_devinfo and rdma dev as four groups: "0x8e8474fffe1f2550" → "8e84:74ff:fe1f:2550". */
    static String guid(String printed) {
        String hex = printed.strip().toLowerCase(Locale.ROOT);
        if (!hex.matches("0x[0-9a-f]{16}")) {
            return printed.strip();
        }
        return hex.substring(2, 6) + ":" + hex.substring(6, 10) + ":" + hex.substring(10, 14) + ":" + hex.substring(14, 18);
    }

    private Verdict portKey(String key, String value, Slot.Line at) {
        switch (key) {
            case "State" -> PortStates.state(value).ifPresentOrElse(s -> port.state.set(s, at, facts.notes),
                    () -> port.state.fail("unknown port state '" + value + "'", at));
            case "Physical state" -> PortStates.phys(value).ifPresentOrElse(s -> port.phys.set(s, at, facts.notes),
                    () -> port.phys.fail("unknown physical state '" + value + "'", at));
            case "Rate" -> {
                Matcher r = RATE.matcher(value);
                if (r.find()) {
                    port.gbps.set(Double.parseDouble(r.group(1)), at, facts.notes);
                    port.rate.set(value + " Gb/s", at, facts.notes);
                } else {
                    port.gbps.fail("unreadable rate '" + value + "'", at);
                }
            }
            case "Base lid" -> DevinfoReader.integer(value).ifPresent(v -> port.lid.set(v, at, facts.notes));
            case "SM lid" -> DevinfoReader.integer(value).ifPresent(v -> port.smLid.set(v, at, facts.notes));
            case "Link layer" -> port.linkLayer.set(value, at, facts.notes);
            case "LMC", "Capability mask", "Port GUID", "Effective speed" -> {
                return Verdict.KNOWN;
            }
            default -> {
                return Verdict.FOREIGN;
            }
        }
        return Verdict.FACT;
    }
}
