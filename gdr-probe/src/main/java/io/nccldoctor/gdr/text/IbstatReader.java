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
    private static final Pattern PORT = Pattern.compile("^Port (\\d+):$");
    private static final Pattern KEY_VALUE = Pattern.compile("^([A-Za-z][A-Za-z ]*?):\\s*(.*?)\\s*$");
    private static final Pattern RATE = Pattern.compile("^([\\d.]+)");

    private final PasteFacts facts;
    private PasteFacts.DeviceFacts device;
    private PasteFacts.PortFacts port;

    IbstatReader(PasteFacts facts) {
        this.facts = facts;
    }

    @Override
    public Verdict read(String line, Slot.Line at) {
        String t = line.strip();
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
