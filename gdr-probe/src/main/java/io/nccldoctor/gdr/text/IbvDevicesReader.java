package io.nccldoctor.gdr.text;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * `ibv_devices` (rdma-core libibverbs/examples/device_list.c): a header, a dashed line, then one row per device of
 * ibv_get_device_list, printed "    %-16s\t%016llx\n" with the node GUID in host order (be64toh). It prints names and
 * node GUIDs only: no port, no port state, no link layer, no firmware. Tabs become spaces once pasted.
 */
final class IbvDevicesReader implements SectionReader {

    static final Pattern OPENS = Pattern.compile("^\\s*device\\s+node GUID\\s*$");
    private static final Pattern DASHES = Pattern.compile("^\\s*------\\s+----------------\\s*$");
    private static final Pattern ROW = Pattern.compile("^\\s+([\\w.-]+)\\s+([0-9a-fA-F]{16})\\s*$");

    private final PasteFacts facts;

    IbvDevicesReader(PasteFacts facts) {
        this.facts = facts;
    }

    @Override
    public Verdict read(String line, Slot.Line at) {
        if (OPENS.matcher(line).matches()) {
            facts.ibvDevicesHeader(at);
            return Verdict.KNOWN;
        }
        if (DASHES.matcher(line).matches()) {
            return Verdict.KNOWN;
        }
        Matcher m = ROW.matcher(line);
        if (!m.matches()) {
            return Verdict.FOREIGN;
        }
        PasteFacts.DeviceFacts d = facts.device(m.group(1));
        d.guid.set(guid(m.group(2)), at, facts.notes);
        facts.ibvDevicesRow(d, at);
        return Verdict.FACT;
    }

    /** "98039b03003b0346" → "9803:9b03:003b:0346", the four groups sysfs node_guid and ibv_devinfo print. */
    static String guid(String hex) {
        String h = hex.toLowerCase(Locale.ROOT);
        return h.substring(0, 4) + ":" + h.substring(4, 8) + ":" + h.substring(8, 12) + ":" + h.substring(12, 16);
    }
}
